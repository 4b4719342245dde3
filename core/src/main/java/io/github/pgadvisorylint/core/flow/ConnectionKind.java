package io.github.pgadvisorylint.core.flow;

/**
 * Where a connection comes from, which decides what closing it does to its session-level locks:
 * closing an unpooled connection ends its backend session and with it every session-level lock
 * (PostgreSQL docs, "Advisory Locks"); closing a pooled one returns it to the pool with its session,
 * and its locks, alive (RULES.md F13).
 */
public enum ConnectionKind {
    /** Borrowed from a pool ({@code DataSource.getConnection()}, Hikari, Tomcat, DBCP, c3p0). */
    POOLED,
    /** A physical connection of its own ({@code DriverManager}, {@code SimpleDriverDataSource}, {@code PGSimpleDataSource}). */
    UNPOOLED,
    /** Not known here: a parameter, a field, or a source the catalog does not name. */
    UNKNOWN
}
