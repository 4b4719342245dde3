package com.example.oraclenode.pg;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One unpooled connection that may hold the node lock: closing it ends the session and the lock with it. */
final class LockSession implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LockSession.class);
    private static final String HOLDS_LOCK = "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' "
            + "AND pid = pg_backend_pid() AND granted AND objsubid = 1 "
            + "AND ((classid::bigint << 32) | objid::bigint) = ?)";

    private final Connection conn;
    private final long key;

    private LockSession(Connection conn, long key) {
        this.conn = conn;
        this.key = key;
    }

    static LockSession open(String jdbcUrl, Properties credentials, long key) throws SQLException {
        return new LockSession(DriverManager.getConnection(jdbcUrl, credentials), key);
    }

    boolean tryLock() throws SQLException {
        return queryBoolean("SELECT pg_try_advisory_lock(?)");
    }

    /** Whether this very backend still holds the key (a one-bigint key: classid is its high half, objid its low). */
    boolean holdsLock() throws SQLException {
        return queryBoolean(HOLDS_LOCK);
    }

    boolean unlock() throws SQLException {
        return queryBoolean("SELECT pg_advisory_unlock(?)");
    }

    private boolean queryBoolean(String sql) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    @Override
    public void close() {
        try {
            conn.close();
        } catch (SQLException e) {
            log.debug("Closing the lock connection failed", e);
        }
    }
}
