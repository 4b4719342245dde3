package io.github.pgadvisorylint.core.model;

/**
 * How the release of an acquired advisory lock is guaranteed (mirrors SpotBugs FindUnreleasedLock's
 * three lock bug classes and RULES.md lock-without-finally-unlock).
 */
public enum ReleaseGuarantee {
    /** A transaction-level lock: it ends at COMMIT or ROLLBACK (RULES.md F2). */
    TRANSACTION_END,
    /**
     * The unlock runs in a {@code finally} block of a try statement that covers the work; in PL/pgSQL, an
     * {@code EXCEPTION} handler around the work releases the lock (or catches every error and lets the flow
     * reach the unlock).
     */
    FINALLY,
    /** The unlock runs in {@code close()} of a resource declared in try-with-resources. */
    TRY_WITH_RESOURCES,
    /**
     * The unlock lives in another method of the same class (lifecycle callbacks, a lock service's
     * release method, {@code close()}): the pairing is the caller's, not visible here.
     */
    ELSEWHERE_IN_TYPE,
    /**
     * The unlock is in the method, but not in a {@code finally}: an exception skips it. In a PL/pgSQL
     * {@code DO} block or function body: a step between the lock and the unlock can raise an error (or
     * {@code RETURN}) and no {@code EXCEPTION} handler releases the lock (RULES.md F1, F18).
     */
    NOT_IN_FINALLY,
    /**
     * The unlock follows the acquisition with nothing between them that can fail (a PL/pgSQL body that
     * locks and unlocks around nothing, or around {@code RAISE NOTICE} only).
     */
    NOTHING_BETWEEN,
    /**
     * The unlock is in a {@code finally}, but statements that can throw or return run between the
     * acquisition and the {@code try}.
     */
    TRY_STARTS_LATE,
    /** The helper called here releases the lock itself, in a {@code finally} ({@code withLock(key, work)}). */
    BY_HELPER,
    /** A lock handle ({@code AutoCloseable}) that is never closed, or closed outside {@code finally}. */
    HANDLE_NOT_CLOSED,
    /** No unlock for the key anywhere in the file. */
    NONE,
    /**
     * The lock-state analysis followed every path of the method: the lock is released, ends with its
     * unpooled session, or goes to its owner on each of them; where it does not, a
     * {@link PathFinding} says so.
     */
    PATHS_FOLLOWED,
    /**
     * The tool cannot tell, or the session's end releases the lock: top-level statements of a SQL
     * script (the runner's session ends when the script stops), a body with no unlock of the key (a
     * function that locks for its caller), declarations executed elsewhere.
     */
    UNKNOWN
}
