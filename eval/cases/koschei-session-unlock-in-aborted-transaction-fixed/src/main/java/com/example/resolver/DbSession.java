package com.example.resolver;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backend service's one database session, kept for the life of the process: opened with DriverManager (no
 * pool), autocommit off, so work runs in explicit transactions that the service commits or rolls back.
 */
public class DbSession implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DbSession.class);

    private final String jdbcUrl;
    private final Properties credentials;
    private Connection connection;

    public DbSession(String jdbcUrl, Properties credentials) {
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

    /** Ends the current transaction after a failure; a no-op once the session is gone. */
    public void rollback() {
        if (connection == null) {
            return;
        }
        try {
            connection.rollback();
        } catch (SQLException e) {
            log.warn("Rollback failed, dropping the session", e);
            close();
        }
    }

    /** Closes the session itself: the server ends the backend and releases every session-level lock it held. */
    @Override
    public void close() {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            log.warn("Closing the database session failed", e);
        } finally {
            connection = null;
        }
    }
}
