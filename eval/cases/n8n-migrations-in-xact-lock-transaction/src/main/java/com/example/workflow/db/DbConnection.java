// Case: instances starting together raced their schema migrations; the fix runs all pending migrations inside one transaction that first takes a transaction-level lock (two-int key: fixed namespace, hashed schema sub-key)
// Source: https://github.com/n8n-io/n8n/pull/34685
// Kind: correct
// Expected: correct, also behind PgBouncer in transaction mode: the lock, the migrations and the history rows share one connection and one
//   transaction, so the lock ends at COMMIT or ROLLBACK (or when a crashed instance's session ends); the timeouts are lifted with SET LOCAL only.
package com.example.workflow.db;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Start-up of the database layer: every instance (main, worker, webhook) calls {@link #migrate()}. */
public class DbConnection {

    private static final Logger log = LoggerFactory.getLogger(DbConnection.class);

    private final DbLockService locks;
    private final MigrationExecutor executor;
    private final String schema;
    private final String tablePrefix;

    public DbConnection(DbLockService locks, MigrationExecutor executor, String schema, String tablePrefix) {
        this.locks = locks;
        this.executor = executor;
        this.schema = schema;
        this.tablePrefix = tablePrefix;
    }

    public void migrate() {
        log.info("Acquiring database migration lock...");
        int applied = locks.withLock(DbLock.MIGRATIONS, subKey(schema + ":" + tablePrefix), true,
                connection -> executor.runPending(connection));
        log.info("Applied {} migration(s)", applied);
    }

    /** Tenants sharing one database use different schemas or prefixes; they must not block each other. */
    static int subKey(String scope) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(scope.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getInt(0);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
