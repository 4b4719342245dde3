// Case: GoodJob replaced the blanket pg_advisory_unlock_all() after each job with an unlock of the one job record it had locked, and re-checks finished_at after taking the lock
// Source: https://github.com/bensheldon/good_job/pull/1113
// Kind: correct
// Expected: correct: candidates are chosen by a plain query, each is try-locked by key until one succeeds (the loop stops at the first lock), the lock is released with pg_advisory_unlock of that same key in finally on the same unpooled session, after any open transaction was rolled back, and a false unlock is reported.
package com.example.worker;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

public class JobClaimer {

    private final Connection conn;          // the worker thread's own session, opened with DriverManager
    private final Performer performer;

    public JobClaimer(Connection conn, Performer performer) {
        this.conn = conn;
        this.performer = performer;
    }

    /** Returns true when a job was performed. */
    public boolean performOne(String queue) throws SQLException {
        for (Candidate c : candidates(queue)) {
            if (!tryLock(c.lockKey())) {
                continue;                                // locked by another worker
            }
            try {
                if (isFinished(c.id())) {
                    continue;                            // finished between our SELECT and our lock
                }
                performer.perform(conn, c.id());
                return true;
            } finally {
                if (!conn.getAutoCommit()) {
                    conn.rollback();                     // never unlock inside an aborted transaction
                    conn.setAutoCommit(true);
                }
                unlock(c.lockKey());
            }
        }
        return false;
    }

    private List<Candidate> candidates(String queue) throws SQLException {
        List<Candidate> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT id, lock_key FROM jobs WHERE queue_name = ? AND finished_at IS NULL "
                + "AND (scheduled_at IS NULL OR scheduled_at <= now()) ORDER BY priority DESC, created_at LIMIT 10")) {
            ps.setString(1, queue);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Candidate(rs.getObject(1, UUID.class), rs.getLong(2)));
                }
            }
        }
        return out;
    }

    private boolean tryLock(long key) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private void unlock(long key) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    throw new IllegalStateException("job lock " + key + " was not held by this session");
                }
            }
        }
    }

    private boolean isFinished(UUID id) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT finished_at IS NOT NULL FROM jobs WHERE id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return !rs.next() || rs.getBoolean(1);
            }
        }
    }

    record Candidate(UUID id, long lockKey) {}

    public interface Performer {
        void perform(Connection conn, UUID jobId) throws SQLException;
    }
}
