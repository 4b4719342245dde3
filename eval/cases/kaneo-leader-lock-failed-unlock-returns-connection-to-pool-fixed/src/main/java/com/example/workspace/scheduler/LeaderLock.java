// Case: kaneo's fix for its leader-lock helper: the session-level try-lock still lives on a connection borrowed from the pool and is released in a finally block, but when the unlock statement fails the helper now destroys that connection instead of handing it back, so the server ends the session and drops the lock.
// Source: https://github.com/usekaneo/kaneo/pull/1649
// Kind: correct
// Expected: nothing to report. The lock and the unlock run on the one connection the helper borrowed, in autocommit (no transaction for a failed statement to abort). On the normal path pg_advisory_unlock releases the key, its result is checked, and the clean connection goes back to the pool. When the unlock throws, the catch calls HikariDataSource.evictConnection on the still-open connection, which closes the physical connection at once and keeps it out of the pool (the try-with-resources close then only retires the proxy), and PostgreSQL releases every session-level lock of a backend whose session ends (F1). A false try-lock returns before anything is held.
package com.example.workspace.scheduler;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** Runs a job on whichever replica wins the advisory lock; the others skip that round. */
@Component
public class LeaderLock {

    public static final long SEAT_RECONCILIATION_LOCK = 1525L;

    private static final Logger log = LoggerFactory.getLogger(LeaderLock.class);

    private final HikariDataSource dataSource;

    public LeaderLock(HikariDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public <T> T withLeaderLock(long lockKey, Supplier<T> run, Supplier<T> whenHeldElsewhere) {
        try (Connection conn = dataSource.getConnection()) {
            if (!tryLock(conn, lockKey)) {
                return whenHeldElsewhere.get();
            }
            try {
                return run.get();
            } finally {
                try {
                    unlock(conn, lockKey);
                } catch (SQLException e) {
                    log.error("Failed to release advisory lock {}, discarding the connection", lockKey, e);
                    dataSource.evictConnection(conn); // ends the session: the server drops the lock with it
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Leader lock " + lockKey + " unavailable", e);
        }
    }

    private boolean tryLock(Connection conn, long lockKey) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, lockKey);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private void unlock(Connection conn, long lockKey) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, lockKey);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    log.warn("Advisory lock {} was not held by this session", lockKey);
                }
            }
        }
    }
}
