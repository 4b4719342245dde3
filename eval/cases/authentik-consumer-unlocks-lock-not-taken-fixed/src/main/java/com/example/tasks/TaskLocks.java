package com.example.tasks;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;
import java.util.UUID;

/**
 * The consumer's own connection for task locks, opened with DriverManager (not from a pool) so that every lock and
 * unlock of one consumer runs in one session; it stays in autocommit, each statement committing on its own.
 */
public class TaskLocks implements AutoCloseable {

    private final String jdbcUrl;
    private final Properties credentials;
    private Connection connection;

    public TaskLocks(String jdbcUrl, Properties credentials) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
    }

    Connection connection() throws SQLException {
        if (connection == null || !connection.isValid(2)) {
            connection = DriverManager.getConnection(jdbcUrl, credentials);
        }
        return connection;
    }

    boolean unlock(long key) throws SQLException {
        try (PreparedStatement ps = connection().prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /** First eight bytes of a SHA-256 of the queue's lock channel and the message id. */
    static long keyFor(String queueName, UUID messageId) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha.digest(("tasks." + queueName + ".lock." + messageId).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close(); // ends the session: any task lock still held goes with it
            connection = null;
        }
    }
}
