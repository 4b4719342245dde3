// Case: DeepLynx starts a processing worker per batch of imports and makes workers of one container take turns with a blocking pg_advisory_xact_lock held in a transaction kept open for the whole run; a worker started while another held the container waited inside the lock call with no bound, and processing threads hung.
// Source: https://github.com/idaholab/DeepLynx/pull/467
// Kind: bug
// Expected: process() opens lockTx with autocommit off and calls store.lockContainer, whose SELECT pg_advisory_xact_lock(?) waits, with no lock_timeout, statement_timeout or query timeout in force, for as long as another worker's transaction holds the container's key. That holder keeps its transaction open (idle in transaction on its lock connection) until its whole import is processed, hours for a large one and for ever if its thread wedges, so every worker queued behind it sits in the lock call holding a pooled connection and a worker thread, the imports it was given stay unprocessed though their attempt counter was already raised, and enough of them exhaust the processing pool. The transaction-level lock itself is correct (taken inside the open transaction, released by the commit or rollback at the end); the wait is the defect. Use pg_try_advisory_xact_lock and leave the batch for a later run when it returns false, or bound the wait with SET LOCAL lock_timeout.
package com.example.lynx.processing;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the staged rows of some imports into nodes and edges. The scheduler submits one worker per batch to the
 * processing executor; two batches of one container must not be processed at the same time.
 */
public final class ProcessWorker implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(ProcessWorker.class);

    /** Streams the staging rows and writes nodes and edges, on connections of its own. */
    public interface GraphBuilder {
        void generateNodesAndEdges(long containerId, List<Long> importIds) throws SQLException;
    }

    private final DataSource dataSource;
    private final ProcessingStore store;
    private final GraphBuilder builder;
    private final long containerId;
    private final List<Long> importIds;

    public ProcessWorker(DataSource dataSource, ProcessingStore store, GraphBuilder builder, long containerId,
                         List<Long> importIds) {
        this.dataSource = dataSource;
        this.store = store;
        this.builder = builder;
        this.containerId = containerId;
        this.importIds = List.copyOf(importIds);
    }

    @Override
    public void run() {
        try {
            process();
        } catch (SQLException | RuntimeException e) {
            log.error("Processing imports {} of container {} failed", importIds, containerId, e);
        }
    }

    void process() throws SQLException {
        // Counted outside the lock transaction, so that a crash while processing still counts as an attempt.
        store.incrementAttempts(importIds);

        // This transaction only holds the container lock; the work below commits on its own connections.
        try (Connection lockTx = dataSource.getConnection()) {
            lockTx.setAutoCommit(false);
            try {
                store.lockContainer(lockTx, containerId);
                store.setStarted(Instant.now(), importIds);
                builder.generateNodesAndEdges(containerId, importIds);
                lockTx.commit();
                log.info("Processed imports {} of container {}", importIds, containerId);
            } catch (SQLException | RuntimeException e) {
                lockTx.rollback();
                throw e;
            }
        }
    }
}
