package io.github.pgadvisorylint.core.model;

/**
 * Lock mode of an advisory lock. Shared locks conflict only with exclusive ones (RULES.md F7).
 */
public enum LockMode {
    /** Conflicts with every other lock on the key. */
    EXCLUSIVE,
    /** Conflicts only with exclusive locks on the key. */
    SHARED
}
