package com.example.migrant;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

/**
 * The tool's one live connection, opened with DriverManager (no pool) and kept for the whole run.
 * A failed statement is followed by a ROLLBACK on the same session so that session-scoped state,
 * the migration lock above all, survives the error; only when that rollback fails is the
 * connection dropped, and the generation counter tells the migrator its lock is gone.
 */
public class PgSession implements AutoCloseable {

    /** Arbitrary, but identical in every process that runs this tool. */
    private static final long MIGRATION_LOCK_KEY = 30_796_665_483_397_364L;

    @FunctionalInterface
    private interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    private final String url;
    private Connection connection;
    private long generation;

    public PgSession(String url) {
        this.url = url;
    }

    public long generation() {
        return generation;
    }

    public void acquireLock() throws SQLException {
        withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_lock(?)")) {
                ps.setLong(1, MIGRATION_LOCK_KEY);
                ps.execute();
            }
            return null;
        });
    }

    /** Best effort: when the session was lost, the server has already released its locks. */
    public void releaseLockQuietly() {
        try {
            withConnection(c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    ps.setLong(1, MIGRATION_LOCK_KEY);
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() && rs.getBoolean(1);
                    }
                }
            });
        } catch (SQLException ignored) {
            // the connection is gone, and its lock with it
        }
    }

    public void setupMigrationTable() throws SQLException {
        executeBatch("CREATE TABLE IF NOT EXISTS __migrant_migrations (tag text PRIMARY KEY, date timestamptz NOT NULL DEFAULT now())");
    }

    public Set<String> appliedTags() throws SQLException {
        return withConnection(c -> {
            Set<String> tags = new HashSet<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT tag FROM __migrant_migrations")) {
                while (rs.next()) {
                    tags.add(rs.getString(1));
                }
            }
            return tags;
        });
    }

    public void insertTag(String tag) throws SQLException {
        withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO __migrant_migrations (tag) VALUES (?)")) {
                ps.setString(1, tag);
                return ps.executeUpdate();
            }
        });
    }

    public void executeBatch(String sql) throws SQLException {
        withConnection(c -> {
            try (Statement st = c.createStatement()) {
                st.execute(sql);
            }
            return null;
        });
    }

    public void begin() throws SQLException {
        withConnection(c -> {
            c.setAutoCommit(false);
            return null;
        });
    }

    public void commit() throws SQLException {
        withConnection(c -> {
            c.commit();
            c.setAutoCommit(true);
            return null;
        });
    }

    /** Best effort, as it runs on error paths. */
    public void rollback() {
        try {
            if (connection != null && !connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            drop();
        }
    }

    private <T> T withConnection(SqlWork<T> work) throws SQLException {
        if (connection == null) {
            connection = DriverManager.getConnection(url);
        }
        try {
            return work.run(connection);
        } catch (SQLException e) {
            // leave the aborted-transaction state at once, on the same session
            try {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                    connection.setAutoCommit(true);
                }
            } catch (SQLException rollbackFailed) {
                drop();
            }
            throw e;
        }
    }

    private void drop() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // already broken
        }
        connection = null;
        generation++;
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
        }
    }
}
