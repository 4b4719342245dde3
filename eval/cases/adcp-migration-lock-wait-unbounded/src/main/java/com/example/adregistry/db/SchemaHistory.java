package com.example.adregistry.db;

import com.example.adregistry.db.ScriptLoader.Migration;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

/** The {@code schema_migrations} table: one row per applied script, written in the script's own transaction. */
class SchemaHistory {

    private final Connection conn;

    SchemaHistory(Connection conn) {
        this.conn = conn;
    }

    void ensureTable() throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                    + "filename varchar(255) NOT NULL, applied_at timestamptz DEFAULT now())");
        }
    }

    Set<Integer> appliedVersions() throws SQLException {
        Set<Integer> versions = new HashSet<>();
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT version FROM schema_migrations ORDER BY version")) {
            while (rs.next()) {
                versions.add(rs.getInt(1));
            }
        }
        return versions;
    }

    /** Runs in the caller's transaction, so the row commits or rolls back with the script. */
    void record(Migration migration) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "INSERT INTO schema_migrations (version, filename) VALUES (?, ?)")) {
            ps.setInt(1, migration.version());
            ps.setString(2, migration.filename());
            ps.executeUpdate();
        }
    }
}
