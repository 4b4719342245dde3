package io.github.pgadvisorylint.core.api;

/**
 * What a type of the catalog is to a connection, which decides how long a session-level lock taken
 * through it lives: past {@code close()} on a pooled connection (F13), to the end of the session on an
 * unpooled one, for one statement through a per-call template (F5).
 */
public enum ConnectionSource {
    /** Its {@code getConnection()} opens a physical connection of its own ({@code DriverManager}, {@code PGSimpleDataSource}). */
    UNPOOLED,
    /** Its {@code getConnection()} lends a pooled connection ({@code HikariDataSource}, any {@code DataSource}). */
    POOLED,
    /** Borrows a pooled connection for each call and gives it back afterwards ({@code JdbcTemplate}, a Vert.x {@code Pool}, {@code Jdbi}). */
    PER_CALL,
    /** Is one connection or session for its whole life ({@code Connection}, JDBI {@code Handle}, a Vert.x {@code SqlConnection}). */
    PINNED,
    /** An interface that may be either a pool or one connection (Vert.x {@code SqlClient}). */
    EITHER
}
