// Case: adcp's fix for its migration lock: runMigrations() still serialises deploys and booting instances on a session-level pg_advisory_lock held on a connection of its own, but the wait for it is now capped by a statement_timeout set just before the lock call and cleared once the lock is held, and a timed-out wait fails with the key and the SQL to find the wedged holder.
// Source: https://github.com/adcontextprotocol/adcp/pull/3509
// Kind: correct
// Expected: nothing to report. acquireMigrationLock sets statement_timeout to five minutes on the lock connection before SELECT pg_advisory_lock(?), so a holder left behind by a dead client makes the wait fail with SQLSTATE 57014 instead of blocking the deploy for hours; the finally block sets it back to 0 on that same connection, so only the wait is capped (the migrations run on a second connection, each in its own transaction with SET LOCAL statement_timeout = 0). When the lock call fails nothing was taken; when it succeeds, runMigrations releases in a finally with pg_advisory_unlock on the lock connection (autocommit, no transaction to abort), checks the result, and closing that unpooled connection ends the session in any case. The key is one constant used by this class only.
package com.example.adregistry.db;

import com.example.adregistry.db.ScriptLoader.Migration;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies pending migrations; the release command, a booting instance or a dev stack take turns on the lock. */
public final class MigrationRunner {
    private static final Logger log = LoggerFactory.getLogger(MigrationRunner.class);

    static final long MIGRATION_LOCK_KEY = 0x6d696772L; // ASCII "migr"; no other code takes this key
    /** Caps only the wait: a session left holding the key by a dead client would otherwise block until keepalive. */
    private static final String ACQUIRE_LOCK_TIMEOUT = "5min";
    private static final String QUERY_CANCELED = "57014";

    private final String jdbcUrl;
    private final Properties credentials;
    private final ScriptLoader loader;

    public MigrationRunner(String jdbcUrl, Properties credentials, ScriptLoader loader) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
        this.loader = loader;
    }

    /** The lock lives on an unpooled connection: closing it ends the session and whatever lock it still holds. */
    public void runMigrations() throws SQLException, IOException {
        try (Connection lockConn = DriverManager.getConnection(jdbcUrl, credentials)) {
            acquireMigrationLock(lockConn);
            try {
                runMigrationsLocked();
            } finally {
                releaseMigrationLock(lockConn);
            }
        }
    }

    private void acquireMigrationLock(Connection lockConn) throws SQLException {
        log.info("Waiting for migration lock {}", MIGRATION_LOCK_KEY);
        try (Statement st = lockConn.createStatement()) {
            st.execute("SET statement_timeout = '" + ACQUIRE_LOCK_TIMEOUT + "'");
            try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_advisory_lock(?)")) {
                ps.setLong(1, MIGRATION_LOCK_KEY);
                ps.execute();
            } catch (SQLException e) {
                if (QUERY_CANCELED.equals(e.getSQLState())) {
                    throw new SQLException("Could not acquire migration lock " + MIGRATION_LOCK_KEY + " within "
                            + ACQUIRE_LOCK_TIMEOUT + "; find the holder with SELECT pid, state, query FROM "
                            + "pg_stat_activity WHERE pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' "
                            + "AND objid = " + MIGRATION_LOCK_KEY + ") and end it with pg_terminate_backend", e);
                }
                throw e;
            } finally {
                st.execute("SET statement_timeout = 0");
            }
        }
        log.info("Acquired migration lock {}", MIGRATION_LOCK_KEY);
    }

    private void releaseMigrationLock(Connection lockConn) {
        try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, MIGRATION_LOCK_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    log.warn("Migration lock {} was not held when released", MIGRATION_LOCK_KEY);
                }
            }
        } catch (SQLException e) {
            // Do not hide a migration error; closing lockConn ends the session and releases the lock anyway.
            log.warn("Failed to release migration advisory lock", e);
        }
    }

    private void runMigrationsLocked() throws SQLException, IOException {
        try (Connection conn = DriverManager.getConnection(jdbcUrl, credentials)) {
            SchemaHistory history = new SchemaHistory(conn);
            history.ensureTable();
            Set<Integer> applied = history.appliedVersions();
            List<Migration> pending = loader.load().stream().filter(m -> !applied.contains(m.version())).toList();
            if (pending.isEmpty()) {
                return;
            }
            log.info("Applying {} pending migrations", pending.size());
            for (Migration migration : pending) {
                apply(conn, history, migration);
            }
        }
    }

    private void apply(Connection conn, SchemaHistory history, Migration migration) throws SQLException {
        conn.setAutoCommit(false);
        try (Statement st = conn.createStatement()) {
            st.execute("SET LOCAL statement_timeout = 0");
            st.execute(migration.sql());
            history.record(migration);
            conn.commit();
            log.info("Applied migration {}", migration.filename());
        } catch (SQLException | RuntimeException e) {
            conn.rollback();
            log.error("Failed to apply migration {}", migration.filename());
            throw e;
        } finally {
            conn.setAutoCommit(true);
        }
    }
}
