package io.github.pgadvisorylint.core.model;

/** The clause of its query block in which a lock function is evaluated. */
public enum SqlClause {
    /** The select list (target list). */
    SELECT_LIST,
    /** The FROM list, as a function in FROM ({@code SELECT 1 FROM pg_advisory_xact_lock(1)}). */
    FROM,
    /** A {@code JOIN ... ON} condition. */
    JOIN_CONDITION,
    /** A WHERE predicate. */
    WHERE,
    /** GROUP BY. */
    GROUP_BY,
    /** HAVING. */
    HAVING,
    /** ORDER BY. */
    ORDER_BY,
    /** A statement that is a call, not a query: {@code PERFORM} without FROM, {@code { call f(?) }}, {@code CALL}. */
    CALL,
    /** Anywhere else (VALUES, RETURNING, SET, PL/pgSQL expressions). */
    OTHER
}
