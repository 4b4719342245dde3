// Case: the event_sourcery fix: write_events serialises appends with PERFORM pg_advisory_xact_lock(-1), a transaction-level lock that waits for the writer in front and is released when the appending transaction ends.
// Source: https://github.com/envato/event_sourcery/pull/110
// Kind: correct
// Expected: nothing to report. sink runs SELECT write_events(...) as one autocommit statement, so the whole function body (the aggregate version update, the xact lock, the inserts, pg_notify) runs in that statement's single transaction and the lock lasts until it commits or rolls back (F2, F3: in autocommit an xact lock lives exactly as long as its statement, which here is the whole append). A second writer waits in pg_advisory_xact_lock until the first commits, then takes its event ids from the sequence, so ids are assigned in commit order and getNextFrom never skips an event. Nothing needs unlocking: a failed append (a concurrency conflict, a duplicate event uuid) rolls back and releases it, and the pooled connection goes back to the pool holding nothing. -1 is used by no other lock.
package com.example.eventstore;

import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The PostgreSQL event store: appends go through the write_events function, reads go by event id. */
@Repository
public class PostgresEventStore {

    public record NewEvent(UUID uuid, String type, String bodyJson, LocalDateTime createdAt) {
    }

    public record StoredEvent(long id, UUID uuid, UUID aggregateId, String type, String bodyJson, long version) {
    }

    private static final Logger log = LoggerFactory.getLogger(PostgresEventStore.class);

    private final JdbcTemplate jdbc;
    private final boolean lockTable;

    public PostgresEventStore(JdbcTemplate jdbc,
                              @Value("${eventstore.lock-table-to-guarantee-linear-sequence-id-growth:true}") boolean lockTable) {
        this.jdbc = jdbc;
        this.lockTable = lockTable;
    }

    /**
     * Appends {@code events} to the aggregate in one call of write_events (one statement, so one transaction).
     * {@code expectedVersion} null appends whatever the current version is; otherwise a different current version
     * fails with a concurrency conflict.
     */
    public void sink(UUID aggregateId, Integer expectedVersion, List<NewEvent> events) {
        String[] types = events.stream().map(NewEvent::type).toArray(String[]::new);
        String[] bodies = events.stream().map(NewEvent::bodyJson).toArray(String[]::new);
        Timestamp[] createdAt = events.stream()
                .map(e -> e.createdAt() == null ? null : Timestamp.valueOf(e.createdAt()))
                .toArray(Timestamp[]::new);
        UUID[] uuids = events.stream().map(NewEvent::uuid).toArray(UUID[]::new);
        jdbc.execute((ConnectionCallback<Void>) conn -> {
            try (PreparedStatement ps = conn.prepareStatement("SELECT write_events(?, ?, ?, ?, ?, ?, ?)")) {
                ps.setObject(1, aggregateId);
                ps.setArray(2, conn.createArrayOf("varchar", types));
                if (expectedVersion == null) {
                    ps.setNull(3, Types.INTEGER);
                } else {
                    ps.setInt(3, expectedVersion);
                }
                ps.setArray(4, conn.createArrayOf("json", bodies));
                ps.setArray(5, conn.createArrayOf("timestamp", createdAt));
                ps.setArray(6, conn.createArrayOf("uuid", uuids));
                ps.setBoolean(7, lockTable);
                ps.execute();
            }
            return null;
        });
        log.debug("Saved {} event(s) for aggregate {}", events.size(), aggregateId);
    }

    /** Events with id >= {@code fromId}, in id order: subscribers resume from the last id they processed plus one. */
    public List<StoredEvent> getNextFrom(long fromId, int limit) {
        return jdbc.query(
                "SELECT id, uuid, aggregate_id, type, body::text, version FROM events WHERE id >= ? ORDER BY id LIMIT ?",
                (rs, n) -> new StoredEvent(rs.getLong("id"), rs.getObject("uuid", UUID.class),
                        rs.getObject("aggregate_id", UUID.class), rs.getString("type"), rs.getString("body"),
                        rs.getLong("version")),
                fromId, limit);
    }

    public long latestEventId() {
        Long id = jdbc.queryForObject("SELECT max(id) FROM events", Long.class);
        return id == null ? 0 : id;
    }
}
