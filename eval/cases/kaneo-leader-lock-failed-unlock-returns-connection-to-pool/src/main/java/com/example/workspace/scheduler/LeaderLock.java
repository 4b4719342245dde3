// Case: kaneo runs its notification and seat-reconciliation jobs on one replica at a time through a leader-lock helper that takes a session-level pg_try_advisory_lock on a connection borrowed from the pool and, when the job is done, unlocks it and hands the connection back; when the unlock statement itself failed, the helper only logged it and still returned the connection to the pool.
// Source: https://github.com/usekaneo/kaneo/pull/1649
// Kind: bug
// Expected: the lock is session-level and lives on a pooled Hikari connection. In the finally block the pg_advisory_unlock is wrapped in a catch that only logs, and the try-with-resources then closes the connection, which returns it to the pool with its backend session alive (F13). When the unlock failed without the session ending (a statement cancelled or timed out, an interrupted thread, a failed round trip that Hikari does not treat as fatal), the lock stays held by an idle pooled connection: every replica's next withLeaderLock call gets false and skips the job until the pool retires that connection, and a later borrower of the same connection takes the key again by re-entrancy (F4) and releases only its own count. A failed unlock must end the session: evict the connection from the pool (or use an unpooled connection closed after the job).
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
                    log.error("Failed to release advisory lock {}", lockKey, e);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Leader lock " + lockKey + " unavailable", e);
        }
    }

    private boolean tryLock(Connection conn, long lockKey) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: lock-without-finally-unlock
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
