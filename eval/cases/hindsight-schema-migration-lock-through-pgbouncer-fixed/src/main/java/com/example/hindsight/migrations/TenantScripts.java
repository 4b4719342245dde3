package com.example.hindsight.migrations;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.stereotype.Component;

/** The DDL of a memory schema: {@code db/tenant/V<n>__<name>.sql}, applied in order and recorded in schema_version. */
@Component
public class TenantScripts {

    private static final Logger log = LoggerFactory.getLogger(TenantScripts.class);
    private static final String LOCATION = "classpath:db/tenant/V*.sql";

    private final PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();

    /** pgvector is database-wide and lives in public; every schema's tables use its types. */
    public void ensureVectorExtension(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT 1 FROM pg_extension WHERE extname = 'vector'")) {
            if (rs.next()) {
                return;
            }
        }
        log.info("pgvector extension not found, installing it in schema public");
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public");
        }
    }

    /**
     * Applies, in one transaction, the scripts newer than the schema's recorded version. {@code schema} has been
     * checked against the schema-name pattern by the caller.
     */
    public int applyPending(Connection conn, String schema) throws SQLException {
        Resource[] files = scriptFiles();
        conn.setAutoCommit(false);
        try {
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
                st.execute("SET LOCAL search_path TO " + schema + ", public");
                st.execute("CREATE TABLE IF NOT EXISTS schema_version "
                        + "(version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
            }
            int current;
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM schema_version")) {
                rs.next();
                current = rs.getInt(1);
            }
            int applied = 0;
            for (Resource file : files) {
                int version = version(file);
                if (version <= current) {
                    continue;
                }
                ScriptUtils.executeSqlScript(conn, file);
                try (PreparedStatement ps = conn.prepareStatement("INSERT INTO schema_version (version) VALUES (?)")) {
                    ps.setInt(1, version);
                    ps.executeUpdate();
                }
                applied++;
            }
            conn.commit();
            return applied;
        } catch (SQLException | RuntimeException e) {
            conn.rollback();
            throw e;
        }
    }

    private Resource[] scriptFiles() {
        try {
            Resource[] files = resolver.getResources(LOCATION);
            Arrays.sort(files, Comparator.comparingInt(TenantScripts::version));
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + LOCATION, e);
        }
    }

    static int version(Resource file) {
        String name = file.getFilename();
        return Integer.parseInt(name.substring(1, name.indexOf("__")));
    }
}
