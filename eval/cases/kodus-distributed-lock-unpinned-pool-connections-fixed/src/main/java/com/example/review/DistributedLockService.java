// Case: kodus-ai's fix for its DistributedLockService: each lock object now pins one pooled connection from its try-lock to its unlock, so both run in the same session, and the connection goes back to the pool only after the unlock.
// Source: https://github.com/kodustech/kodus-ai/pull/1129
// Kind: correct
// Expected: nothing to report: acquire() borrows one connection (autocommit, Hikari's default), takes pg_try_advisory_lock on it and keeps it in the lock object only when the lock was granted, returning it at once otherwise (it holds nothing); release() runs pg_advisory_unlock on that same connection and returns it to the pool only then, so no pooled session is ever handed out holding the key; when the unlock fails, the connection is evicted from the pool, which closes it and ends the session with its locks (F1). A second acquire() on a held lock object is refused instead of stacking the key.
package com.example.review;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.springframework.stereotype.Service;

/** Cluster-wide mutual exclusion for the platform's periodic jobs, on PostgreSQL advisory locks. */
@Service
public class DistributedLockService {

    private final HikariDataSource dataSource;

    public DistributedLockService(HikariDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public DistributedLock createLock(String name) {
        return new DistributedLock(name, keyFor(name));
    }

    /** First eight bytes of a SHA-256 of the lock name: one 64-bit advisory key per name. */
    static long keyFor(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    public final class DistributedLock {

        private final String name;
        private final long key;
        private Connection connection; // the session holding the lock, pinned from acquire() to release()

        private DistributedLock(String name, long key) {
            this.name = name;
            this.key = key;
        }

        /** True when this caller now holds the lock; false when another instance does. */
        public synchronized boolean acquire() throws SQLException {
            if (connection != null) {
                throw new IllegalStateException("Lock " + name + " is already held by this object");
            }
            Connection conn = dataSource.getConnection();
            boolean acquired = false;
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                ps.setLong(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    acquired = rs.next() && rs.getBoolean(1);
                }
            } finally {
                if (acquired) {
                    connection = conn;
                } else {
                    conn.close(); // holds no lock
                }
            }
            return acquired;
        }

        public synchronized void release() throws SQLException {
            Connection conn = connection;
            if (conn == null) {
                return;
            }
            connection = null;
            try {
                try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    ps.setLong(1, key);
                    ps.executeQuery().close();
                }
                conn.close(); // back to the pool, without the lock
            } catch (SQLException e) {
                dataSource.evictConnection(conn); // closes it: the server ends the session and its locks
                throw e;
            }
        }

        public String name() {
            return name;
        }
    }
}
