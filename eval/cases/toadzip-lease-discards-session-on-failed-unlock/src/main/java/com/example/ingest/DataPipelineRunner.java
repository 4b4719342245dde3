// Case: toadzip unified its six JDBC advisory-lock sites behind one PostgresAdvisoryLock so that a PostgreSQL session still holding a lock never goes back to the Hikari pool: when the unlock fails or returns false, or the acquisition or status check fails, the physical connection is aborted and the pool slot reclaimed; a clean release returns the connection once, a double close of the lease is harmless, and the work's own exception is kept.
// Source: https://github.com/woowacourse-teams/2026-toadzip/pull/139
// Kind: correct
// Expected: nothing to report. The session lock is taken in PostgresAdvisoryLock.tryAcquire and released in Lease.close, another method, on another thread (the worker that runs the pipeline, through try-with-resources). Every path that could leave the key held ends the session instead of pooling it: a failed or indeterminate acquisition, an unlock that throws or returns false. Aborting the physical connection ends the backend session, which releases its session locks (F1); only a connection whose unlock returned true is closed back into the pool (F13 does not apply). A false try-lock returns the connection unlocked and skips the work.
package com.example.ingest;

import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

public class DataPipelineRunner {

    private static final long DATA_PIPELINE_KEY = 8_812_001L;

    private final PostgresAdvisoryLock locks;
    private final ExecutorService workers;
    private final Runnable pipeline;

    public DataPipelineRunner(PostgresAdvisoryLock locks, ExecutorService workers, Runnable pipeline) {
        this.locks = locks;
        this.workers = workers;
        this.pipeline = pipeline;
    }

    /** Called by the scheduler thread; the worker that ingests owns the lease and gives it back. */
    public boolean trigger() throws SQLException {
        Optional<PostgresAdvisoryLock.Lease> lease = locks.tryAcquire(DATA_PIPELINE_KEY);
        if (lease.isEmpty()) {
            return false;                      // another instance is ingesting
        }
        try {
            workers.execute(() -> {
                try (PostgresAdvisoryLock.Lease held = lease.get()) {
                    pipeline.run();
                }
            });
        } catch (RuntimeException rejected) {
            lease.get().close();               // no worker will own it
            throw rejected;
        }
        return true;
    }
}
