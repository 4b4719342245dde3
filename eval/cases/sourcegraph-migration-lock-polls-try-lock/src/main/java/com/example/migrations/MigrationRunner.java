// Case: Sourcegraph's migration runner stopped waiting in a blocking pg_advisory_lock (whose long-running statement held a snapshot that the lock holder's CREATE INDEX CONCURRENTLY had to wait for, a dead/live-lock) and instead polls pg_try_advisory_lock once a second.
// Source: https://github.com/sourcegraph/sourcegraph-public-snapshot/pull/30602
// Kind: correct
// Expected: correct: a waiting instance only runs millisecond-long try-lock statements in autocommit and sleeps idle in between, so it holds no snapshot the holder's CREATE INDEX CONCURRENTLY must wait for; the poll stops at the first success, the session lock is on the runner's own connection, failed transactional migrations are rolled back before the unlock, and the unlock runs in finally in autocommit.
package com.example.migrations;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

public class MigrationRunner {

    /** One key for the schema's migrations, shared by every instance of the service. */
    static final long MIGRATION_LOCK_KEY = 4_119_338_217L;
    private static final Duration POLL_INTERVAL = Duration.ofSeconds(1);

    private final Connection conn;   // dedicated to the runner, autocommit on, closed when the runner ends

    public MigrationRunner(Connection conn) {
        this.conn = conn;
    }

    public void up(List<Migration> pending, Duration maxWait) throws SQLException, InterruptedException {
        if (!pollLock(maxWait)) {
            throw new IllegalStateException("another instance kept the migration lock for more than " + maxWait);
        }
        try {
            for (Migration m : pending) {
                apply(m);
            }
        } finally {
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                ps.setLong(1, MIGRATION_LOCK_KEY);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        System.err.println("migration lock was not held at release");
                    }
                }
            }
        }
    }

    /** Tries the lock once per interval; between attempts this session runs nothing and holds no snapshot. */
    private boolean pollLock(Duration maxWait) throws SQLException, InterruptedException {
        Instant deadline = Instant.now().plus(maxWait);
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, MIGRATION_LOCK_KEY);
            while (true) {
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return true;
                    }
                }
                if (Instant.now().isAfter(deadline)) {
                    return false;
                }
                Thread.sleep(POLL_INTERVAL.toMillis());
            }
        }
    }

    private void apply(Migration m) throws SQLException {
        if (!m.transactional()) {            // e.g. CREATE INDEX CONCURRENTLY: must run outside a transaction block
            try (Statement st = conn.createStatement()) {
                st.execute(m.sql());
            }
            recordVersion(m);
            return;
        }
        conn.setAutoCommit(false);
        try (Statement st = conn.createStatement()) {
            st.execute(m.sql());
            recordVersion(m);
            conn.commit();
        } catch (SQLException | RuntimeException e) {
            conn.rollback();                 // leave the aborted transaction before anything else runs
            throw e;
        } finally {
            conn.setAutoCommit(true);
        }
    }

    private void recordVersion(Migration m) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "INSERT INTO schema_migrations(version, applied_at) VALUES (?, now())")) {
            ps.setLong(1, m.version());
            ps.executeUpdate();
        }
    }

    public record Migration(long version, String sql, boolean transactional) {
    }
}
