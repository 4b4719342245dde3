// Case: hindsight serialised its per-schema migrations (run at start-up by every API and worker pod, for public and each tenant schema) with a session-level pg_try_advisory_lock polled on a dedicated connection, but that connection used the application's database URL, which goes through PgBouncer in transaction mode: the lock stayed on whichever server connection ran it, so several pods migrated the same schema at once and failed with duplicate-table errors.
// Source: https://github.com/vectorize-io/hindsight/pull/726
// Kind: bug
// Expected: the lock connection is opened on spring.datasource.url, port 6432 of hindsight-pgbouncer, whose pool_mode is transaction (deploy/pgbouncer/pgbouncer.ini). Each autocommit statement on it is a transaction of its own that PgBouncer may run on any server connection (F10): pg_try_advisory_lock leaves the key on the server connection that ran it, which PgBouncer then lends to other clients; a pod polling for the same schema that lands on that server connection gets true by re-entrancy while the first pod is still migrating, so two pods run the same DDL (duplicate table, duplicate version row). The pg_advisory_unlock in finally runs on whatever server connection comes next and returns false with a WARNING, leaving the key orphaned on a pooled backend until PgBouncer recycles it, so later migrations of that schema poll until then. Take the lock over a direct connection to PostgreSQL (a migration URL that bypasses the pooler), or use pg_advisory_xact_lock inside the migration's transaction.
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

    private final String databaseUrl;
    private final String username;
    private final String password;
    private final TenantScripts scripts;

    public SchemaMigrator(@Value("${spring.datasource.url}") String databaseUrl,
                          @Value("${spring.datasource.username}") String username,
                          @Value("${spring.datasource.password}") String password,
                          TenantScripts scripts) {
        this.databaseUrl = databaseUrl;
        this.username = username;
        this.password = password;
        this.scripts = scripts;
    }

    public void runMigrations(String schema) throws SQLException, InterruptedException {
        if (!SCHEMA_NAME.matcher(schema).matches()) {
            throw new IllegalArgumentException("Invalid schema name: " + schema);
        }
        long lockId = "public".equals(schema) ? PUBLIC_SCHEMA_LOCK_ID : schemaLockId(schema);
        try (Connection lockConn = DriverManager.getConnection(databaseUrl, username, password)) {
            log.debug("Acquiring migration advisory lock for schema '{}' (id={})", schema, lockId);
            while (!tryLock(lockConn, lockId)) {
                Thread.sleep(POLL_INTERVAL_MS);
            }
            log.debug("Migration advisory lock acquired");
            try {
                scripts.ensureVectorExtension(lockConn);
                try (Connection ddl = DriverManager.getConnection(databaseUrl, username, password)) {
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
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: session-lock-under-transaction-pooling
            ps.setLong(1, lockId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static void unlock(Connection conn, long lockId) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // want: session-lock-under-transaction-pooling
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
