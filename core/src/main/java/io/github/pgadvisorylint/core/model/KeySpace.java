package io.github.pgadvisorylint.core.model;

/**
 * The two advisory-lock key spaces, which do not overlap (RULES.md F6; PostgreSQL docs, "Advisory
 * Lock Functions"). In {@code pg_locks} a one-bigint key shows {@code objsubid = 1}, a two-int key
 * {@code objsubid = 2}.
 */
public enum KeySpace {
    /** One {@code bigint} argument. */
    BIGINT,
    /** Two {@code int} arguments. */
    INT_PAIR,
    /** No key: {@code pg_advisory_unlock_all()}. */
    NONE;

    /**
     * @param arity number of arguments of the call
     * @return the key space for that arity; arities other than 1 and 2 give {@link #NONE}
     */
    public static KeySpace ofArity(int arity) {
        return arity == 1 ? BIGINT : arity == 2 ? INT_PAIR : NONE;
    }
}
