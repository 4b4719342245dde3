package com.example.workflow.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Applies pending migrations on the connection it is given, without transactions of its own. */
public class MigrationExecutor {

    public record Migration(long timestamp, String name, String sql) {
    }

    private final List<Migration> migrations;

    public MigrationExecutor(List<Migration> migrations) {
        this.migrations = migrations;
    }

    public int runPending(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS migrations (id serial PRIMARY KEY, timestamp bigint NOT NULL, name varchar NOT NULL)");
        }
        // read after the lock: a waiter sees what the previous holder committed
        Set<String> done = new HashSet<>();
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT name FROM migrations")) {
            while (rs.next()) {
                done.add(rs.getString(1));
            }
        }
        int applied = 0;
        for (Migration m : migrations) {
            if (done.contains(m.name())) {
                continue;
            }
            try (Statement st = connection.createStatement()) {
                st.execute(m.sql());
            }
            try (PreparedStatement ps = connection.prepareStatement("INSERT INTO migrations (timestamp, name) VALUES (?, ?)")) {
                ps.setLong(1, m.timestamp());
                ps.setString(2, m.name());
                ps.executeUpdate();
            }
            applied++;
        }
        return applied;
    }
}
