// Case: langflow serialises the schema migrations that every worker runs at start-up with a session-level pg_advisory_lock taken on a connection of its own; the lock call waits with no bound, so a worker that hangs mid-migration while holding the key leaves every other worker blocked in the lock call forever, with nothing in the logs saying why.
// Source: https://github.com/langflow-ai/langflow/pull/13202
// Kind: bug
// Expected: migrate() runs SELECT pg_advisory_lock(?) on a fresh DriverManager connection with no lock_timeout, statement_timeout or query timeout in force, so a worker that finds the key taken waits for as long as the holder keeps it. A holder that crashed is fine (its session ends and the lock goes with it), but one that hangs mid-migration (a slow DDL on a large table, a stalled network, a stuck migration step) keeps its session and the key, and every other worker sits inside this call indefinitely on its start-up path: the deployment never comes up and no log line names the lock. Bound the wait (poll pg_try_advisory_lock against a deadline, or set lock_timeout before the call) and fail with a message that names the key.
package com.example.flowserver.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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
            log.debug("Acquiring migration advisory lock {}", MIGRATION_LOCK_KEY);
            try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: blocking-lock-without-timeout
                ps.setLong(1, MIGRATION_LOCK_KEY);
                ps.execute();
            }
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
