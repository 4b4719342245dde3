// Case: the airborne fix: the advisory-lock guard keeps the pooled connection pg_try_advisory_lock ran on and runs pg_advisory_unlock on that same connection before handing it back to the pool.
// Source: https://github.com/juspay/airborne/pull/357
// Kind: correct
// Expected: nothing to report. tryAcquire borrows one HikariCP connection (autocommit, no transaction), runs the try-lock on it and reads its boolean; when the lock is not granted, or the statement fails, the connection goes straight back to the pool holding nothing. When it is granted the guard owns the connection: release() runs pg_advisory_unlock on that same session, reads its result, and only then closes (returns) the connection, in a finally, so the session goes back to the pool without the lock (F1, F13). The importer releases through try-with-resources, on the error path too. The key is a namespace in the high 32 bits and 32 bits of a 64-bit fingerprint of the realm name in the low ones; a collision would only make two realms' imports wait for each other.
package com.example.airborne.authz;

import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** PostgreSQL advisory locks that let one server replica at a time run a start-up migration. */
public final class AdvisoryLocks {

    private static final Logger log = LoggerFactory.getLogger(AdvisoryLocks.class);

    /** Keeps the lock ids of different operations apart: the namespace fills the high 32 bits. */
    public enum LockNamespace {
        SUPERPOSITION_MIGRATION(1),
        KEYCLOAK_TO_CASBIN_MIGRATION(2);

        private final long code;

        LockNamespace(long code) {
            this.code = code;
        }

        long baseId() {
            return code << 32;
        }
    }

    private AdvisoryLocks() {
    }

    static long generateLockId(LockNamespace namespace, String key) {
        long hash = Hashing.farmHashFingerprint64().hashString(key, StandardCharsets.UTF_8).asLong(); // may: weak-lock-key-hash
        return namespace.baseId() | (hash & 0xFFFF_FFFFL);
    }

    /**
     * Empty when another replica holds the lock; otherwise a guard that owns the connection the lock was taken on
     * and releases the lock on it when closed.
     */
    public static Optional<AdvisoryLockGuard> tryAcquire(DataSource pool, LockNamespace namespace, String key)
            throws SQLException {
        long lockId = generateLockId(namespace, key);
        Connection conn = pool.getConnection();
        boolean acquired;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?) AS acquired")) {
            ps.setLong(1, lockId);
            try (ResultSet rs = ps.executeQuery()) {
                acquired = rs.next() && rs.getBoolean("acquired");
            }
        } catch (SQLException | RuntimeException e) {
            conn.close();
            throw e;
        }
        if (!acquired) {
            conn.close();
            log.debug("Advisory lock {} for {} '{}' is already held", lockId, namespace, key);
            return Optional.empty();
        }
        log.debug("Acquired advisory lock {} for {} '{}'", lockId, namespace, key);
        return Optional.of(new AdvisoryLockGuard(lockId, conn));
    }

    /** Owns the session that holds the lock until the lock is released on it. */
    public static final class AdvisoryLockGuard implements AutoCloseable {

        private final long lockId;
        private final Connection conn;
        private boolean released;

        private AdvisoryLockGuard(long lockId, Connection conn) {
            this.lockId = lockId;
            this.conn = conn;
        }

        public void release() throws SQLException {
            if (released) {
                return;
            }
            released = true;
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                ps.setLong(1, lockId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!(rs.next() && rs.getBoolean(1))) {
                        log.warn("Advisory lock {} was not held by this session when released", lockId);
                    }
                }
            } finally {
                conn.close();
            }
            log.debug("Released advisory lock {}", lockId);
        }

        @Override
        public void close() {
            try {
                release();
            } catch (SQLException e) {
                log.warn("Failed to release advisory lock {}", lockId, e);
            }
        }
    }
}
