// Case: the hindsight fix: the migration lock and the migration DDL use a dedicated migration database URL that points straight at PostgreSQL, bypassing the transaction-mode PgBouncer the rest of the application goes through, so the session-level lock stays on the one backend session that takes it.
// Source: https://github.com/vectorize-io/hindsight/pull/726
// Kind: correct
// Expected: nothing to report. hindsight.migration-database-url is set in application.properties to hindsight-pg-rw:5432, the PostgreSQL primary itself, so the DriverManager connection that polls pg_try_advisory_lock is one backend session for its whole life: the key it gets stays with it while the DDL runs on a second direct connection, the other pods' polls return false until it is released, and the pg_advisory_unlock in finally runs on that same session in autocommit and releases it (the connection is in autocommit throughout, so no failed statement can leave it in an aborted transaction). Closing the unpooled connection afterwards ends the session, which would also release the key had the unlock not run (F1). Only the application pool (spring.datasource.url) goes through PgBouncer, and no advisory lock is taken on it. Each schema's key is 64 bits of SHA-256 of its name, the public schema's a constant.
package com.example.hindsight.migrations;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Brings one PostgreSQL schema (public, or a tenant's) to the latest version. Safe to call from many pods at once:
 * a per-schema advisory lock lets one of them migrate while the others wait, then find nothing left to do.
 */
@Component
public class SchemaMigrator {

    private static final Logger log = LoggerFactory.getLogger(SchemaMigrator.class);
    private static final long PUBLIC_SCHEMA_LOCK_ID = 123_456_789L;
    private static final long POLL_INTERVAL_MS = 500;
    private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final String migrationUrl;
    private final String username;
    private final String password;
    private final TenantScripts scripts;

    /**
     * {@code hindsight.migration-database-url} should point at PostgreSQL directly: a session-level advisory lock does
     * not survive a transaction-mode pooler. Without it the application URL is used.
     */
    public SchemaMigrator(@Value("${hindsight.migration-database-url:${spring.datasource.url}}") String migrationUrl,
                          @Value("${spring.datasource.username}") String username,
                          @Value("${spring.datasource.password}") String password,
                          TenantScripts scripts) {
        this.migrationUrl = migrationUrl;
        this.username = username;
        this.password = password;
        this.scripts = scripts;
    }

    public void runMigrations(String schema) throws SQLException, InterruptedException {
        if (!SCHEMA_NAME.matcher(schema).matches()) {
            throw new IllegalArgumentException("Invalid schema name: " + schema);
        }
        long lockId = "public".equals(schema) ? PUBLIC_SCHEMA_LOCK_ID : schemaLockId(schema);
        try (Connection lockConn = DriverManager.getConnection(migrationUrl, username, password)) {
            log.debug("Acquiring migration advisory lock for schema '{}' (id={})", schema, lockId);
            while (!tryLock(lockConn, lockId)) {
                Thread.sleep(POLL_INTERVAL_MS);
            }
            log.debug("Migration advisory lock acquired");
            try {
                scripts.ensureVectorExtension(lockConn);
                try (Connection ddl = DriverManager.getConnection(migrationUrl, username, password)) {
                    int applied = scripts.applyPending(ddl, schema);
                    log.info("Schema '{}': {} migration(s) applied", schema, applied);
                }
            } finally {
                unlock(lockConn, lockId);
                log.debug("Migration advisory lock released");
            }
        }
    }

    private static boolean tryLock(Connection conn, long lockId) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, lockId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static void unlock(Connection conn, long lockId) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, lockId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    log.warn("Migration advisory lock {} was not held by this session at release", lockId);
                }
            }
        }
    }

    /** First 8 bytes of SHA-256 of the schema name: the same key on every pod. */
    static long schemaLockId(String schema) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(schema.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
