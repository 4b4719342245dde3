package io.github.pgadvisorylint.core.model;

/**
 * How the boolean a {@code pg_try_advisory_*} or {@code pg_advisory_unlock*} call returns reaches a
 * decision in the code that runs it (RULES.md try-lock-result-ignored; F14, F16).
 */
public enum ResultUse {
    /** The value decides: tested in a condition ({@code if (rs.next() && rs.getBoolean(1))}, {@code Boolean.TRUE.equals(...)}) or handed on as an argument. */
    DECIDES,
    /** The value is returned to the caller (a lock helper), which decides. */
    RETURNED,
    /** The result is never read: a discarded result set, {@code queryForObject} result, {@code execute(...)} return, or {@code PERFORM}. */
    NEVER_READ,
    /** {@code Statement.execute(...)}'s return value is used as the outcome; it only says a result set exists (F14). */
    EXECUTE_FLAG,
    /** Row existence is tested instead of the value ({@code rs.next()} alone, {@code !list.isEmpty()}, {@code size() == 1}). */
    ROW_EXISTENCE,
    /** The value is read but no condition uses it before the guarded work (stored and never tested, only logged, only guarding the unlock). */
    READ_NOT_DECIDING,
    /** An unlock whose boolean is dropped: an {@code execute(...)} statement whose value is unused. */
    DISCARDED,
    /** Cannot be told (the result set is handed to other code, the SQL is executed elsewhere): rules stay silent. */
    UNKNOWN
}
