// Case: pq, a transactional job queue on PostgreSQL, pulled the next item with one UPDATE whose CTE filtered the queue with pg_try_advisory_xact_lock(id) in WHERE beside an ORDER BY ... LIMIT 1, so every so often a single pull took the advisory lock of thousands of queued rows.
// Source: https://github.com/malthe/pq/pull/1
// Kind: bug
// Expected: in PULL_SQL the lock call sits in the WHERE of the CTE's query block, which also has ORDER BY schedule_at, expected_at and LIMIT 1. Whenever the planner reads the queue with a scan and a Sort (rather than an index already in that order, which is what made it happen only every so often), the sort sits between the scan and the Limit, so PostgreSQL evaluates the WHERE, and takes pg_try_advisory_xact_lock, for every pending row of the queue it reads, not for the one row it returns (F8; the PostgreSQL documentation warns about this form). One pull then holds a transaction-level lock on every pending item until its commit or rollback: thousands of entries in the shared lock table (out of shared memory, F11, on a big backlog), and every other worker pulling at the same time gets false for all those rows and finds nothing to do. The lock must be taken only on the row already chosen (select the candidate first, lock it in an outer query, or use FOR UPDATE SKIP LOCKED). The transaction around the pull (autocommit off, commit, rollback when the item is not due yet) is correct.
package com.example.pq;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A named queue in the shared {@code queue} table; items are JSON documents. Safe to use from many workers. */
public class PgQueue {

    private static final Logger log = LoggerFactory.getLogger(PgQueue.class);

    /** Ready items first, then by expected time; marks the chosen item as dequeued. */
    private static final String PULL_SQL = "WITH item AS ("
            + " SELECT id FROM queue"
            + "  WHERE q_name = ?"
            + "    AND dequeued_at IS NULL"
            + "    AND pg_try_advisory_xact_lock(id)" // want: lock-in-limit-query // may: unbounded-lock-count
            + "  ORDER BY schedule_at NULLS FIRST, expected_at NULLS FIRST"
            + "  LIMIT 1"
            + "  FOR UPDATE"
            + ")"
            + " UPDATE queue SET dequeued_at = current_timestamp"
            + "  WHERE id = (SELECT id FROM item)"
            + " RETURNING id, data::text, enqueued_at, schedule_at";

    private static final String PUT_SQL =
            "INSERT INTO queue (q_name, data, schedule_at, expected_at) VALUES (?, ?::jsonb, ?, ?) RETURNING id";

    public record Task(long id, String data, Instant enqueuedAt, Instant scheduleAt) {
    }

    private final DataSource dataSource;
    private final String name;

    public PgQueue(DataSource dataSource, String name) {
        this.dataSource = dataSource;
        this.name = name;
    }

    public long put(String json, Instant scheduleAt, Instant expectedAt) throws SQLException {
        try (Connection conn = dataSource.getConnection();
             PreparedStatement ps = conn.prepareStatement(PUT_SQL)) {
            ps.setString(1, name);
            ps.setString(2, json);
            ps.setTimestamp(3, scheduleAt == null ? null : Timestamp.from(scheduleAt));
            ps.setTimestamp(4, expectedAt == null ? null : Timestamp.from(expectedAt));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Pulls the next item that is ready for work, or nothing when the queue is empty or its head is not due yet. */
    public Optional<Task> pull() throws SQLException {
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try {
                Task task = null;
                try (PreparedStatement ps = conn.prepareStatement(PULL_SQL)) {
                    ps.setString(1, name);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            Timestamp scheduleAt = rs.getTimestamp(4);
                            task = new Task(rs.getLong(1), rs.getString(2), rs.getTimestamp(3).toInstant(),
                                    scheduleAt == null ? null : scheduleAt.toInstant());
                        }
                    }
                }
                if (task == null || (task.scheduleAt() != null && task.scheduleAt().isAfter(Instant.now()))) {
                    conn.rollback(); // not due yet: leave it queued
                    if (task != null) {
                        log.debug("Next item of {} is ready at {}", name, task.scheduleAt());
                    }
                    return Optional.empty();
                }
                conn.commit();
                return Optional.of(task);
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            }
        }
    }
}
