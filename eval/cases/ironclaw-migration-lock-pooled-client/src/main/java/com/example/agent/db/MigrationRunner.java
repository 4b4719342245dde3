// Case: ironclaw serialised start-up migrations with a session-level pg_advisory_lock on a client checked out of its pool, ran the checksum repair and the migrations on that same client, and always released the lock afterwards, only logging an unlock that failed (a reviewer asked whether that failure should fail the run).
// Source: https://github.com/nearai/ironclaw/pull/2101
// Kind: correct
// Expected: nothing a careful reviewer must report: lock, repair, migrations and unlock all run on the one pinned connection in autocommit, the unlock is in finally with nothing able to throw between the lock and the try; the unbounded wait is the deliberate start-up serialisation, and a logged unlock failure leaves the lock on a pooled connection only in the rare case the statement fails while the session survives.
package com.example.agent.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

public class MigrationRunner {

    private static final Logger log = LoggerFactory.getLogger(MigrationRunner.class);

    /** Visible in pg_locks as objid = 1328. */
    static final long MIGRATION_LOCK_KEY = 1328L;

    private final DataSource pool;

    public MigrationRunner(DataSource pool) {
        this.pool = pool;
    }

    public void migrate() throws SQLException {
        try (Connection client = pool.getConnection()) {
            try (Statement st = client.createStatement()) {
                st.execute("SELECT pg_advisory_lock(" + MIGRATION_LOCK_KEY + ")"); // may: blocking-lock-without-timeout|lock-without-finally-unlock
            }
            try {
                realignDivergedChecksums(client);
                Flyway.configure()
                    .dataSource(new SingleConnectionDataSource(client, true))
                    .load()
                    .migrate();
            } finally {
                try (Statement st = client.createStatement()) {
                    st.execute("SELECT pg_advisory_unlock(" + MIGRATION_LOCK_KEY + ")");
                } catch (SQLException e) {
                    log.error("failed to release the migration advisory lock; other replicas wait until this session ends", e);
                }
            }
        }
    }

    /** Rewrites the stored checksum of a migration whose file was changed after release. */
    private void realignDivergedChecksums(Connection client) throws SQLException {
        try (Statement st = client.createStatement();
             ResultSet rs = st.executeQuery("SELECT to_regclass('flyway_schema_history') IS NOT NULL")) {
            if (!rs.next() || !rs.getBoolean(1)) {
                return;                                   // fresh database: nothing to repair
            }
        }
        try (PreparedStatement ps = client.prepareStatement(
                "UPDATE flyway_schema_history SET checksum = ? WHERE version = ? AND checksum = ?")) {
            ps.setInt(1, 1_151_220_387);
            ps.setString(2, "6");
            ps.setInt(3, -402_772_151);
            ps.executeUpdate();
        }
    }
}
