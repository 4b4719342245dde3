package com.example.bifrost.configstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The dedicated connection that holds the session-level migration lock. */
final class MigrationLock {

    private static final Logger log = LoggerFactory.getLogger(MigrationLock.class);

    private final Connection conn;
    private final long key;

    MigrationLock(Connection conn, long key) {
        this.conn = conn;
        this.key = key;
    }

    /** Unlocks on the same connection that took the lock, then gives the connection back to the pool. */
    void release() {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // may: unlock-result-ignored
            ps.setLong(1, key);
            ps.execute();
        } catch (SQLException e) {
            log.warn("[configstore] failed to release migration lock {}", key, e);
        } finally {
            try {
                conn.close();
            } catch (SQLException e) {
                log.warn("[configstore] failed to close migration lock connection", e);
            }
        }
    }
}
