// Case: hexpm serialised the migrate step that every web and worker pod runs at boot with a session-level pg_advisory_lock taken on a dedicated connection; the pods that were not first waited inside the blocking pg_advisory_lock call, and the first pod's CREATE INDEX CONCURRENTLY waited for their snapshots for good, a hang PostgreSQL never reports as a deadlock.
// Source: https://github.com/hexpm/hexpm/pull/1835
// Kind: bug
// Expected: in withMigrationLock, the blocking SELECT pg_advisory_lock(?) is a running statement for as long as another pod holds MIGRATION_LOCK_KEY, so each waiting pod holds a snapshot (a virtual transaction) the whole time. The pod holding the key runs SqlMigrator on a second connection, and V20260814120200's CREATE INDEX CONCURRENTLY waits for every transaction older than its build to end, the waiters included, while the waiters wait for the key that only the holder's idle lock connection releases when migrate() returns. The cycle goes through the holder's own application code and not through PostgreSQL's lock graph (the lock connection is idle, waiting on nothing), so no deadlock is detected (F21 measures the one-session variant, which PostgreSQL does report as 40P01): the deploy hangs with the index build in WaitForOlderSnapshots until someone cancels a waiter's backend. Wait by polling pg_try_advisory_lock in autocommit with a sleep between attempts, so a waiting pod holds no snapshot.
package com.example.hexregistry.release;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
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

    public void migrate() throws SQLException, IOException {
        log.info("[task] Running migrations");
        withMigrationLock(() -> {
            int applied = migrator.runMigrations();
            log.info("[task] Applied {} migration(s)", applied);
        });
    }

    /**
     * Runs {@code work} while this pod holds the migration lock. The lock is session-level and lives on a connection
     * of its own that runs no transaction, so it does not get in the way of CREATE INDEX CONCURRENTLY; PostgreSQL
     * releases it when that connection ends, also when the pod is killed in the middle of a migration.
     */
    void withMigrationLock(LockedWork work) throws SQLException, IOException {
        try (Connection lockConn = DriverManager.getConnection(jdbcUrl, credentials)) {
            log.info("[task] Waiting for migration lock");
            try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: migration-lock-waits-on-concurrent-index
                ps.setLong(1, MIGRATION_LOCK_KEY);
                ps.execute();
            }
            log.info("[task] Acquired migration lock");
            work.run();
        }
    }
}
