package com.example.audit;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/** Audit event storage on PostgreSQL; events go through the pool, the sink lock lives on one held connection. */
public class SqlAuditStorage {

    public record AuditEvent(long id, Instant occurredAt, String details) {
    }

    /** One lock id shared by every replica: the first 32 bits of SHA-256 of a fixed name. */
    static final long SINK_LOCK_ID = lockIdFor("auditEventSinkLock");

    private static final Logger log = LoggerFactory.getLogger(SqlAuditStorage.class);

    private final HikariDataSource pool;
    private final JdbcTemplate jdbc;
    private Connection advisoryLockConn;

    public SqlAuditStorage(HikariDataSource pool) {
        this.pool = pool;
        this.jdbc = new JdbcTemplate(pool);
    }

    /** Session locks belong to the session that took them: keep this connection until the unlock. */
    public synchronized boolean attemptLock(long lockId) throws SQLException {
        Connection conn = pool.getConnection();
        boolean locked;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, lockId);
            try (ResultSet rs = ps.executeQuery()) {
                locked = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException | RuntimeException e) {
            pool.evictConnection(conn);        // the lock may or may not be held: end the session
            throw e;
        }
        if (!locked) {
            conn.close();                      // nothing held: back to the pool
            return false;
        }
        advisoryLockConn = conn;
        return true;
    }

    public synchronized boolean releaseLock(long lockId) {
        Connection conn = advisoryLockConn;
        advisoryLockConn = null;
        if (conn == null) {
            return false;
        }
        boolean unlocked = false;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, lockId);
            try (ResultSet rs = ps.executeQuery()) {
                unlocked = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            log.error("Unable to perform an advisory unlock", e);
        }
        if (!unlocked) {
            pool.evictConnection(conn);        // closing the physical connection ends the session and its locks
            return false;
        }
        try {
            conn.close();
        } catch (SQLException e) {
            log.warn("Returning the advisory lock connection failed", e);
        }
        return true;
    }

    /** Marks up to 100 unsent events as sent and returns them, oldest first. */
    public List<AuditEvent> claimUnsentEvents() {
        return jdbc.query(
                "UPDATE audit_events SET sent = TRUE "
                        + "WHERE id IN (SELECT id FROM audit_events WHERE sent = FALSE ORDER BY id LIMIT 100) "
                        + "RETURNING id, occurred_at, details",
                (rs, rowNum) -> new AuditEvent(
                        rs.getLong("id"),
                        rs.getTimestamp("occurred_at").toInstant(),
                        rs.getString("details")));
    }

    static long lockIdFor(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return Integer.toUnsignedLong(ByteBuffer.wrap(digest).getInt());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
