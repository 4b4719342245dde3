// Case: adcp's registry server serialises runMigrations(), run by the deploy's release command and by any instance that boots, with a session-level pg_advisory_lock taken on a connection of its own; the lock call waits with no bound, so after a release machine died mid-migration while holding the key, the next deploy sat inside the lock call until TCP keepalive reaped the dead backend (about two hours), long past the release command's 15-minute limit, with nothing saying why.
// Source: https://github.com/adcontextprotocol/adcp/pull/3509
// Kind: bug
// Expected: acquireMigrationLock runs SELECT pg_advisory_lock(?) on the lock connection with no lock_timeout, statement_timeout or query timeout in force (the connection is opened with plain credentials and nothing on it sets either), so the call waits for as long as any other session holds MIGRATION_LOCK_KEY. A holder whose client vanished without closing its socket (a machine killed mid-migration) keeps its backend, and so the session-level lock, until TCP keepalive gives up; every later deploy blocks in this call for that long, each holding a connection, until the platform kills the release command with no diagnostic. The SET LOCAL statement_timeout = 0 in apply() is on the other connection and only lifts the cap for each migration. Bound the wait (SET statement_timeout or lock_timeout before the call and clear it once the lock is held, or poll pg_try_advisory_lock against a deadline) and report the key and how to find its holder.
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

    /** ASCII "migr". No other code takes this key. */
    static final long MIGRATION_LOCK_KEY = 0x6d696772L;

    private final String jdbcUrl;
    private final Properties credentials;
    private final ScriptLoader loader;

    public MigrationRunner(String jdbcUrl, Properties credentials, ScriptLoader loader) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
        this.loader = loader;
    }

    public void runMigrations() throws SQLException, IOException {
        // A connection of its own, not from the pool: closing it ends the session and whatever lock it still holds.
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
        try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: blocking-lock-without-timeout
            ps.setLong(1, MIGRATION_LOCK_KEY);
            ps.execute();
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
