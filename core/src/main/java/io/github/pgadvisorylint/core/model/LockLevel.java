package io.github.pgadvisorylint.core.model;

/**
 * How long an advisory lock is held (PostgreSQL docs, "Advisory Locks", section 13.3.5).
 */
public enum LockLevel {
    /** Held until explicitly released or the session ends; a ROLLBACK does not release it (RULES.md F1). */
    SESSION,
    /** Held until the end of the current transaction; cannot be released early (RULES.md F2). */
    TRANSACTION
}
