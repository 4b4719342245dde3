// Case: the bifrost fix: a starting pod polls pg_try_advisory_lock for the config-store migration lock every five seconds, logging each wait, and gives up after five minutes with an error that says how to find and end the session holding the key.
// Source: https://github.com/maximhq/bifrost/pull/3308
// Kind: correct
// Expected: nothing to report. The lock is session-level, taken on one pooled connection that stays out of the pool until MigrationLock.release() has run pg_advisory_unlock on that same connection, in the finally of triggerMigrations (F1, F13). Each attempt is a pg_try_advisory_lock whose boolean decides: true hands the connection to the MigrationLock, false sleeps and retries, and past the deadline (or on interruption, or when an attempt fails) the connection is closed holding nothing and start-up fails with the key in the message, so a lingering session can no longer hang a pod without bound. Each attempt also carries a query timeout, so a stalled round trip cannot outlast the deadline. Migrations run on other pooled connections, each in a transaction of its own; none builds an index concurrently.
package com.example.bifrost.configstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Brings the config-store schema up to date. Every gateway pod calls {@link #triggerMigrations()} at start-up. */
public class ConfigStoreMigrations {

    private static final Logger log = LoggerFactory.getLogger(ConfigStoreMigrations.class);

    /** Serialises config-store migrations across the pods of a cluster; no other code takes this key. */
    static final long MIGRATION_ADVISORY_LOCK_KEY = 1_000_001L;
    static final Duration LOCK_RETRY_INTERVAL = Duration.ofSeconds(5);
    static final Duration LOCK_TIMEOUT = Duration.ofMinutes(5);

    static final List<Migrator.Step> STEPS = List.of(
            new Migrator.Step("init", """
                    CREATE TABLE IF NOT EXISTS config_providers (
                        name text PRIMARY KEY,
                        config jsonb NOT NULL DEFAULT '{}'::jsonb,
                        created_at timestamptz NOT NULL DEFAULT now())"""),
            new Migrator.Step("add_keys_table", """
                    CREATE TABLE IF NOT EXISTS config_keys (
                        id text PRIMARY KEY,
                        provider text NOT NULL REFERENCES config_providers (name),
                        value text NOT NULL,
                        weight double precision NOT NULL DEFAULT 1.0)"""),
            new Migrator.Step("add_key_name_column",
                    "ALTER TABLE config_keys ADD COLUMN IF NOT EXISTS name text"),
            new Migrator.Step("add_allow_direct_keys_column",
                    "ALTER TABLE config_providers ADD COLUMN IF NOT EXISTS allow_direct_keys boolean NOT NULL DEFAULT false"));

    private final DataSource dataSource;
    private final Migrator migrator;

    public ConfigStoreMigrations(DataSource dataSource) {
        this.dataSource = dataSource;
        this.migrator = new Migrator(dataSource);
    }

    public void triggerMigrations() throws SQLException, InterruptedException {
        MigrationLock lock = acquireMigrationLock();
        try {
            int applied = migrator.apply(STEPS);
            log.info("[configstore] applied {} migration(s)", applied);
        } finally {
            lock.release();
        }
    }

    /**
     * Takes the migration lock on a connection of its own, retrying every {@link #LOCK_RETRY_INTERVAL} for at most
     * {@link #LOCK_TIMEOUT}, instead of blocking for as long as a crashed pod's session lingers.
     */
    MigrationLock acquireMigrationLock() throws SQLException, InterruptedException {
        Connection conn = dataSource.getConnection();
        Instant deadline = Instant.now().plus(LOCK_TIMEOUT);
        int attempt = 0;
        try {
            while (true) {
                attempt++;
                boolean acquired;
                try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                    ps.setLong(1, MIGRATION_ADVISORY_LOCK_KEY);
                    long remaining = Duration.between(Instant.now(), deadline).toSeconds();
                    ps.setQueryTimeout((int) Math.max(1, remaining));
                    try (ResultSet rs = ps.executeQuery()) {
                        acquired = rs.next() && rs.getBoolean(1);
                    }
                }
                if (acquired) {
                    if (attempt > 1) {
                        log.info("[configstore] migration lock acquired after {} attempts", attempt);
                    }
                    return new MigrationLock(conn, MIGRATION_ADVISORY_LOCK_KEY);
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new SQLException("failed to acquire configstore migration lock (key=" + MIGRATION_ADVISORY_LOCK_KEY
                            + ") after " + attempt + " attempts over " + LOCK_TIMEOUT + ": another pod, or a crashed pod's"
                            + " lingering session, holds it; find it with SELECT pid, state, query FROM pg_stat_activity"
                            + " WHERE pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = "
                            + MIGRATION_ADVISORY_LOCK_KEY + " AND granted) and end it with pg_terminate_backend(pid)");
                }
                log.info("[configstore] waiting for migration lock (attempt {}): another node is running migrations,"
                        + " retrying in {}", attempt, LOCK_RETRY_INTERVAL);
                Thread.sleep(LOCK_RETRY_INTERVAL.toMillis());
            }
        } catch (SQLException | InterruptedException | RuntimeException e) {
            conn.close();
            throw e;
        }
    }
}
