package io.github.pgadvisorylint.core.model;

/**
 * Whether the statements around a lock site run on one backend session (RULES.md unpinned-session-lock,
 * F13).
 */
public enum ConnectionScope {
    /** One {@code Connection} variable, or a pinned scope ({@code ConnectionCallback}, {@code doWork}, {@code SingleConnectionDataSource}, {@code DriverManager}). */
    PINNED,
    /** An API that borrows a pooled connection per call: {@code JdbcTemplate}, {@code EntityManager} outside a transaction, Spring Data, jOOQ over a {@code DataSource}, R2DBC, Vert.x {@code Pool}. */
    POOLED_PER_CALL,
    /** Cannot be told. */
    UNKNOWN
}
