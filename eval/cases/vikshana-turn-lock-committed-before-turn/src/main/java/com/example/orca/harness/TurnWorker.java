// Case: the Orca agent harness's turn worker claims a queued turn job and takes a transaction-level advisory lock on the job's session id to allow at most one active turn per chat session, but it commits that claim transaction right away and runs the turn afterwards, so the lock is already gone when the turn executes and two workers can run turns of one session at the same time.
// Source: https://github.com/vikshana/vikshana-graft-app/issues/29
// Kind: bug
// Expected: pollOnce opens a transaction (setAutoCommit(false)), claims a pending turn_jobs row, takes pg_advisory_xact_lock(hashtext(session id)) and commits. A transaction-level lock lasts until the end of its transaction, so the commit on the next line releases it (F2), and executor.execute(...), the work the lock was meant to guard, runs after the connection went back to the pool, holding nothing. Two pending jobs of one session are distinct rows, FOR UPDATE SKIP LOCKED lets two workers claim one each, the second worker's lock call does not wait because the first worker's lock is already released, and both run a turn against the same session's LangGraph checkpoint concurrently (interleaved checkpoint writes, duplicated side effects). The lock must live in a transaction (or a session lock on a held connection) that spans the turn. The key is a 32-bit hashtext of the session id, so unrelated sessions may share a key (a debatable second point).
package com.example.orca.harness;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class TurnWorker implements Runnable {

    /** Runs one agent turn (graph invocation) for a session. */
    public interface TurnExecutor {
        void execute(String sessionId, String payloadJson) throws Exception;
    }

    private record ClaimedJob(UUID id, String sessionId, String payloadJson) {}

    private static final Logger log = LoggerFactory.getLogger(TurnWorker.class);

    private static final String CLAIM_SQL = """
            UPDATE turn_jobs
               SET status = 'claimed', claimed_at = ?, worker_id = ?, attempts = attempts + 1
             WHERE id = (SELECT id FROM turn_jobs
                          WHERE status = 'pending'
                          ORDER BY created_at
                          LIMIT 1
                          FOR UPDATE SKIP LOCKED)
            RETURNING id, session_id, payload::text
            """;

    private final DataSource dataSource;
    private final TurnExecutor executor;
    private final String workerId;
    private final long pollMillis;
    private volatile boolean stopped;

    public TurnWorker(DataSource dataSource, TurnExecutor executor, String workerId, long pollMillis) {
        this.dataSource = dataSource;
        this.executor = executor;
        this.workerId = workerId;
        this.pollMillis = pollMillis;
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                if (!pollOnce()) {
                    Thread.sleep(pollMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (SQLException | RuntimeException e) {
                log.error("turn worker {}: poll failed", workerId, e);
            }
        }
    }

    public void stop() {
        stopped = true;
    }

    /** Claims one pending job and executes its turn; false when the queue was empty. */
    boolean pollOnce() throws SQLException {
        ClaimedJob job;
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try {
                job = claimNext(conn);
                if (job == null) {
                    conn.rollback();
                    return false;
                }
                // One active turn per session.
                try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) { // want: xact-lock-outside-transaction // may: weak-lock-key-hash
                    lock.setString(1, job.sessionId());
                    lock.execute();
                }
                conn.commit();
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            }
        }

        // Execute the turn outside the claiming transaction.
        log.info("worker {} claimed job {} for session {}", workerId, job.id(), job.sessionId());
        try {
            executor.execute(job.sessionId(), job.payloadJson());
            markJob(job.id(), "done");
        } catch (Exception e) {
            log.error("turn job {} failed", job.id(), e);
            markJob(job.id(), "failed");
        }
        return true;
    }

    private ClaimedJob claimNext(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(CLAIM_SQL)) {
            ps.setTimestamp(1, Timestamp.from(Instant.now()));
            ps.setString(2, workerId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new ClaimedJob(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)) : null;
            }
        }
    }

    private void markJob(UUID jobId, String status) throws SQLException {
        try (Connection conn = dataSource.getConnection();
             PreparedStatement ps = conn.prepareStatement("UPDATE turn_jobs SET status = ?, finished_at = now() WHERE id = ?")) {
            ps.setString(1, status);
            ps.setObject(2, jobId);
            ps.executeUpdate();
        }
    }
}
