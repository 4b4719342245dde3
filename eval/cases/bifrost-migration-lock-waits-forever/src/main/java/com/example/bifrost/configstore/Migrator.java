package com.example.bifrost.configstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies the steps not yet recorded in the migrations table, each in a transaction with its history row. */
final class Migrator {

    private static final Logger log = LoggerFactory.getLogger(Migrator.class);

    record Step(String id, String sql) {
    }

    private final DataSource dataSource;

    Migrator(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    int apply(List<Step> steps) throws SQLException {
        int applied = 0;
        try (Connection conn = dataSource.getConnection()) {
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
            }
            Set<String> done = appliedIds(conn);
            for (Step step : steps) {
                if (done.contains(step.id())) {
                    continue;
                }
                conn.setAutoCommit(false);
                try (Statement st = conn.createStatement();
                        PreparedStatement record = conn.prepareStatement("INSERT INTO migrations (id) VALUES (?)")) {
                    st.execute(step.sql());
                    record.setString(1, step.id());
                    record.executeUpdate();
                    conn.commit();
                } catch (SQLException | RuntimeException e) {
                    conn.rollback();
                    throw e;
                } finally {
                    conn.setAutoCommit(true);
                }
                log.info("[configstore] migrated {}", step.id());
                applied++;
            }
        }
        return applied;
    }

    private static Set<String> appliedIds(Connection conn) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT id FROM migrations")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }
}
