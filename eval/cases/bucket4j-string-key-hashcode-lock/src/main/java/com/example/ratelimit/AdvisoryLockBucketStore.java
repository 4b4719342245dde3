// Case: bucket4j's PostgreSQL advisory-lock proxy manager failed for String bucket keys ("function pg_advisory_xact_lock(character varying) does not exist"); the fix locks on key.hashCode() for non-numeric keys.
// Source: https://github.com/bucket4j/bucket4j/issues/400
// Kind: bug
// Expected: a 32-bit String.hashCode() is used as a one-bigint lock key for an unbounded set of bucket keys (per user, per API key, per IP): distinct keys collide (about 1% at ~9,300 live keys, 50% at ~77,000) and unrelated buckets serialise behind each other; derive a 64-bit key (or use the two-int form with a namespace).
package com.example.ratelimit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

public class AdvisoryLockBucketStore<K> {

    private final DataSource dataSource;

    public AdvisoryLockBucketStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public interface StateUpdate {
        byte[] apply(byte[] current);
    }

    /** Reads, changes and writes one bucket's state under a transaction-level lock on its key. */
    public byte[] execute(K key, StateUpdate update) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                long lockKey = (key instanceof Number) ? ((Number) key).longValue() : key.hashCode();
                try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(?)")) { // want: weak-lock-key-hash
                    lock.setLong(1, lockKey);
                    lock.executeQuery();
                }
                byte[] current = select(connection, key);
                byte[] next = update.apply(current);
                if (current == null) {
                    insert(connection, key, next);
                } else {
                    write(connection, key, next);
                }
                connection.commit();
                return next;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private byte[] select(Connection connection, K key) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT state FROM buckets WHERE id = ?")) {
            ps.setObject(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        }
    }

    private void insert(Connection connection, K key, byte[] state) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO buckets(id, state) VALUES (?, ?)")) {
            ps.setObject(1, key);
            ps.setBytes(2, state);
            ps.executeUpdate();
        }
    }

    private void write(Connection connection, K key, byte[] state) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("UPDATE buckets SET state = ? WHERE id = ?")) {
            ps.setBytes(1, state);
            ps.setObject(2, key);
            ps.executeUpdate();
        }
    }
}
