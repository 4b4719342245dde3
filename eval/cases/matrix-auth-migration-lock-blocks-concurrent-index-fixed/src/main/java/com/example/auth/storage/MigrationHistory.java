package com.example.auth.storage;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/** The embedded migration files and the table recording which of them the database has applied. */
final class MigrationHistory {

    private MigrationHistory() {
    }

    static void ensureTable(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS _migrations (version BIGINT PRIMARY KEY, "
                    + "description TEXT NOT NULL, installed_on TIMESTAMPTZ NOT NULL DEFAULT now())");
        }
    }

    static Set<Long> appliedVersions(Connection conn) throws SQLException {
        Set<Long> versions = new HashSet<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT version FROM _migrations")) {
            while (rs.next()) {
                versions.add(rs.getLong(1));
            }
        }
        return versions;
    }

    static void record(Connection conn, long version, String name) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO _migrations (version, description) VALUES (?, ?)")) {
            ps.setLong(1, version);
            ps.setString(2, name);
            ps.executeUpdate();
        }
    }

    /** db/migrations/*.sql in version order (file names start with a yyyyMMddHHmmss version). */
    static List<Resource> migrationFiles() throws IOException {
        Resource[] files = new PathMatchingResourcePatternResolver().getResources("classpath:db/migrations/*.sql");
        return Arrays.stream(files).sorted(Comparator.comparing(Resource::getFilename)).toList();
    }
}
