// Case: Terraform's pg state backend locked a workspace with pg_try_advisory_lock(id), id being the row's serial id in the configured schema's own states table; configurations that kept their states in different schemas of one database all had a "default" workspace with id 1, so running one locked out the others ("Workspace is already locked").
// Source: https://github.com/hashicorp/terraform/issues/22833
// Kind: bug
// Expected: advisory-lock keys are per database, not per schema, but the key here is states.id, a bigserial whose sequence belongs to the schema's own table (CREATE TABLE ... id bigserial in prepareSchema). Every schema numbers its workspaces 1, 2, 3..., so the first workspace of project A and of project B both take pg_try_advisory_lock(1): whichever runs second gets false and fails with "Workspace is already locked" although nobody touches its state, and in general any two states with the same row number in different schemas exclude each other. The lock call is the defect (its key is not unique in the key space it is taken in); no rule describes a key drawn from a schema-local sequence. The thread's fix draws the ids of every schema's table from one database-wide sequence, so a state id names one state in the whole database.
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
            st.execute("CREATE TABLE IF NOT EXISTS " + schema + ".states ("
                    + "id bigserial PRIMARY KEY, name text UNIQUE, data text)");
        }
    }

    public void lock(String workspace) throws SQLException, StateLockedException {
        long stateId = stateId(workspace);
        boolean locked;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: none
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
