// Case: DeepLynx's fix for its per-container processing lock: a worker now asks for the container's transaction-level lock with pg_try_advisory_xact_lock in the transaction that holds it, and ends at once, leaving its imports for a later run, when another worker has the container.
// Source: https://github.com/idaholab/DeepLynx/pull/467
// Kind: correct
// Expected: nothing to report. process() opens lockTx with autocommit off and calls store.tryLockContainer, whose SELECT pg_try_advisory_xact_lock(?) returns at once and whose boolean decides: on false the worker rolls back (nothing was taken), logs and returns, so no worker waits on another; on true the lock lives in lockTx's open transaction while the imports are processed on other connections, and ends with the commit, or with the rollback when the work fails (a pooled connection closed with its transaction ended holds no transaction-level lock). The key is the container id, used by this lock only.
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
                if (!store.tryLockContainer(lockTx, containerId)) {
                    lockTx.rollback();
                    log.warn("Container {} is being processed by another worker, leaving imports {} for a later run",
                            containerId, importIds);
                    return;
                }
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
