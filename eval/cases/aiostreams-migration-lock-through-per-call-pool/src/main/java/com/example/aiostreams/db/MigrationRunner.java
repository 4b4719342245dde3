// Case: AIOStreams guarded the migration run every replica does at boot with pg_advisory_lock and pg_advisory_unlock sent through its pool-per-statement driver, so the unlock ran on another pooled connection and failed silently while the connection that took the lock went back to the pool holding it.
// Source: https://github.com/Viren070/AIOStreams/issues/975
// Kind: bug
// Expected: withMigrationLock takes the session-level lock with driver.exec, which borrows a HikariCP connection for that one statement and returns it to the pool with the lock still on its session (F1, F13). The migrations then run on other pooled connections, and the unlock in finally borrows whatever connection is free: on any session but the holder's pg_advisory_unlock returns false with a WARNING and releases nothing, and even an error there is swallowed by the empty catch. The lock is left on an idle pooled session that the pool hands to ordinary requests and keeps open until it retires the connection (maxLifetime, 30 minutes by default), so every replica that boots meanwhile waits in the blocking pg_advisory_lock, past its start-up probe deadline, each waiting statement holding a snapshot that keeps autovacuum from removing dead tuples; a request of this replica that borrows the holder re-enters the key (F4). The lock, the work and the unlock need one connection, or a transaction-level lock held by a transaction that spans the run.
package com.example.aiostreams.db;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the pending migrations. Idempotent; every replica calls it on every boot. */
public final class MigrationRunner {

    private static final Logger log = LoggerFactory.getLogger(MigrationRunner.class);

    /** "AIOSMIGR"; no other code takes this key. */
    static final long PG_ADVISORY_LOCK_KEY = 0x4149_4f53_4d49_4752L;

    @FunctionalInterface
    interface LockedWork<T> {
        T run() throws SQLException;
    }

    private final DbDriver driver;

    public MigrationRunner(DbDriver driver) {
        this.driver = driver;
    }

    public void runMigrations() throws SQLException {
        withMigrationLock(() -> {
            driver.exec("CREATE TABLE IF NOT EXISTS _migrations (id integer PRIMARY KEY, name text NOT NULL,"
                    + " applied_at timestamp DEFAULT CURRENT_TIMESTAMP)");
            Set<Integer> applied = new HashSet<>(driver.query("SELECT id FROM _migrations", rs -> rs.getInt(1)));
            Migrations.Migration baseline = Migrations.ALL.get(0);
            if (!applied.contains(baseline.id()) && tableExists("users")) {
                log.info("Detected pre-existing v2 schema; marking baseline migration as applied");
                driver.exec("INSERT INTO _migrations (id, name) VALUES (?, ?)", baseline.id(), baseline.name());
                applied.add(baseline.id());
            }
            List<Migrations.Migration> pending =
                    Migrations.ALL.stream().filter(m -> !applied.contains(m.id())).toList();
            for (Migrations.Migration m : pending) {
                log.info("Applying migration {} ({})", m.id(), m.name());
                applyMigration(m);
            }
            log.info("Applied {} migration(s)", pending.size());
            return null;
        });
    }

    /** Fails when a newer replica has already migrated the database past what this build knows. */
    public void verifySchemaVersion() throws SQLException {
        List<Integer> newest = driver.query("SELECT COALESCE(MAX(id), 0) FROM _migrations", rs -> rs.getInt(1));
        if (!newest.isEmpty() && newest.get(0) > Migrations.latestId()) {
            throw new IllegalStateException("database schema is at migration " + newest.get(0)
                    + " but this build only knows up to " + Migrations.latestId());
        }
    }

    private <T> T withMigrationLock(LockedWork<T> work) throws SQLException {
        driver.exec("SELECT pg_advisory_lock(" + PG_ADVISORY_LOCK_KEY + ")"); // want: unpinned-session-lock|lock-without-finally-unlock
        try {
            return work.run();
        } finally {
            try {
                driver.exec("SELECT pg_advisory_unlock(" + PG_ADVISORY_LOCK_KEY + ")"); // may: unlock-mismatch|unlock-result-ignored
            } catch (SQLException ignored) {
                // best effort
            }
        }
    }

    private void applyMigration(Migrations.Migration m) throws SQLException {
        driver.tx(tx -> {
            for (String statement : m.statements()) {
                tx.exec(statement);
            }
            tx.exec("INSERT INTO _migrations (id, name) VALUES (?, ?)", m.id(), m.name());
            return null;
        });
    }

    private boolean tableExists(String table) throws SQLException {
        List<Boolean> found = driver.query("SELECT to_regclass(?) IS NOT NULL", rs -> rs.getBoolean(1), "public." + table);
        return !found.isEmpty() && found.get(0);
    }
}
