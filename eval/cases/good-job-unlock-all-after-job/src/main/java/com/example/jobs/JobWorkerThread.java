// Case: GoodJob released a performed job's lock with pg_advisory_unlock_all(), a blanket release of every session lock of the worker's connection, instead of unlocking the one job record it had locked (replaced by a targeted unlock in the PR)
// Source: https://github.com/bensheldon/good_job/pull/1113
// Kind: bug
// Expected: pg_advisory_unlock_all() is used as the release of the single job lock, but the same connection also holds the process-liveness lock taken in start(); after the first job that lock is gone too (F5) and other nodes treat this worker as dead. Unlock the job key with pg_advisory_unlock(key) instead.
package com.example.jobs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.postgresql.ds.PGSimpleDataSource;

public class JobWorkerThread implements Runnable {

    private static final int PROCESS_NS = 17;   // two-int space: (17, process slot) marks a live worker process

    private final PGSimpleDataSource dataSource;     // unpooled: closing the connection ends its session
    private final JobPerformer performer;
    private final int processSlot;
    private volatile boolean running = true;

    public JobWorkerThread(PGSimpleDataSource dataSource, JobPerformer performer, int processSlot) {
        this.dataSource = dataSource;
        this.performer = performer;
        this.processSlot = processSlot;
    }

    @Override
    public void run() {
        try (Connection conn = dataSource.getConnection()) {     // one session for the worker's whole life
            start(conn);
            while (running) {
                if (!performNext(conn)) {
                    Thread.sleep(1_000);
                }
            }
        } catch (SQLException | InterruptedException e) {
            running = false;
        }
    }

    /** Reaper on other nodes deletes process rows whose (17, slot) lock nobody holds. */
    private void start(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_lock(?, ?)")) {
            ps.setInt(1, PROCESS_NS);
            ps.setInt(2, processSlot);
            ps.execute();
        }
    }

    private boolean performNext(Connection conn) throws SQLException {
        UUID jobId = null;
        long lockKey = 0;
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery(
                     "SELECT id, lock_key FROM jobs WHERE finished_at IS NULL AND scheduled_at <= now() "
                     + "ORDER BY priority DESC, created_at LIMIT 1")) {
            if (rs.next()) {
                jobId = rs.getObject(1, UUID.class);
                lockKey = rs.getLong(2);
            }
        }
        if (jobId == null) {
            return false;
        }
        try (PreparedStatement lock = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            lock.setLong(1, lockKey);
            try (ResultSet rs = lock.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    return true;                       // another worker has it, look again
                }
            }
        }
        try {
            performer.perform(conn, jobId);
        } finally {
            try (Statement st = conn.createStatement()) {
                st.execute("SELECT pg_advisory_unlock_all()");   // want: unlock-mismatch
            }
        }
        return true;
    }

    public void stop() {
        running = false;
    }

    public interface JobPerformer {
        void perform(Connection conn, UUID jobId) throws SQLException;
    }
}
