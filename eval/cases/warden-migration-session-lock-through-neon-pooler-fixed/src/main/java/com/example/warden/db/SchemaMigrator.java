// Case: Warden's fix for its stranded migration lock: all pending migrations now run in one transaction that first takes pg_advisory_xact_lock under a new key, so a disconnect or a killed function ends the transaction and with it both the lock and any partial schema change, even through Neon's transaction-mode pooler.
// Source: https://github.com/getsentry/warden/pull/490
// Kind: correct
// Expected: nothing to report. The connection still comes from the pooled Neon endpoint, but every statement of migrate() runs inside one transaction (setAutoCommit(false) before the lock, commit() after the last insert), and PgBouncer in transaction mode keeps a transaction on one server connection from BEGIN to its end. The transaction-level lock is held by that transaction for the whole run and released by the COMMIT, the ROLLBACK in the catch, or the server-side abort when the client vanishes mid-transaction; there is no manual unlock to miss. The key differs from the old session-lock key on purpose, so a lock orphaned by the previous version cannot block the new migrator. The DDL and the version rows commit together, so a killed run leaves no half-applied file behind.
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
    // differs from the legacy session-lock key so a lock stranded by an old pooled deployment cannot block us
    private static final long MIGRATION_LOCK_ID = 8_217_436_292L;
    private static final String LOCATION = "classpath:drizzle/[0-9]*.sql";

    private final DataSource dataSource;   // spring.datasource.url: the Neon pooled endpoint
    private final PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();

    public SchemaMigrator(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Apply pending migrations in one transaction under a transaction-level advisory lock. */
    public int migrate() throws SQLException {
        Resource[] files = migrationFiles();
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try {
                try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                    ps.setLong(1, MIGRATION_LOCK_ID);
                    ps.execute();
                }
                ensureMigrationTable(conn);
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
                conn.commit();
                return count;
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            } finally {
                conn.setAutoCommit(true);
            }
        }
    }

    private static void applyOne(Connection conn, String version, String sql) throws SQLException {
        try (Statement st = conn.createStatement();
             PreparedStatement record = conn.prepareStatement(
                     "INSERT INTO _warden_service_migrations (version) VALUES (?)")) {
            st.execute(sql);
            record.setString(1, version);
            record.executeUpdate();
        }
        log.info("applied migration {}", version);
    }

    private static void ensureMigrationTable(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS _warden_service_migrations ("
                    + "version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
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
