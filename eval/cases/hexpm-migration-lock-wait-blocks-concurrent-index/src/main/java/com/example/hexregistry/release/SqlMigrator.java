package com.example.hexregistry.release;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * Applies the {@code db/migration/V<version>__<name>.sql} scripts not yet recorded in {@code schema_migrations}, in
 * version order. A script that builds an index CONCURRENTLY runs in autocommit (it cannot run in a transaction
 * block); every other script runs in a transaction of its own together with its history row.
 */
public class SqlMigrator {

    private static final Logger log = LoggerFactory.getLogger(SqlMigrator.class);
    private static final String LOCATION = "classpath:db/migration/V*.sql";

    private final String jdbcUrl;
    private final Properties credentials;

    public SqlMigrator(String jdbcUrl, Properties credentials) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
    }

    /** Returns how many scripts were applied. */
    public int runMigrations() throws SQLException, IOException {
        Resource[] scripts = new PathMatchingResourcePatternResolver().getResources(LOCATION);
        Arrays.sort(scripts, Comparator.comparingLong(SqlMigrator::version));
        int applied = 0;
        try (Connection conn = DriverManager.getConnection(jdbcUrl, credentials)) {
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                        + "(version bigint PRIMARY KEY, name text NOT NULL, inserted_at timestamptz NOT NULL DEFAULT now())");
            }
            Set<Long> done = appliedVersions(conn);
            for (Resource script : scripts) {
                long version = version(script);
                if (done.contains(version)) {
                    continue;
                }
                if (script.getContentAsString(StandardCharsets.UTF_8).contains("CONCURRENTLY")) {
                    ScriptUtils.executeSqlScript(conn, script);
                    record(conn, version, script.getFilename());
                } else {
                    conn.setAutoCommit(false);
                    try {
                        ScriptUtils.executeSqlScript(conn, script);
                        record(conn, version, script.getFilename());
                        conn.commit();
                    } catch (SQLException | RuntimeException e) {
                        conn.rollback();
                        throw e;
                    } finally {
                        conn.setAutoCommit(true);
                    }
                }
                log.info("[task] Migrated {}", script.getFilename());
                applied++;
            }
        }
        return applied;
    }

    private static Set<Long> appliedVersions(Connection conn) throws SQLException {
        Set<Long> versions = new HashSet<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT version FROM schema_migrations")) {
            while (rs.next()) {
                versions.add(rs.getLong(1));
            }
        }
        return versions;
    }

    private static void record(Connection conn, long version, String name) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO schema_migrations (version, name) VALUES (?, ?)")) {
            ps.setLong(1, version);
            ps.setString(2, name);
            ps.executeUpdate();
        }
    }

    /** V20260814120200__releases_inserted_at_index.sql has version 20260814120200. */
    static long version(Resource script) {
        String name = script.getFilename();
        return Long.parseLong(name.substring(1, name.indexOf("__")));
    }
}
