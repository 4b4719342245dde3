// Case: the AIOStreams fix: the migration lock is a pg_advisory_xact_lock taken inside driver.tx, whose transaction keeps one pooled connection for the whole migration run and releases the lock when it commits or rolls back.
// Source: https://github.com/Viren070/AIOStreams/pull/976
// Kind: correct
// Expected: nothing to report. DbDriver.tx borrows one connection, turns autocommit off and keeps it until the callback returns, then commits (or rolls back on any exception) before giving the connection back, so the transaction-level lock taken first in the callback is held on that session for the whole run and ends with the transaction on every path, the error path included (F2); nothing has to unlock it. The migrations run through the driver on other pooled connections (the pool has ten), each in a transaction of its own, while the lock's transaction stays open and idle; none of them builds an index concurrently. A replica that boots meanwhile waits in pg_advisory_xact_lock until the holder's run commits, then finds nothing pending.
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

    /**
     * Holds the migration lock for the whole run. The lock is transaction-level, so it lives exactly as long as the
     * transaction of {@link DbDriver#tx}, which keeps its connection until the run is over; the work itself goes
     * through the driver on other connections.
     */
    private <T> T withMigrationLock(LockedWork<T> work) throws SQLException {
        return driver.tx(tx -> {
            tx.exec("SELECT pg_advisory_xact_lock(?)", PG_ADVISORY_LOCK_KEY);
            return work.run();
        });
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
