// Case: matrix-authentication-service applied its embedded migrations at every replica's start-up behind a blocking pg_advisory_lock; with two replicas starting together, the one holding the lock ran a `-- no-transaction` migration doing CREATE INDEX CONCURRENTLY, the build waited for the other replica's lock-waiting statement, PostgreSQL reported "deadlock detected" and the migration failed, leaving the index half-built.
// Source: https://github.com/element-hq/matrix-authentication-service/issues/5298
// Kind: bug
// Expected: migrate() waits for the migration lock with a blocking pg_advisory_lock on the connection it then migrates with, and two of the migrations under db/migrations build indexes with CREATE INDEX CONCURRENTLY. A second replica blocked in that SELECT holds a snapshot (a virtual transaction); the concurrent build in the replica holding the lock waits for every older snapshot to end, the waiter waits for the holder's key: PostgreSQL aborts one of them with 40P01 (F21), either the build (the migration fails and leaves an INVALID index behind) or the waiter. The unlock itself is sound (in finally, on the lock's connection, in autocommit after any failed migration transaction was rolled back). So is the key, a CRC32 of the database name kept from earlier releases: advisory locks are per database, and a database has one name. The fix polls pg_try_advisory_lock, each try its own autocommit statement, with a sleep between tries.
package com.example.auth.storage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

public class DatabaseMigrator {

    private static final Logger log = LoggerFactory.getLogger(DatabaseMigrator.class);
    private static final String NO_TRANSACTION = "-- no-transaction";

    /** Applies every embedded migration not yet recorded, in version order, on conn (autocommit on). */
    public void migrate(Connection conn) throws SQLException, IOException {
        long lockKey = lockKey(currentDatabase(conn));
        try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: migration-lock-waits-on-concurrent-index
            lock.setLong(1, lockKey);
            lock.execute();                                // waits while another replica migrates
        }
        try {
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS _migrations (version BIGINT PRIMARY KEY, "
                        + "description TEXT NOT NULL, installed_on TIMESTAMPTZ NOT NULL DEFAULT now())");
            }
            Set<Long> applied = appliedVersions(conn);
            for (Resource file : migrationFiles()) {
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

    private void apply(Connection conn, long version, String name, String sql) throws SQLException {
        boolean transactional = !sql.startsWith(NO_TRANSACTION); // CREATE INDEX CONCURRENTLY refuses a transaction block
        conn.setAutoCommit(!transactional);
        try {
            try (Statement st = conn.createStatement()) {
                st.execute(sql);
            }
            record(conn, version, name);
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

    private static void record(Connection conn, long version, String name) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO _migrations (version, description) VALUES (?, ?)")) {
            ps.setLong(1, version);
            ps.setString(2, name);
            ps.executeUpdate();
        }
    }

    private static Set<Long> appliedVersions(Connection conn) throws SQLException {
        Set<Long> versions = new HashSet<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT version FROM _migrations")) {
            while (rs.next()) {
                versions.add(rs.getLong(1));
            }
        }
        return versions;
    }

    private static List<Resource> migrationFiles() throws IOException {
        Resource[] files = new PathMatchingResourcePatternResolver().getResources("classpath:db/migrations/*.sql");
        return Arrays.stream(files).sorted(Comparator.comparing(Resource::getFilename)).toList();
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
