// Case: sqlx_migrator serializes migration runs with a session-level pg_advisory_lock taken on the connection the caller passes in, but when generating the plan or applying a migration failed, the error returned out of the run before the unlock, so the database stayed locked for every later migration run.
// Source: https://github.com/iamsauravsharma/sqlx_migrator/pull/47
// Kind: bug
// Expected: run() takes the session-level lock through lock(conn) and releases it with unlock(conn) only after the loop completes: any SQLException or RuntimeException from reading the applied migrations, from a migration's operations or from recording it (a failing DDL statement, a constraint violation in a data migration) leaves run() before unlock(conn). A session lock is not released by the rollback of the failed migration's transaction (F1); it stays with the caller's connection, which SchemaUpgrade takes from the application's Hikari pool and closes, i.e. returns to the pool with its session and the lock still alive (F13). The next upgrade attempt, in this process on another pooled connection or in any other instance, waits in pg_advisory_lock for as long as that idle pooled session lives. The unlock belongs in a finally block around everything after the lock. The key is a CRC32 of the database and table name, a 32-bit hash of run-time values (debatable second point).
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
        lock(conn);                                                       // may: lock-without-finally-unlock
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
        unlock(conn);
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
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: lock-without-finally-unlock // may: weak-lock-key-hash
            ps.setLong(1, lockId(conn));
            ps.execute();
        }
    }

    private void unlock(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, lockId(conn));
            ps.execute();
        }
    }
}
