// Case: langflow's fix for its start-up migration lock: workers still serialise the schema migrations on a session-level advisory lock held on a connection of their own, but a worker now polls pg_try_advisory_lock against a configurable deadline, logs that it is waiting, and fails start-up with a message naming the key when the holder does not let go.
// Source: https://github.com/langflow-ai/langflow/pull/13202
// Kind: correct
// Expected: nothing to report. acquireOrFail tries pg_try_advisory_lock once, then every two seconds until MIGRATION_LOCK_TIMEOUT_S (300 s by default) has passed; each try is its own statement in autocommit, so no call waits on the server, and when the deadline passes it throws, so the migrations never run without the lock. Once the lock is held the migrations run on the pool's connections and the finally block unlocks on the lock connection (autocommit, no transaction to abort), after which closing that unpooled connection ends the session in any case. The key is one constant used by this class only.
package com.example.flowserver.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.stereotype.Component;

/**
 * Brings the schema to the latest version. Every worker calls it while booting; without coordination two workers on
 * a fresh database race on CREATE TYPE / CREATE TABLE and the loser fails, so the run is serialised on one key.
 */
@Component
public class SchemaMigrator {

    private static final Logger log = LoggerFactory.getLogger(SchemaMigrator.class);

    /** ASCII "Langflow"; picked once, never changed, and no other code takes it. */
    static final long MIGRATION_LOCK_KEY = 0x4C616E67666C6F77L;
    private static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(300);
    private static final Duration POLL_INTERVAL = Duration.ofSeconds(2);

    private final DataSourceProperties properties;
    private final DataSource dataSource;

    public SchemaMigrator(DataSourceProperties properties, DataSource dataSource) {
        this.properties = properties;
        this.dataSource = dataSource;
    }

    public void migrate() throws SQLException {
        if (!properties.determineUrl().startsWith("jdbc:postgresql:")) {
            runFlyway(); // SQLite runs single-process: nothing to serialise
            return;
        }
        // A connection of its own: the lock lives with this session, and closing it ends the session in any case.
        try (Connection lockConn = DriverManager.getConnection(
                properties.determineUrl(), properties.determineUsername(), properties.determinePassword())) {
            acquireOrFail(lockConn);
            try {
                runFlyway();
            } finally {
                log.debug("Releasing migration advisory lock {}", MIGRATION_LOCK_KEY);
                try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    ps.setLong(1, MIGRATION_LOCK_KEY);
                    ps.execute();
                }
            }
        }
    }

    private void acquireOrFail(Connection lockConn) throws SQLException {
        if (tryLock(lockConn)) {
            return;
        }
        Duration timeout = lockTimeout();
        log.info("Migration advisory lock {} held by another worker; waiting up to {}s", MIGRATION_LOCK_KEY,
                timeout.toSeconds());
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for migration lock " + MIGRATION_LOCK_KEY, e);
            }
            if (tryLock(lockConn)) {
                log.info("Acquired migration advisory lock {} after waiting", MIGRATION_LOCK_KEY);
                return;
            }
        }
        throw new IllegalStateException("Could not acquire migration advisory lock " + MIGRATION_LOCK_KEY + " within "
                + timeout.toSeconds() + "s; another worker is likely hung mid-migration. Investigate the worker holding "
                + "it, or raise MIGRATION_LOCK_TIMEOUT_S if the migration legitimately needs longer.");
    }

    private boolean tryLock(Connection lockConn) throws SQLException {
        try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, MIGRATION_LOCK_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static Duration lockTimeout() {
        String raw = System.getenv("MIGRATION_LOCK_TIMEOUT_S");
        try {
            return raw == null ? DEFAULT_LOCK_TIMEOUT : Duration.ofSeconds(Long.parseLong(raw.trim()));
        } catch (NumberFormatException e) {
            log.warn("Ignoring invalid MIGRATION_LOCK_TIMEOUT_S={}; using {}s", raw, DEFAULT_LOCK_TIMEOUT.toSeconds());
            return DEFAULT_LOCK_TIMEOUT;
        }
    }

    private void runFlyway() {
        MigrateResult result = Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        log.info("Schema at version {} ({} migrations applied by this worker)", result.targetSchemaVersion,
                result.migrationsExecuted);
    }
}
