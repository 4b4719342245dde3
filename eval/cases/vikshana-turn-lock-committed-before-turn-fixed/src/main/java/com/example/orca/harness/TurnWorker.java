// Case: the Orca agent harness's fix for its per-session turn lock: the claim is committed on its own, then a dedicated connection opens a transaction, takes a non-blocking transaction-level advisory lock on the session id and keeps that transaction open while the turn runs, requeueing the job when another worker holds the session; a heartbeat keeps the claim lease fresh meanwhile.
// Source: https://github.com/vikshana/vikshana-graft-app/commit/61534e4d7111d39c01c59193555817470c9cf934
// Kind: correct
// Expected: nothing to report. The claim transaction only claims the row and commits. The session lock is pg_try_advisory_xact_lock taken on the exec connection after setAutoCommit(false); its boolean decides: on false the transaction is rolled back and the job returned to pending, on true the turn, the job status update and the heartbeats run while that transaction stays open, and the commit in finally (or the rollback the pool performs when the connection is closed after a failed commit) ends the transaction and releases the lock only after the turn has finished, successfully or not. Status updates and heartbeats use other pooled connections in autocommit, which does not touch the lock. The key is a 32-bit hashtext of the session id, as in the original; a collision only makes two sessions wait for each other (debatable at most).
package com.example.orca.harness;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Polls the turn_jobs queue; any replica can claim a job, at most one turn per session runs at a time. */
public class TurnWorker {

    /** Runs one agent turn (graph invocation) for a session. */
    public interface TurnExecutor {
        void execute(String sessionId, String payloadJson) throws Exception;
    }

    record ClaimedJob(UUID id, String sessionId, String payloadJson) {}

    private static final Logger log = LoggerFactory.getLogger(TurnWorker.class);

    private final DataSource dataSource;
    private final TurnJobStore jobs;
    private final TurnExecutor executor;
    private final ScheduledExecutorService heartbeats;
    private final long heartbeatSeconds;
    private long processed;

    public TurnWorker(DataSource dataSource, TurnJobStore jobs, TurnExecutor executor,
                      ScheduledExecutorService heartbeats, long heartbeatSeconds) {
        this.dataSource = dataSource;
        this.jobs = jobs;
        this.executor = executor;
        this.heartbeats = heartbeats;
        this.heartbeatSeconds = heartbeatSeconds;
    }

    /** True when a turn was executed; false when the queue was empty or the job's session is busy. */
    boolean pollOnce() throws SQLException {
        ClaimedJob job = jobs.claimNext();       // committed at once: the claim is durable however long the turn takes
        if (job == null) {
            return false;
        }
        log.info("claimed job {} for session {}", job.id(), job.sessionId());

        try (Connection exec = dataSource.getConnection()) {
            exec.setAutoCommit(false);
            boolean acquired;
            try (PreparedStatement lock = exec.prepareStatement("SELECT pg_try_advisory_xact_lock(hashtext(?))")) { // may: weak-lock-key-hash
                lock.setString(1, job.sessionId());
                try (ResultSet rs = lock.executeQuery()) {
                    acquired = rs.next() && rs.getBoolean(1);
                }
            }
            if (!acquired) {
                exec.rollback();
                log.info("session {} busy on another worker, job {} requeued", job.sessionId(), job.id());
                jobs.requeueBusy(job.id());
                return false;
            }

            ScheduledFuture<?> heartbeat = heartbeats.scheduleAtFixedRate(
                    () -> jobs.heartbeat(job.id()), heartbeatSeconds, heartbeatSeconds, TimeUnit.SECONDS);
            try {
                executor.execute(job.sessionId(), job.payloadJson());
                jobs.mark(job.id(), "done");
                processed++;
                log.info("turn job {} done ({} so far)", job.id(), processed);
            } catch (Exception e) {
                log.error("turn job {} failed", job.id(), e);
                jobs.mark(job.id(), "failed");
            } finally {
                heartbeat.cancel(false);
                exec.commit();                   // ends the transaction: releases the session's lock
            }
        }
        return true;
    }
}
