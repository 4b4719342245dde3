// Case: an application running tern's migrator at boot on several instances, through PgDog in transaction pooling mode, found that tern's session-level pg_advisory_lock (taken and released as separate autocommit statements on the migrator's connection) could be left on another backend and held for ever, blocking later migrations.
// Source: https://github.com/jackc/tern/issues/146
// Kind: bug
// Expected: the migrator's connection is opened on spring.datasource.url, PgDog on port 6432 (PgBouncer's port, PgDog's default, pooling per transaction). pg_advisory_lock and pg_advisory_unlock each run in autocommit, i.e. as transactions of their own, and so do the per-migration transactions: the pooler may run each on a different server connection. The session lock stays on the backend that ran it after the pooler hands that backend to other clients (F10); the unlock in finally runs on another backend, returns false with a WARNING (the result is not even read) and releases nothing; the key is held for ever by a pooled backend and every instance booting later blocks in pg_advisory_lock (or, landing on the holding backend, gets it by re-entrancy while another instance still migrates). Both the lock and the unlock line are the defect: hold the session lock on a direct connection to PostgreSQL, or use pg_advisory_xact_lock in a transaction.
package com.example.ledger.migrate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies numbered SQL migrations on one connection and records the version in a one-row table. */
public class Migrator {

    /** One step: its sequence number (1-based), a name and the forward SQL. */
    public record Migration(int sequence, String name, String upSql) {
    }

    private static final Logger log = LoggerFactory.getLogger(Migrator.class);
    // lock to ensure multiple migrations cannot occur simultaneously (arbitrary random number)
    private static final long LOCK_NUM = 9_628_173_550_095_224L;

    private final Connection conn;
    private final String versionTable;
    private final List<Migration> migrations = new ArrayList<>();

    public Migrator(Connection conn, String versionTable) throws SQLException {
        this.conn = conn;
        this.versionTable = versionTable;
        ensureSchemaVersionTableExists();
    }

    public void appendMigration(String name, String upSql) {
        migrations.add(new Migration(migrations.size() + 1, name, upSql));
    }

    public void migrate() throws SQLException {
        migrateTo(migrations.size());
    }

    public void migrateTo(int targetVersion) throws SQLException {
        acquireAdvisoryLock();
        try {
            int current = currentVersion();
            if (targetVersion < current || targetVersion > migrations.size()) {
                throw new IllegalArgumentException("destination version " + targetVersion
                        + " is outside " + current + ".." + migrations.size());
            }
            while (current < targetVersion) {
                Migration next = migrations.get(current);
                conn.setAutoCommit(false);
                try (Statement st = conn.createStatement();
                     PreparedStatement bump = conn.prepareStatement("UPDATE " + versionTable + " SET version = ?")) {
                    log.info("migrating {} {}", next.sequence(), next.name());
                    st.execute(next.upSql());
                    bump.setInt(1, next.sequence());
                    bump.executeUpdate();
                    conn.commit();
                } catch (SQLException | RuntimeException e) {
                    conn.rollback();
                    throw e;
                } finally {
                    conn.setAutoCommit(true);
                }
                current++;
            }
        } finally {
            releaseAdvisoryLock();
        }
    }

    public int currentVersion() throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT version FROM " + versionTable)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private void ensureSchemaVersionTableExists() throws SQLException {
        acquireAdvisoryLock();
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + versionTable + " (version int4 NOT NULL)");
            st.execute("INSERT INTO " + versionTable + " (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM "
                    + versionTable + ")");
        } finally {
            releaseAdvisoryLock();
        }
    }

    private void acquireAdvisoryLock() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: session-lock-under-transaction-pooling
            ps.setLong(1, LOCK_NUM);
            ps.execute();
        }
    }

    private void releaseAdvisoryLock() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // want: session-lock-under-transaction-pooling
            ps.setLong(1, LOCK_NUM);
            ps.execute();
        }
    }
}
