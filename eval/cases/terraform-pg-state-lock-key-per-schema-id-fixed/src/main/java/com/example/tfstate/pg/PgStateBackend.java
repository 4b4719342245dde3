// Case: the fix of Terraform's pg backend for states in several schemas of one database: every schema's states table now takes its ids from one database-wide sequence, so the workspace lock pg_try_advisory_lock(id) names one state in the whole database.
// Source: https://github.com/hashicorp/terraform/issues/22833
// Kind: correct
// Expected: nothing to report. The advisory-lock key is states.id, and since every schema's table draws its ids from public.global_states_id_seq, two rows anywhere in the database never share an id: a project locking its default workspace no longer blocks the default workspace of a project in another schema. The try-lock's result decides (StateLockedException on false), the lock and its unlock run on the one connection the run holds, the unlock's result is checked, and the caller releases in a finally.
package com.example.tfstate.pg;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Remote state kept in PostgreSQL: one row per workspace in {@code <schema>.states}, locked while in use. */
public class PgStateBackend implements AutoCloseable {

    /** Another run holds the workspace. */
    public static class StateLockedException extends Exception {
        public StateLockedException(String message) {
            super(message);
        }
    }

    private final Connection conn;   // one session for the whole run: the lock lives and dies with it
    private final String schema;     // quoted identifier
    private Long lockedStateId;

    private PgStateBackend(Connection conn, String schema) {
        this.conn = conn;
        this.schema = schema;
    }

    public static PgStateBackend open(String connStr, String schemaName) throws SQLException {
        Connection conn = DriverManager.getConnection(connStr);
        PgStateBackend backend = new PgStateBackend(conn, quoteIdentifier(schemaName));
        backend.prepareSchema();
        return backend;
    }

    private void prepareSchema() throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
            // one sequence for every schema's states table: a state id, and so its lock key, is unique database-wide
            st.execute("CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint");
            st.execute("CREATE TABLE IF NOT EXISTS " + schema + ".states ("
                    + "id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, "
                    + "name text UNIQUE, data text)");
        }
    }

    public void lock(String workspace) throws SQLException, StateLockedException {
        long stateId = stateId(workspace);
        boolean locked;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, stateId);
            try (ResultSet rs = ps.executeQuery()) {
                locked = rs.next() && rs.getBoolean(1);
            }
        }
        if (!locked) {
            throw new StateLockedException("Workspace is already locked: " + workspace);
        }
        lockedStateId = stateId;
    }

    public void unlock() throws SQLException {
        if (lockedStateId == null) {
            return;
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, lockedStateId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    throw new SQLException("state lock " + lockedStateId + " was not held by this session");
                }
            }
        }
        lockedStateId = null;
    }

    public String get(String workspace) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT data FROM " + schema + ".states WHERE name = ?")) {
            ps.setString(1, workspace);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    public void put(String workspace, String data) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + schema + ".states (name, data) VALUES (?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data")) {
            ps.setString(1, workspace);
            ps.setString(2, data);
            ps.executeUpdate();
        }
    }

    /** The workspace's row id, creating an empty row for a new workspace. */
    private long stateId(String workspace) throws SQLException {
        try (PreparedStatement insert = conn.prepareStatement(
                "INSERT INTO " + schema + ".states (name) VALUES (?) ON CONFLICT (name) DO NOTHING")) {
            insert.setString(1, workspace);
            insert.executeUpdate();
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM " + schema + ".states WHERE name = ?")) {
            ps.setString(1, workspace);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String quoteIdentifier(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
