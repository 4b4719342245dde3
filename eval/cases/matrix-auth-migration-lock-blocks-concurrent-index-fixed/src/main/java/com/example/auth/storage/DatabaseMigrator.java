// Case: matrix-authentication-service's fix for migrations run by several replicas at once: the migration lock is taken by polling pg_try_advisory_lock with an exponential back-off (250 ms doubling up to 5 s) instead of waiting in a blocking pg_advisory_lock, so a concurrent index build in the replica that holds the lock is never left waiting on a replica that waits for the lock.
// Source: https://github.com/element-hq/matrix-authentication-service/pull/5329
// Kind: correct
// Expected: nothing to report. Each try-lock is its own short statement in autocommit (the pooled connection's default; apply() restores autocommit after every migration), and the waiting replica sleeps between tries holding no snapshot, so the CREATE INDEX CONCURRENTLY of the replica holding the key completes (F21); the result of every try decides whether the loop goes on, and the migrations run only once it returned true. The key is released in finally on the same connection, in autocommit, after any failed migration transaction was rolled back. The key is a CRC32 of the database name, kept from earlier releases so old and new versions exclude each other; advisory locks are per database, so the one name a database has is the only input that can meet this key.
package com.example.auth.storage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;

public class DatabaseMigrator {

    private static final Logger log = LoggerFactory.getLogger(DatabaseMigrator.class);
    private static final String NO_TRANSACTION = "-- no-transaction";
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    /** Applies every embedded migration not yet recorded, in version order, on conn (autocommit on). */
    public void migrate(Connection conn) throws SQLException, IOException, InterruptedException {
        long lockKey = lockKey(currentDatabase(conn));
        // Not pg_advisory_lock: a session waiting in it keeps another replica's CREATE INDEX CONCURRENTLY from completing.
        Duration backoff = Duration.ofMillis(250);
        while (!tryLock(conn, lockKey)) {
            log.warn("Another process is already running migrations on the database, waiting {}s and trying again",
                    backoff.toMillis() / 1000.0);
            Thread.sleep(backoff.toMillis());
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
        try {
            MigrationHistory.ensureTable(conn);
            Set<Long> applied = MigrationHistory.appliedVersions(conn);
            for (Resource file : MigrationHistory.migrationFiles()) {
                String name = file.getFilename();
                long version = Long.parseLong(name.substring(0, name.indexOf('_')));
                if (!applied.contains(version)) {
                    log.info("Applying migration {}", name);
                    apply(conn, version, name, new String(file.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        } finally {
            try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                unlock.setLong(1, lockKey);
                try (ResultSet rs = unlock.executeQuery()) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        log.warn("migration lock {} was not held when releasing it", lockKey);
                    }
                }
            }
        }
    }

    private static boolean tryLock(Connection conn, long key) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private void apply(Connection conn, long version, String name, String sql) throws SQLException {
        boolean transactional = !sql.startsWith(NO_TRANSACTION); // CREATE INDEX CONCURRENTLY refuses a transaction block
        conn.setAutoCommit(!transactional);
        try {
            try (Statement st = conn.createStatement()) {
                st.execute(sql);
            }
            MigrationHistory.record(conn, version, name);
            if (transactional) {
                conn.commit();
            }
        } catch (SQLException | RuntimeException e) {
            if (transactional) {
                conn.rollback();
            }
            throw e;
        } finally {
            conn.setAutoCommit(true);
        }
    }

    private static String currentDatabase(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT current_database()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The key earlier releases' migrator used, so that old and new versions exclude each other during an upgrade. */
    static long lockKey(String databaseName) {
        CRC32 crc = new CRC32();
        crc.update(databaseName.getBytes(StandardCharsets.UTF_8));
        return 0x3d32ad9eL * crc.getValue();               // at most ~4.4e18: fits a bigint
    }
}
