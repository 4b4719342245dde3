// Case: postgres-migrations guarded a run with a blocking pg_advisory_lock; when two processes migrated at once, the one holding the lock ran CREATE INDEX CONCURRENTLY, which waits for every older transaction to finish, including the other process's statement waiting in pg_advisory_lock, so the two deadlocked.
// Source: https://github.com/ThomWright/postgres-migrations/issues/36
// Kind: bug
// Expected: every instance of the service calls migrate() at start-up; the one that gets the lock runs 3_orders-customer-index.sql outside a transaction, and its CREATE INDEX CONCURRENTLY waits for the virtual transaction of each session whose snapshot predates it, among them the other instance's SELECT pg_advisory_lock, which is itself waiting for the lock the migrating instance holds. PostgreSQL reports "deadlock detected" and aborts one side: the index build fails and leaves an INVALID index, or the waiter fails to start. Poll with pg_try_advisory_lock in autocommit and sleep between tries, so the waiter holds no snapshot while it waits.
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

    public List<MigrationFile> migrate() throws SQLException, IOException {
        List<MigrationFile> intended = MigrationFile.loadAll(directory);
        try (Connection conn = DriverManager.getConnection(jdbcUrl, connectionProperties)) {
            log.info("Acquiring advisory lock...");
            try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: migration-lock-waits-on-concurrent-index
                lock.setLong(1, LOCK_ID);
                lock.execute();
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
