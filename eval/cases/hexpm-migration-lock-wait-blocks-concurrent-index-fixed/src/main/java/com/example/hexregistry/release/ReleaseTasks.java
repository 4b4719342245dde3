// Case: the hexpm fix: a pod waiting for the migration lock polls pg_try_advisory_lock on its dedicated connection once a second instead of blocking in pg_advisory_lock, so while it waits it holds no snapshot for the lock holder's CREATE INDEX CONCURRENTLY to wait on.
// Source: https://github.com/hexpm/hexpm/pull/1835
// Kind: correct
// Expected: nothing to report. Each poll is a millisecond-long autocommit statement and the lock connection is idle between polls, so a waiting pod holds no transaction or snapshot while the holder's CREATE INDEX CONCURRENTLY (run by SqlMigrator on another connection, outside any transaction) waits for older transactions; the build completes and the holder returns (F21: polling in autocommit with sleeps lets the build finish). The lock is session-level on a DriverManager connection of its own, which holds no transaction once the key is granted; closing that unpooled connection at the end of the try block ends the session and releases the key (F1), on the error path too, and a killed pod's session ends with it. No other code takes MIGRATION_LOCK_KEY.
package com.example.hexregistry.release;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Release commands run by the container before the application starts ({@code ReleaseTasks migrate}). Both the web
 * deployment and the worker deployment run {@code migrate} in every pod, so several pods race on each deploy.
 */
public final class ReleaseTasks {

    private static final Logger log = LoggerFactory.getLogger(ReleaseTasks.class);

    /** "hexpmigr" in ASCII; no other code takes this key. */
    static final long MIGRATION_LOCK_KEY = 0x6865_7870_6d69_6772L;
    static final long LOCK_POLL_INTERVAL_MS = 1_000;

    @FunctionalInterface
    interface LockedWork {
        void run() throws SQLException, IOException;
    }

    private final String jdbcUrl;
    private final Properties credentials;
    private final SqlMigrator migrator;

    public ReleaseTasks(String jdbcUrl, Properties credentials, SqlMigrator migrator) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
        this.migrator = migrator;
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv("DATABASE_URL");
        Properties credentials = new Properties();
        credentials.setProperty("user", System.getenv("DATABASE_USER"));
        credentials.setProperty("password", System.getenv("DATABASE_PASSWORD"));
        ReleaseTasks tasks = new ReleaseTasks(url, credentials, new SqlMigrator(url, credentials));
        if (args.length == 1 && "migrate".equals(args[0])) {
            tasks.migrate();
        } else {
            System.err.println("usage: ReleaseTasks migrate");
            System.exit(2);
        }
    }

    public void migrate() throws SQLException, IOException, InterruptedException {
        log.info("[task] Running migrations");
        withMigrationLock(() -> {
            int applied = migrator.runMigrations();
            log.info("[task] Applied {} migration(s)", applied);
        });
    }

    /**
     * Runs {@code work} while this pod holds the migration lock. The lock is session-level and lives on a connection
     * of its own that runs no transaction once the key is granted; PostgreSQL releases it when that connection ends,
     * also when the pod is killed in the middle of a migration. Waiting must not hold a transaction either: a blocking
     * pg_advisory_lock call is a running statement with a snapshot, which the holder's CREATE INDEX CONCURRENTLY would
     * wait for, so the waiter polls pg_try_advisory_lock and stays idle between attempts.
     */
    void withMigrationLock(LockedWork work) throws SQLException, IOException, InterruptedException {
        try (Connection lockConn = DriverManager.getConnection(jdbcUrl, credentials)) {
            log.info("[task] Waiting for migration lock");
            acquireMigrationLock(lockConn);
            log.info("[task] Acquired migration lock");
            work.run();
        }
    }

    private static void acquireMigrationLock(Connection lockConn) throws SQLException, InterruptedException {
        try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, MIGRATION_LOCK_KEY);
            while (true) {
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
                Thread.sleep(LOCK_POLL_INTERVAL_MS);
            }
        }
    }
}
