package com.example.analytics.leader;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the two jobs that must run on one replica only: the metrics inventory sync and the retention
 * worker, each behind its own advisory lock. Both keys are the ones already used in production.
 */
public class BackgroundWorkers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BackgroundWorkers.class);

    static final long INVENTORY_LOCK_KEY = 0x6d657472696373L;   // "metrics"
    static final long RETENTION_LOCK_KEY = 0x726574656e74696fL; // "retentio"

    private final AdvisoryLeaderElection election;
    private final Runnable inventorySync;
    private final Runnable retentionWorker;
    private final ExecutorService executor = Executors.newFixedThreadPool(2);

    public BackgroundWorkers(AdvisoryLeaderElection election, Runnable inventorySync, Runnable retentionWorker) {
        this.election = election;
        this.inventorySync = inventorySync;
        this.retentionWorker = retentionWorker;
    }

    public void start() {
        executor.submit(() -> runElected("metric-analytics-inventory", INVENTORY_LOCK_KEY, inventorySync));
        executor.submit(() -> runElected("metric-analytics-retention", RETENTION_LOCK_KEY, retentionWorker));
    }

    private void runElected(String lease, long lockKey, Runnable job) {
        try {
            election.runWhileLeader(lease, lockKey, job);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.info("leader election {} stopped", lease);
    }

    @Override
    public void close() {
        executor.shutdownNow();                 // the jobs return when interrupted
    }
}
