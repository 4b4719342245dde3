// Case: Rails fixed its migrator to raise when pg_advisory_unlock returns false instead of silently leaving the lock behind; the lock is a session lock taken on one connection that also runs the migrations
// Source: https://github.com/rails/rails/pull/31189
// Kind: correct
// Expected: correct: try-lock result tested before the work, lock, migrations and unlock on one dedicated unpooled connection straight to PostgreSQL, unlock in finally after each migration has committed, and a false unlock reported as an error.
package com.example.migrate;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

public final class LockedMigrationRunner {

    private static final long MIGRATOR_LOCK_KEY = 7_341_905_118_224_613L;

    private final String jdbcUrl;          // jdbc:postgresql://db.internal:5432/shop, not the pooler
    private final Properties credentials;

    public LockedMigrationRunner(String jdbcUrl, Properties credentials) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
    }

    public int run(List<String> versions, MigrationSource source) throws SQLException {
        try (Connection conn = DriverManager.getConnection(jdbcUrl, credentials)) {
            if (!queryBoolean(conn, "SELECT pg_try_advisory_lock(?)")) {
                throw new IllegalStateException("Cannot run migrations because another migration process is currently running.");
            }
            try {
                int applied = 0;
                for (String version : versions) {
                    conn.setAutoCommit(false);
                    try (Statement st = conn.createStatement()) {
                        st.execute(source.load(version));
                        st.executeUpdate("INSERT INTO schema_migrations(version) VALUES ('" + version.replace("'", "") + "')");
                        conn.commit();
                        applied++;
                    } catch (SQLException | RuntimeException e) {
                        conn.rollback();
                        throw e;
                    } finally {
                        conn.setAutoCommit(true);
                    }
                }
                return applied;
            } finally {
                if (!queryBoolean(conn, "SELECT pg_advisory_unlock(?)")) {
                    throw new IllegalStateException("Failed to release advisory lock " + MIGRATOR_LOCK_KEY);
                }
            }
        }
    }

    private static boolean queryBoolean(Connection conn, String sql) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setLong(1, MIGRATOR_LOCK_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    public interface MigrationSource {
        String load(String version);
    }
}
