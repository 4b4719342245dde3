package io.github.pgadvisorylint.core.model;

/**
 * How sure a piece of {@link PoolingEvidence} is (RULES.md, {@code session-lock-under-transaction-pooling}:
 * {@code error} when declared, {@code warning} when inferred).
 */
public enum EvidenceStrength {
    /** The configuration names the mode: PgBouncer's {@code pool_mode}, a {@code POOL_MODE} environment variable. */
    DECLARED,
    /** The mode is guessed from a connection URL: PgBouncer's port, a pooler's host name, {@code prepareThreshold=0}. */
    INFERRED
}
