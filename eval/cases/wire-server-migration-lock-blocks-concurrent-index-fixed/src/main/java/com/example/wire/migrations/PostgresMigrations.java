// Case: wire-server's fix for its start-up migration lock: a replica that must run a script outside a transaction (a CREATE INDEX CONCURRENTLY) now polls pg_try_advisory_lock on the script's key once a second instead of waiting inside pg_advisory_lock, so it holds no open statement while another replica builds the index.
// Source: https://github.com/wireapp/wire-server/pull/5211
// Kind: correct
// Expected: nothing to report. Each pg_try_advisory_lock returns at once and its result decides: on false the replica sleeps between statements in autocommit, holding no snapshot that the other replica's CREATE INDEX CONCURRENTLY would wait for (F21 needs a waiter blocked in a statement), and it goes on only when the call returned true. The lock is taken on the one connection that runs the script and released in the finally on that connection; the connection is in autocommit, so a failed script does not make the unlock fail. Under the lock the replica checks schema_migrations and skips a script another replica already applied. An interrupt while sleeping leaves without holding the key.
package com.example.wire.migrations;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies the embedded scripts of db/migrations in order, once each, recording them in schema_migrations. */
public class PostgresMigrations {

    private static final Logger log = LoggerFactory.getLogger(PostgresMigrations.class);

    private static final Duration LOCK_RETRY_DELAY = Duration.ofSeconds(1);

    /** Scripts which cannot be run in a transaction. */
    static final Set<String> NON_TRANSACTION_MIGRATIONS = Set.of("20260428072649-create-conv-parent-index.sql");

    private final DataSource dataSource;
    private final List<String> scripts;

    public PostgresMigrations(DataSource dataSource, List<String> scripts) {
        this.dataSource = dataSource;
        this.scripts = List.copyOf(scripts);
    }

    public void runAllMigrations() throws SQLException, IOException, InterruptedException {
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

    // Locking the migration makes sure that only one process runs it at a time. We must try the lock instead of
    // blocking on it: CREATE INDEX CONCURRENTLY waits for every open transaction, a blocked lock call included.
    private void runNonTransactionMigration(Connection conn, String name, String sql)
            throws SQLException, InterruptedException {
        long lockId = SchemaMigrations.lockId(name);
        boolean locked = false;
        while (!locked) {
            try (PreparedStatement lock = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                lock.setLong(1, lockId);
                try (ResultSet rs = lock.executeQuery()) {
                    locked = rs.next() && rs.getBoolean(1);
                }
            }
            if (!locked) {
                log.info("Migration {} is being run by another process, retrying", name);
                Thread.sleep(LOCK_RETRY_DELAY.toMillis());
            }
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
