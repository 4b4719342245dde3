// Case: sqlx_migrator's fix for its migration lock: the result of generating and running the plan is held until the advisory lock has been released on the same connection, so a failing migration no longer leaves the database locked.
// Source: https://github.com/iamsauravsharma/sqlx_migrator/pull/47
// Kind: correct
// Expected: nothing to report. run() takes the session-level lock on the caller's connection and everything after it runs in a try whose finally calls unlock(conn) on that same connection, on success and on every exception. An atomic migration that fails is rolled back and autocommit restored before the exception leaves the loop, so the unlock runs outside any aborted transaction and succeeds; a non-atomic migration runs in autocommit and leaves no transaction open. The unlock's boolean is checked and a false is logged. SchemaUpgrade closes the connection only after run() returned or threw, i.e. after the unlock, so the pooled session goes back without the lock. The key is a CRC32 of the database and table name, unchanged from the original (debatable at most).
package com.example.migrator;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies or reverts the migrations of a plan on one connection; concurrent runs are serialized by an advisory lock. */
public class Migrator {

    public record Plan(Type type, boolean fake) {
        public enum Type { APPLY, REVERT }

        public static Plan apply() {
            return new Plan(Type.APPLY, false);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(Migrator.class);

    private final String tableName;
    private final List<Migration> migrations;

    public Migrator(String tableName, List<Migration> migrations) {
        this.tableName = tableName;
        this.migrations = List.copyOf(migrations);
    }

    public void run(Connection conn, Plan plan) throws SQLException {
        lock(conn);
        try {
            for (Migration migration : generateMigrationPlan(conn, plan)) {
                boolean apply = plan.type() == Plan.Type.APPLY;
                log.debug("{} {} : {}", apply ? "applying" : "reverting", migration.app(), migration.name());
                if (migration.isAtomic()) {
                    conn.setAutoCommit(false);
                    try {
                        execute(conn, migration, apply, plan.fake());
                        conn.commit();
                    } catch (SQLException | RuntimeException e) {
                        conn.rollback();
                        throw e;
                    } finally {
                        conn.setAutoCommit(true);
                    }
                } else {
                    execute(conn, migration, apply, plan.fake());
                }
            }
        } finally {
            unlock(conn);   // also when the plan or a migration failed: never leave the database locked
        }
    }

    private List<Migration> generateMigrationPlan(Connection conn, Plan plan) throws SQLException {
        Set<String> applied = new HashSet<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT app, name FROM " + tableName)) {
            while (rs.next()) {
                applied.add(rs.getString(1) + "/" + rs.getString(2));
            }
        }
        boolean apply = plan.type() == Plan.Type.APPLY;
        List<Migration> planned = new ArrayList<>(migrations.stream()
                .filter(m -> applied.contains(m.app() + "/" + m.name()) != apply).toList());
        if (!apply) {
            Collections.reverse(planned);
        }
        return planned;
    }

    /** Runs the migration's operations (unless the plan is fake) and writes or deletes its bookkeeping row. */
    private void execute(Connection conn, Migration m, boolean apply, boolean fake) throws SQLException {
        if (!fake) {
            m.runOperations(conn, apply);
        }
        String sql = apply ? "INSERT INTO " + tableName + " (app, name) VALUES (?, ?)"
                : "DELETE FROM " + tableName + " WHERE app = ? AND name = ?";
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, m.app());
            ps.setString(2, m.name());
            ps.executeUpdate();
        }
    }

    private long lockId(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT current_database()")) {
            rs.next();
            CRC32 crc = new CRC32();
            crc.update((rs.getString(1) + "/" + tableName).getBytes(StandardCharsets.UTF_8));
            return crc.getValue();
        }
    }

    private void lock(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // may: weak-lock-key-hash
            ps.setLong(1, lockId(conn));
            ps.execute();
        }
    }

    private void unlock(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, lockId(conn));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    log.warn("migration lock was not held by this session when releasing it");
                }
            }
        }
    }
}
