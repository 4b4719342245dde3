package com.example.audit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/** Audit event storage on PostgreSQL; the JdbcTemplate sits on the service's Hikari pool. */
public class SqlAuditStorage {

    public record AuditEvent(long id, Instant occurredAt, String details) {
    }

    /** One lock id shared by every replica: the first 32 bits of SHA-256 of a fixed name. */
    static final long SINK_LOCK_ID = lockIdFor("auditEventSinkLock");

    private final JdbcTemplate jdbc;

    public SqlAuditStorage(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public boolean attemptLock(long lockId) {
        Boolean locked = jdbc.queryForObject("SELECT pg_try_advisory_lock(?)", Boolean.class, lockId); // want: unpinned-session-lock // may: lock-without-finally-unlock
        return Boolean.TRUE.equals(locked);
    }

    public boolean releaseLock(long lockId) {
        Boolean unlocked = jdbc.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, lockId); // may: unpinned-session-lock|unlock-mismatch
        return Boolean.TRUE.equals(unlocked);
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

    public long writeEvent(Instant occurredAt, String details) {
        Long id = jdbc.queryForObject(
                "INSERT INTO audit_events (occurred_at, details, sent) VALUES (?, ?::jsonb, FALSE) RETURNING id",
                Long.class, Timestamp.from(occurredAt), details);
        return id == null ? -1 : id;
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
