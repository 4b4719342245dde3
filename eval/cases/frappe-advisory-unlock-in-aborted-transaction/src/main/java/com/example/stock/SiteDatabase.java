package com.example.stock;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.Properties;

/**
 * The worker's database session for one site, kept across jobs: its own DriverManager connection (no pool),
 * autocommit off, so work runs in transactions that the callers commit or roll back.
 */
public class SiteDatabase implements AutoCloseable {

    @FunctionalInterface
    public interface SqlWork {
        void run() throws SQLException;
    }

    private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

    private final String jdbcUrl;
    private final Properties credentials;
    private Connection connection;

    public SiteDatabase(String jdbcUrl, Properties credentials) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
    }

    public Connection connection() throws SQLException {
        if (connection == null) {
            connection = DriverManager.getConnection(jdbcUrl, credentials);
            connection.setAutoCommit(false);
        }
        return connection;
    }

    public void commit() throws SQLException {
        connection().commit();
    }

    public void rollback() throws SQLException {
        if (connection != null) {
            connection.rollback();
        }
    }

    /**
     * Holds a session-level advisory lock on {@code key} while {@code body} runs. Session-scoped, so it survives
     * the commits the body makes; waits up to {@code timeout}, then fails with SQLTimeoutException.
     */
    public void withAdvisoryLock(String key, Duration timeout, SqlWork body) throws SQLException {
        long lockId = lockId(key);
        acquire(key, lockId, timeout);
        try {
            body.run();
        } finally {
            unlock(lockId); // may: lock-without-finally-unlock
        }
    }

    private void acquire(String key, long lockId, Duration timeout) throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (PreparedStatement ps = connection().prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: lock-without-finally-unlock
                ps.setLong(1, lockId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
            }
            if (System.nanoTime() >= deadline) {
                throw new SQLTimeoutException("Could not acquire advisory lock " + key + " within " + timeout);
            }
            try {
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("Interrupted while waiting for advisory lock " + key, e);
            }
        }
    }

    private void unlock(long lockId) throws SQLException {
        try (PreparedStatement ps = connection().prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, lockId);
            ps.executeQuery().close();
        }
    }

    /** Keys are hashed to a bigint: the first 8 bytes of SHA-256, the same on every worker. */
    static long lockId(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }
}
