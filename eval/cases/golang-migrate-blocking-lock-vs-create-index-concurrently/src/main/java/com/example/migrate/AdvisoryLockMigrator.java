// Case: golang-migrate's Postgres driver waits for its migration lock with a blocking pg_advisory_lock; when several replicas migrate at start-up and the holder runs CREATE INDEX CONCURRENTLY, the index build waits for the waiters' in-flight lock statements and the waiters wait for the holder: "deadlock detected", a dirty schema version and an INVALID index.
// Source: https://github.com/golang-migrate/migrate/issues/960
// Kind: bug
// Relabelled 2026-12-02: the marker below said `want: none` (no rule described the defect when the case was written); the rule migration-lock-waits-on-concurrent-index, added since, describes it. The defect and its line are unchanged.
// Expected: every replica runs this at start-up; a replica blocked in SELECT pg_advisory_lock is a running statement that holds a snapshot, CREATE INDEX CONCURRENTLY in the replica holding the lock waits for that snapshot's transaction to end, which never happens while the holder keeps the lock: PostgreSQL aborts one side as a deadlock (or the two wait for ever when the index is built on another connection). Poll pg_try_advisory_lock with a sleep instead of blocking.
package com.example.migrate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.core.io.Resource;

public class AdvisoryLockMigrator {

    static final long MIGRATE_LOCK_KEY = 2_053_877_162L;

    private final DataSource dataSource;

    public AdvisoryLockMigrator(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Applies the files not yet recorded, in order; each runs as one autocommit statement on the lock's connection. */
    public void up(List<Resource> files) throws SQLException {
        try (Connection conn = dataSource.getConnection()) {
            try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: migration-lock-waits-on-concurrent-index
                lock.setLong(1, MIGRATE_LOCK_KEY);
                lock.execute();                        // waits here while another replica migrates
            }
            try {
                for (Resource file : files) {
                    if (isApplied(conn, file.getFilename())) {
                        continue;                      // read under the lock: another replica may have applied it
                    }
                    try (Statement st = conn.createStatement()) {
                        st.execute(read(file));
                    }
                    markApplied(conn, file.getFilename());
                }
            } finally {
                try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    unlock.setLong(1, MIGRATE_LOCK_KEY);
                    try (ResultSet rs = unlock.executeQuery()) {
                        if (!rs.next() || !rs.getBoolean(1)) {
                            System.err.println("migration lock was not held at release");
                        }
                    }
                }
            }
        }
    }

    private static boolean isApplied(Connection conn, String file) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT 1 FROM schema_migrations WHERE version = ?")) {
            ps.setString(1, file);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void markApplied(Connection conn, String file) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO schema_migrations(version) VALUES (?)")) {
            ps.setString(1, file);
            ps.executeUpdate();
        }
    }

    private static String read(Resource file) {
        try {
            return new String(file.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
