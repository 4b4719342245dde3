// Case: prometheus-postgresql-adapter's leader election re-ran pg_try_advisory_lock on its lock connection at every leadership check; the re-entrant lock stacked, the single pg_advisory_unlock on resign left it held, and no other adapter could become leader (the fix released with pg_advisory_unlock_all).
// Source: https://github.com/timescale/prometheus-postgresql-adapter/pull/99
// Kind: bug
// Expected: every isLeader() call takes the session lock once more on the same connection (session locks stack), but resign() unlocks once and then returns the connection to the pool still holding the remaining holds, so leadership is never handed over; take the lock only when not already held, or release every hold before giving the connection back.
package com.example.leader;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

public class PgAdvisoryLeaderLock {

    private final DataSource pool;
    private final long groupLockId;
    private Connection conn;          // kept between calls so that the session keeps the lock
    private boolean leader;

    public PgAdvisoryLeaderLock(DataSource pool, long groupLockId) {
        this.pool = pool;
        this.groupLockId = groupLockId;
    }

    /** Called by the write path and by a ticker every few seconds. */
    public synchronized boolean isLeader() throws SQLException {
        return tryLock();
    }

    public synchronized boolean becomeLeader() throws SQLException {
        return tryLock();
    }

    private boolean tryLock() throws SQLException {
        if (conn == null) {
            conn = pool.getConnection();
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: unlock-mismatch
            ps.setLong(1, groupLockId);
            try (ResultSet rs = ps.executeQuery()) {
                leader = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            closeConnection();
            leader = false;
            throw e;
        }
        return leader;
    }

    public synchronized void resign() throws SQLException {
        if (!leader) {
            throw new IllegalStateException("can't release while not holding the lock");
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, groupLockId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    throw new SQLException("failed to release the lock with group lock id " + groupLockId);
                }
            }
        }
        closeConnection();                 // may: lock-without-finally-unlock
        leader = false;
    }

    private void closeConnection() {
        if (conn != null) {
            try {
                // back to the pool: the session, and any hold still on it, lives on
                conn.close();              // may: lock-without-finally-unlock
            } catch (SQLException ignored) {
                // nothing more to do
            }
        }
        conn = null;
    }
}
