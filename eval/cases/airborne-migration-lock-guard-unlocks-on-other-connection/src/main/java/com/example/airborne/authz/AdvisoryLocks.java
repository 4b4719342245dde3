// Case: airborne's advisory-lock helper took pg_try_advisory_lock on a connection borrowed from the pool for that one statement and handed back a guard that kept only the pool, so the guard's unlock ran on whatever connection the pool gave it next while the session that held the lock sat idle in the pool.
// Source: https://github.com/juspay/airborne/pull/357
// Kind: bug
// Expected: tryAcquire runs SELECT pg_try_advisory_lock(?) on a HikariCP connection and closes it at the end of the try-with-resources, which returns the connection (and its backend session, with the session-level lock on it) to the pool (F1, F13). AdvisoryLockGuard.release() then borrows another pooled connection for pg_advisory_unlock, which on any other session returns false with a WARNING and releases nothing; the result is not read, so the importer believes the realm lock is free while it stays held by an idle pooled session until Hikari retires that connection (maxLifetime, 30 minutes by default). Other replicas skip the Keycloak import in the meantime, and any code of this replica that borrows the locked connection re-enters the key (F4). The lock, its work and its unlock must run on one connection: the guard has to own the connection it locked on.
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

    /** Empty when another replica holds the lock; otherwise a guard that releases it when closed. */
    public static Optional<AdvisoryLockGuard> tryAcquire(DataSource pool, LockNamespace namespace, String key)
            throws SQLException {
        long lockId = generateLockId(namespace, key);
        boolean acquired;
        try (Connection conn = pool.getConnection();
                PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?) AS acquired")) { // want: lock-without-finally-unlock|unpinned-session-lock
            ps.setLong(1, lockId);
            try (ResultSet rs = ps.executeQuery()) {
                acquired = rs.next() && rs.getBoolean("acquired");
            }
        }
        if (!acquired) {
            log.debug("Advisory lock {} for {} '{}' is already held", lockId, namespace, key);
            return Optional.empty();
        }
        log.debug("Acquired advisory lock {} for {} '{}'", lockId, namespace, key);
        return Optional.of(new AdvisoryLockGuard(lockId, pool));
    }

    /** Releases the lock when closed, so that it is released on the error path too. */
    public static final class AdvisoryLockGuard implements AutoCloseable {

        private final long lockId;
        private final DataSource pool;
        private boolean released;

        private AdvisoryLockGuard(long lockId, DataSource pool) {
            this.lockId = lockId;
            this.pool = pool;
        }

        public void release() throws SQLException {
            if (released) {
                return;
            }
            try (Connection conn = pool.getConnection();
                    PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // may: unlock-mismatch|unlock-result-ignored
                ps.setLong(1, lockId);
                ps.execute();
            }
            released = true;
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
