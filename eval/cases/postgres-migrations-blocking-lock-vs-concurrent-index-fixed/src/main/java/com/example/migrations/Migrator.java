// Case: postgres-migrations' fix for the deadlock between a waiting migrator and CREATE INDEX CONCURRENTLY: instead of waiting in pg_advisory_lock, a process polls pg_try_advisory_lock once a second until it gets the lock, so while it waits it has no statement open for the index build to wait on.
// Source: https://github.com/ThomWright/postgres-migrations/issues/36
// Kind: correct
// Expected: nothing to report. Each try is a short statement in autocommit on the migrator's own connection, its result decides whether the loop goes on, and the process sleeps between tries holding no snapshot, so the other instance's CREATE INDEX CONCURRENTLY does not wait for it (F21). The migrations run only once a try returned true; the lock is released in finally on the same connection, in autocommit, after a failed migration's transaction was rolled back, and closing the connection ends the session in any case.
package com.example.migrations;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies the numbered SQL files of a classpath folder, once each, in order, from any number of processes. */
public class Migrator {

    private static final Logger log = LoggerFactory.getLogger(Migrator.class);

    static final long LOCK_ID = -8525285245963000605L;
    static final String DISABLE_TRANSACTION = "-- migrator disable-transaction";

    private final String jdbcUrl;
    private final Properties connectionProperties;
    private final String directory;

    public Migrator(String jdbcUrl, Properties connectionProperties, String directory) {
        this.jdbcUrl = jdbcUrl;
        this.connectionProperties = connectionProperties;
        this.directory = directory;
    }

    public List<MigrationFile> migrate() throws SQLException, IOException, InterruptedException {
        List<MigrationFile> intended = MigrationFile.loadAll(directory);
        try (Connection conn = DriverManager.getConnection(jdbcUrl, connectionProperties)) {
            log.info("Acquiring advisory lock...");
            // poll rather than wait in pg_advisory_lock: a waiting statement would stall another instance's CREATE INDEX CONCURRENTLY
            while (!tryLock(conn)) {
                Thread.sleep(1000);
            }
            log.info("... acquired advisory lock");
            try {
                return runMigrations(conn, intended);
            } finally {
                try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    unlock.setLong(1, LOCK_ID);
                    try (ResultSet rs = unlock.executeQuery()) {
                        if (!(rs.next() && rs.getBoolean(1))) {
                            log.warn("migration lock was not held when releasing it");
                        }
                    }
                } catch (SQLException e) {
                    log.error("Error releasing advisory lock: {}", e.getMessage());
                }
            }
        }
    }

    private static boolean tryLock(Connection conn) throws SQLException {
        try (PreparedStatement lock = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            lock.setLong(1, LOCK_ID);
            try (ResultSet rs = lock.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private List<MigrationFile> runMigrations(Connection conn, List<MigrationFile> intended) throws SQLException {
        Map<Integer, String> appliedHashes = MigrationFile.appliedHashes(conn);
        List<MigrationFile> completed = new ArrayList<>();
        for (MigrationFile migration : intended) {
            String appliedHash = appliedHashes.get(migration.id());
            if (appliedHash != null) {
                if (!appliedHash.equals(migration.hash())) {
                    throw new IllegalStateException("Hashes don't match for migration " + migration.fileName());
                }
                continue;
            }
            log.info("Starting migration: {}", migration.fileName());
            runMigration(conn, migration);
            completed.add(migration);
        }
        log.info("Finished migrations: {} applied", completed.size());
        return completed;
    }

    private void runMigration(Connection conn, MigrationFile migration) throws SQLException {
        boolean inTransaction = !migration.sql().contains(DISABLE_TRANSACTION);
        conn.setAutoCommit(!inTransaction);
        try {
            try (Statement st = conn.createStatement()) {
                st.execute(migration.sql());
            }
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO migrations (id, name, hash) VALUES (?, ?, ?)")) {
                ps.setInt(1, migration.id());
                ps.setString(2, migration.name());
                ps.setString(3, migration.hash());
                ps.executeUpdate();
            }
            if (inTransaction) {
                conn.commit();
            }
        } catch (SQLException e) {
            if (inTransaction) {
                conn.rollback();
            }
            throw new SQLException("An error occurred running '" + migration.name()
                    + "'. Rolled back this migration. No further migrations were run.", e);
        } finally {
            conn.setAutoCommit(true);
        }
    }
}
