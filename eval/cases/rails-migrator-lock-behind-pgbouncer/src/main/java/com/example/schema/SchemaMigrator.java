// Case: Rails' migrator takes a session-level advisory lock outside any transaction; behind PgBouncer in transaction pooling the lock and the unlock land on different server connections, so deploys fail with "Failed to release advisory lock" and the key stays held on a pooled backend
// Source: https://github.com/rails/rails/issues/31190
// Kind: bug
// Expected: the project routes the DataSource through PgBouncer with pool_mode = transaction (pgbouncer.ini, port 6432): the session-level pg_try_advisory_lock and pg_advisory_unlock each run in their own autocommit transaction and may be served by different backends (F10); use pg_advisory_xact_lock inside the migration transaction or connect the migrator directly to PostgreSQL.
package com.example.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

public class SchemaMigrator {

    /** Salt times a checksum of the database name, as the team copied it from the old Rails app. */
    private static final long MIGRATOR_LOCK_KEY = 2053462845L * 1_000_003L;

    private final DataSource dataSource;            // HikariCP over spring.datasource.url (PgBouncer, see application.properties)
    private final List<Migration> pending;

    public SchemaMigrator(DataSource dataSource, List<Migration> pending) {
        this.dataSource = dataSource;
        this.pending = pending;
    }

    public void migrate() throws SQLException {
        try (Connection conn = dataSource.getConnection()) {
            if (!tryLock(conn)) {
                throw new ConcurrentMigrationException("Cannot run migrations because another migration process is currently running.");
            }
            try {
                for (Migration m : pending) {
                    conn.setAutoCommit(false);
                    try (Statement st = conn.createStatement()) {
                        st.execute(m.sql());
                        try (PreparedStatement ins = conn.prepareStatement("INSERT INTO schema_migrations(version) VALUES (?)")) {
                            ins.setString(1, m.version());
                            ins.executeUpdate();
                        }
                        conn.commit();
                    } catch (SQLException e) {
                        conn.rollback();
                        throw e;
                    } finally {
                        conn.setAutoCommit(true);
                    }
                }
            } finally {
                if (!unlock(conn)) {
                    throw new ConcurrentMigrationException("Failed to release advisory lock");
                }
            }
        }
    }

    private boolean tryLock(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: session-lock-under-transaction-pooling
            ps.setLong(1, MIGRATOR_LOCK_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private boolean unlock(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // want: session-lock-under-transaction-pooling
            ps.setLong(1, MIGRATOR_LOCK_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    public record Migration(String version, String sql) {}

    public static class ConcurrentMigrationException extends RuntimeException {
        public ConcurrentMigrationException(String message) { super(message); }
    }
}
