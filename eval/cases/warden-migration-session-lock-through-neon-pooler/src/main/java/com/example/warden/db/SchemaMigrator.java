// Case: Warden's hosted service applied its SQL migrations under a session-level pg_advisory_lock taken through the pooled (PgBouncer, transaction mode) Neon endpoint; when the serverless platform killed a migration at its 30-second limit, the finally block never ran and the lock stayed on a pooled backend, blocking every later migration run.
// Source: https://github.com/getsentry/warden/pull/490
// Kind: bug
// Expected: the DataSource points at Neon's "-pooler" host (application.properties), which is PgBouncer in transaction mode. pg_advisory_lock runs in autocommit, a transaction of its own, so the session-level lock stays on whichever server connection ran it while PgBouncer lends that backend to other clients (F10); the per-file migration transactions and the final pg_advisory_unlock may run on other backends, where the unlock returns false with a WARNING and releases nothing. When the platform terminates the function mid-migration, the client connection drops but PgBouncer keeps the server connection, and the lock, alive: the key is orphaned on a pooled backend and every later migrate() blocks in pg_advisory_lock. The lock and unlock lines are the defect; use pg_advisory_xact_lock inside one transaction that applies all pending files (released by COMMIT, ROLLBACK or the dropped transaction), or take the session lock over a direct, unpooled connection.
package com.example.warden.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.stereotype.Component;

/** Applies the additive SQL migrations under classpath:drizzle/ in file-name order, once each. */
@Component
public class SchemaMigrator {

    private static final Logger log = LoggerFactory.getLogger(SchemaMigrator.class);
    private static final long MIGRATION_LOCK_ID = 7_305_118_204L;
    private static final String LOCATION = "classpath:drizzle/[0-9]*.sql";

    private final DataSource dataSource;   // spring.datasource.url: the Neon pooled endpoint
    private final PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();

    public SchemaMigrator(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Apply pending migrations while holding a session advisory lock; returns how many were applied. */
    public int migrate() throws SQLException {
        Resource[] files = migrationFiles();
        try (Connection conn = dataSource.getConnection()) {
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_lock(?)")) { // want: session-lock-under-transaction-pooling
                ps.setLong(1, MIGRATION_LOCK_ID);
                ps.execute();
            }
            try {
                try (Statement st = conn.createStatement()) {
                    st.execute("CREATE TABLE IF NOT EXISTS _warden_service_migrations ("
                            + "version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
                }
                Set<String> applied = appliedVersions(conn);
                int count = 0;
                for (Resource file : files) {
                    String version = file.getFilename().replaceFirst("\\.sql$", "");
                    if (applied.contains(version)) {
                        continue;
                    }
                    applyOne(conn, version, read(file));
                    count++;
                }
                return count;
            } finally {
                try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // want: session-lock-under-transaction-pooling
                    ps.setLong(1, MIGRATION_LOCK_ID);
                    ps.execute();
                }
            }
        }
    }

    private void applyOne(Connection conn, String version, String sql) throws SQLException {
        conn.setAutoCommit(false);
        try (Statement st = conn.createStatement();
             PreparedStatement record = conn.prepareStatement(
                     "INSERT INTO _warden_service_migrations (version) VALUES (?)")) {
            st.execute(sql);
            record.setString(1, version);
            record.executeUpdate();
            conn.commit();
            log.info("applied migration {}", version);
        } catch (SQLException | RuntimeException e) {
            conn.rollback();
            throw e;
        } finally {
            conn.setAutoCommit(true);
        }
    }

    private static Set<String> appliedVersions(Connection conn) throws SQLException {
        Set<String> versions = new HashSet<>();
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT version FROM _warden_service_migrations")) {
            while (rs.next()) {
                versions.add(rs.getString(1));
            }
        }
        return versions;
    }

    private Resource[] migrationFiles() {
        try {
            Resource[] files = resolver.getResources(LOCATION);
            Arrays.sort(files, Comparator.comparing(Resource::getFilename));
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + LOCATION, e);
        }
    }

    private static String read(Resource file) {
        try {
            return new String(file.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.getFilename(), e);
        }
    }
}
