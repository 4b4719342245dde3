// Case: bifrost serialised the config-store migrations that every gateway pod runs at start-up with a blocking pg_advisory_lock on a dedicated pooled connection, so when a crashed pod's session lingered with the key, every new pod hung in start-up with nothing in its logs.
// Source: https://github.com/maximhq/bifrost/pull/3308
// Kind: bug
// Expected: acquireMigrationLock runs SELECT pg_advisory_lock(?) with no lock_timeout or statement_timeout in force (none on the statement, the connection or the pool), so it waits for as long as any other session holds MIGRATION_ADVISORY_LOCK_KEY. A session-level lock is released only by its unlock or the end of its session (F1); a pod killed in the middle of a migration leaves a session that PostgreSQL keeps until TCP keepalive notices the dead peer, or longer behind a connection proxy, and for all that time every starting pod blocks inside this call, holding a connection and its start-up thread, never logging why, until the orchestrator's start-up deadline kills it. Waiting must be bounded: poll pg_try_advisory_lock with a deadline (or set lock_timeout, F12) and fail with a message that names the key. The lock itself is held and released on one connection, in a finally, and is correct.
package com.example.bifrost.configstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Brings the config-store schema up to date. Every gateway pod calls {@link #triggerMigrations()} at start-up. */
public class ConfigStoreMigrations {

    private static final Logger log = LoggerFactory.getLogger(ConfigStoreMigrations.class);

    /** Serialises config-store migrations across the pods of a cluster; no other code takes this key. */
    static final long MIGRATION_ADVISORY_LOCK_KEY = 1_000_001L;

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

    public void triggerMigrations() throws SQLException {
        MigrationLock lock = acquireMigrationLock();
        try {
            int applied = migrator.apply(STEPS);
            log.info("[configstore] applied {} migration(s)", applied);
        } finally {
            lock.release();
        }
    }

    /**
     * Takes the migration lock on a connection of its own, which stays out of the pool until the lock is released
     * on it, so that the pool cannot hand the locked session to other code.
     */
    MigrationLock acquireMigrationLock() throws SQLException {
        Connection conn = dataSource.getConnection();
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: blocking-lock-without-timeout
            ps.setLong(1, MIGRATION_ADVISORY_LOCK_KEY);
            ps.execute();
        } catch (SQLException | RuntimeException e) {
            conn.close();
            throw e;
        }
        return new MigrationLock(conn, MIGRATION_ADVISORY_LOCK_KEY);
    }
}
