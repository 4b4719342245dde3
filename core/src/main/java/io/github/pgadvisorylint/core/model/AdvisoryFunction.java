package io.github.pgadvisorylint.core.model;

import java.util.Locale;
import java.util.Optional;

/**
 * The eleven built-in PostgreSQL advisory-lock functions (PostgreSQL docs, "Advisory Lock
 * Functions", table 9.105; RULES.md "What counts as a lock call" and F16). There is no
 * {@code pg_advisory_xact_unlock}.
 */
public enum AdvisoryFunction {
    PG_ADVISORY_LOCK("pg_advisory_lock", LockLevel.SESSION, LockMode.EXCLUSIVE, LockOperation.ACQUIRE),
    PG_ADVISORY_LOCK_SHARED("pg_advisory_lock_shared", LockLevel.SESSION, LockMode.SHARED, LockOperation.ACQUIRE),
    PG_TRY_ADVISORY_LOCK("pg_try_advisory_lock", LockLevel.SESSION, LockMode.EXCLUSIVE, LockOperation.TRY_ACQUIRE),
    PG_TRY_ADVISORY_LOCK_SHARED(
            "pg_try_advisory_lock_shared", LockLevel.SESSION, LockMode.SHARED, LockOperation.TRY_ACQUIRE),
    PG_ADVISORY_XACT_LOCK("pg_advisory_xact_lock", LockLevel.TRANSACTION, LockMode.EXCLUSIVE, LockOperation.ACQUIRE),
    PG_ADVISORY_XACT_LOCK_SHARED(
            "pg_advisory_xact_lock_shared", LockLevel.TRANSACTION, LockMode.SHARED, LockOperation.ACQUIRE),
    PG_TRY_ADVISORY_XACT_LOCK(
            "pg_try_advisory_xact_lock", LockLevel.TRANSACTION, LockMode.EXCLUSIVE, LockOperation.TRY_ACQUIRE),
    PG_TRY_ADVISORY_XACT_LOCK_SHARED(
            "pg_try_advisory_xact_lock_shared", LockLevel.TRANSACTION, LockMode.SHARED, LockOperation.TRY_ACQUIRE),
    PG_ADVISORY_UNLOCK("pg_advisory_unlock", LockLevel.SESSION, LockMode.EXCLUSIVE, LockOperation.RELEASE),
    PG_ADVISORY_UNLOCK_SHARED("pg_advisory_unlock_shared", LockLevel.SESSION, LockMode.SHARED, LockOperation.RELEASE),
    PG_ADVISORY_UNLOCK_ALL("pg_advisory_unlock_all", LockLevel.SESSION, LockMode.EXCLUSIVE, LockOperation.RELEASE_ALL);

    private final String sqlName;
    private final LockLevel level;
    private final LockMode mode;
    private final LockOperation operation;

    AdvisoryFunction(String sqlName, LockLevel level, LockMode mode, LockOperation operation) {
        this.sqlName = sqlName;
        this.level = level;
        this.mode = mode;
        this.operation = operation;
    }

    /** @return the function's name as PostgreSQL spells it, lower case, e.g. {@code pg_try_advisory_lock} */
    public String sqlName() {
        return sqlName;
    }

    /** @return session or transaction level */
    public LockLevel level() {
        return level;
    }

    /** @return exclusive or shared; {@code pg_advisory_unlock_all} reports exclusive */
    public LockMode mode() {
        return mode;
    }

    /** @return acquire, try-acquire, release or release-all */
    public LockOperation operation() {
        return operation;
    }

    /** @return true when the call waits for the lock ({@code pg_advisory_lock*}, {@code pg_advisory_xact_lock*}) */
    public boolean isBlocking() {
        return operation == LockOperation.ACQUIRE;
    }

    /**
     * Looks a function up by name, case-insensitively. Schema qualification is the caller's concern.
     *
     * @param name an identifier such as {@code PG_ADVISORY_LOCK}; null gives empty
     * @return the function, or empty for any other name (look-alikes such as {@code pg_advisory_xact_lock_try})
     */
    public static Optional<AdvisoryFunction> byName(String name) {
        if (name == null || name.length() < 16 || name.length() > 32) {
            return Optional.empty();
        }
        String lower = name.toLowerCase(Locale.ROOT);
        for (AdvisoryFunction f : values()) {
            if (f.sqlName.equals(lower)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** @return the arities PostgreSQL accepts: {0} for unlock-all, {1, 2} otherwise */
    public boolean acceptsArity(int arity) {
        return this == PG_ADVISORY_UNLOCK_ALL ? arity == 0 : arity == 1 || arity == 2;
    }
}
