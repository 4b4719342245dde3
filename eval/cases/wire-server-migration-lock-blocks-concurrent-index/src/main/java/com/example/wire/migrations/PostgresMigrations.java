// Case: wire-server runs its PostgreSQL migrations at start-up on every replica and, so that only one replica runs a script that cannot run in a transaction (a CREATE INDEX CONCURRENTLY), waits for a blocking session-level pg_advisory_lock keyed by the script's name; a replica waiting on that lock deadlocks with the replica building the index.
// Source: https://github.com/wireapp/wire-server/pull/5211
// Kind: bug
// Expected: runNonTransactionMigration takes pg_advisory_lock(lockId(name)) and waits when another replica holds it. That replica, holding the key, runs CREATE INDEX CONCURRENTLY (20260428072649-create-conv-parent-index.sql), whose last phase waits for every transaction with an older snapshot to end, including the waiting replica's SELECT pg_advisory_lock statement, which itself waits for the key the builder holds (F21). PostgreSQL reports a deadlock (40P01): either the waiter's lock call fails and that replica fails to start, or the index build is the victim, its migration fails and leaves an INVALID index behind, after which the next replica takes the key and its CREATE INDEX CONCURRENTLY IF NOT EXISTS sees the invalid index as present and records the migration as applied. The wait must not run inside a statement: poll pg_try_advisory_lock between pauses. Everything else (one connection in autocommit for the non-transactional scripts, the applied-check under the lock, the unlock in finally, one serializable transaction per ordinary script) is correct.
package com.example.wire.migrations;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies the embedded scripts of db/migrations in order, once each, recording them in schema_migrations. */
public class PostgresMigrations {

    private static final Logger log = LoggerFactory.getLogger(PostgresMigrations.class);

    /** Scripts which cannot be run in a transaction. */
    static final Set<String> NON_TRANSACTION_MIGRATIONS = Set.of("20260428072649-create-conv-parent-index.sql");

    private final DataSource dataSource;
    private final List<String> scripts;

    public PostgresMigrations(DataSource dataSource, List<String> scripts) {
        this.dataSource = dataSource;
        this.scripts = List.copyOf(scripts);
    }

    public void runAllMigrations() throws SQLException, IOException {
        log.info("Running migrations");
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(true);
            SchemaMigrations.createTable(conn);
            for (String name : scripts) {
                String sql = SchemaMigrations.load(name);
                if (NON_TRANSACTION_MIGRATIONS.contains(name)) {
                    runNonTransactionMigration(conn, name, sql);
                } else {
                    runInTransaction(conn, name, sql);
                }
            }
        }
        log.info("Migrations completed successfully");
    }

    // Locking the migration makes sure that only one process runs it at a time.
    private void runNonTransactionMigration(Connection conn, String name, String sql) throws SQLException {
        long lockId = SchemaMigrations.lockId(name);
        try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: migration-lock-waits-on-concurrent-index
            lock.setLong(1, lockId);
            lock.execute();
        }
        try {
            if (SchemaMigrations.isApplied(conn, name)) {
                log.info("Migration {} already applied by another process", name);
                return;
            }
            try (Statement st = conn.createStatement()) {
                st.execute(sql);
            }
            SchemaMigrations.recordApplied(conn, name);
            log.info("Applied migration {}", name);
        } finally {
            try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                unlock.setLong(1, lockId);
                try (ResultSet rs = unlock.executeQuery()) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        log.warn("Migration lock for {} was not held at release", name);
                    }
                }
            }
        }
    }

    private void runInTransaction(Connection conn, String name, String sql) throws SQLException {
        conn.setAutoCommit(false);
        conn.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        try {
            if (!SchemaMigrations.isApplied(conn, name)) {
                try (Statement st = conn.createStatement()) {
                    st.execute(sql);
                }
                SchemaMigrations.recordApplied(conn, name);
                log.info("Applied migration {}", name);
            }
            conn.commit();
        } catch (SQLException | RuntimeException e) {
            conn.rollback();
            throw e;
        } finally {
            conn.setAutoCommit(true);
        }
    }
}
