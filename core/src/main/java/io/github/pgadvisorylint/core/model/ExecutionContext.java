package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * The transaction and connection context of a lock site.
 *
 * @param transaction         whether it runs in a transaction
 * @param transactionEvidence a short phrase saying why, e.g. {@code @Transactional on InvoiceJob.run},
 *                            {@code no setAutoCommit(false) on conn}; never null
 * @param transactionRegion   where that evidence is, or null
 * @param connection          whether lock, work and unlock share one backend session
 * @param connectionEvidence  a short phrase saying why, e.g. {@code JdbcTemplate borrows a pooled connection per call}; never null
 * @param boundary            who decides the transaction: the code around the site, or each caller of its method; never null
 * @param origin              the URL or configuration key the site's own connection is opened with, when the code says;
 *                            else null
 */
public record ExecutionContext(
        TransactionState transaction,
        String transactionEvidence,
        SourceRegion transactionRegion,
        ConnectionScope connection,
        String connectionEvidence,
        TransactionBoundary boundary,
        ConnectionOrigin origin) {

    /** Nothing known. */
    public static final ExecutionContext UNKNOWN =
            new ExecutionContext(TransactionState.UNKNOWN, "", null, ConnectionScope.UNKNOWN, "");

    /** Checks that the required fields are present. */
    public ExecutionContext {
        Objects.requireNonNull(transaction, "transaction");
        Objects.requireNonNull(transactionEvidence, "transactionEvidence");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(connectionEvidence, "connectionEvidence");
        Objects.requireNonNull(boundary, "boundary");
    }

    /** A context whose connection's origin the code does not say. */
    public ExecutionContext(
            TransactionState transaction,
            String transactionEvidence,
            SourceRegion transactionRegion,
            ConnectionScope connection,
            String connectionEvidence,
            TransactionBoundary boundary) {
        this(transaction, transactionEvidence, transactionRegion, connection, connectionEvidence, boundary, null);
    }

    /** @return this context with the connection's origin */
    public ExecutionContext withOrigin(ConnectionOrigin o) {
        return new ExecutionContext(
                transaction, transactionEvidence, transactionRegion, connection, connectionEvidence, boundary, o);
    }

    /** A context decided by the code around the site ({@link TransactionBoundary#OWN}). */
    public ExecutionContext(
            TransactionState transaction,
            String transactionEvidence,
            SourceRegion transactionRegion,
            ConnectionScope connection,
            String connectionEvidence) {
        this(
                transaction,
                transactionEvidence,
                transactionRegion,
                connection,
                connectionEvidence,
                TransactionBoundary.OWN);
    }
}
