// Case: @slonik/migrator (pgkit) serialises migration runs with a session-level pg_advisory_lock taken on the pooled connection that runs the migrations; in singleTransaction mode that connection is inside the run's transaction, so when a migration fails the unlock at the end of the run fails too and the connection goes back to the pool still holding the lock.
// Source: https://github.com/mmkal/pgkit/pull/349
// Kind: bug
// Expected: with singleTransaction, setup() turns autocommit off on a connection borrowed from the pool and takes pg_advisory_lock on it, and every migration runs in that one transaction. When a migration fails, the transaction is aborted: the pg_advisory_unlock in teardown() fails with SQLSTATE 25P02 (F18), is only logged ("expected if the lock acquisition timed out"), the rollback does not release a session-level lock (F1), and close() hands the connection back to the pool still holding it (F13). Every later run, in this process or another one, then waits in pg_advisory_lock for a lock held by an idle pooled session, or, on that same connection, re-enters it (F4). The fix releases the lock on a connection of its own, outside the migrations' transaction. On the success path the same unlock also runs before the commit that follows it in teardown(), so a run waiting for the lock can read the migration table before this run's migrations are committed and apply them again (F19).
package com.example.migrator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies the .sql files of a folder in name order, once each, recording them in the migration table. */
public class SqlMigrator {

    private static final Logger log = LoggerFactory.getLogger(SqlMigrator.class);

    private final DataSource pool;
    private final SqlMigratorStorage storage;
    private final boolean singleTransaction;

    public SqlMigrator(DataSource pool, Path migrationsPath, String migrationTable, boolean singleTransaction) {
        this.pool = pool;
        this.storage = new SqlMigratorStorage(pool, migrationsPath, migrationTable);
        this.singleTransaction = singleTransaction;
    }

    /** Runs the pending migrations; returns the names applied. */
    public List<String> up() throws SQLException, IOException {
        storage.ensureTable();
        Connection conn = setup();
        boolean succeeded = false;
        try {
            Set<String> executed = storage.executedNames();
            List<String> applied = new ArrayList<>();
            for (Path file : storage.migrationFiles()) {
                String name = file.getFileName().toString();
                if (executed.contains(name)) {
                    continue;
                }
                try (Statement st = conn.createStatement()) {
                    st.execute(Files.readString(file, StandardCharsets.UTF_8));
                } catch (SQLException e) {
                    throw new SQLException("Migration " + name + " (up) failed: " + e.getMessage(), e.getSQLState(), e);
                }
                storage.logMigration(conn, name);
                log.info("Migrated {}", name);
                applied.add(name);
            }
            succeeded = true;
            return applied;
        } finally {
            teardown(conn, succeeded);
        }
    }

    private Connection setup() throws SQLException {
        Connection conn = pool.getConnection();
        try {
            if (singleTransaction) {
                conn.setAutoCommit(false);
            }
            try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: lock-without-finally-unlock
                lock.setLong(1, storage.advisoryLockId());
                lock.execute();
            }
            return conn;
        } catch (SQLException | RuntimeException e) {
            conn.close();
            throw e;
        }
    }

    private void teardown(Connection conn, boolean succeeded) throws SQLException {
        try {
            try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // want: session-unlock-before-commit // may: lock-without-finally-unlock
                unlock.setLong(1, storage.advisoryLockId());
                unlock.executeQuery().close();
            } catch (SQLException e) {
                log.error("Failed to unlock. This is expected if the lock acquisition timed out.", e);
            }
            if (singleTransaction) {
                if (succeeded) {
                    conn.commit();
                } else {
                    conn.rollback();
                }
            }
        } finally {
            conn.close();
        }
    }
}
