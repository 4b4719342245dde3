package com.example.gel.ai;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-held lock of the AI index builder. It guards several pooled connections and slow calls to the
 * embedding providers, so it lives on the tenant's system connection, not on a pooled one. Every task of the
 * tenant shares that session, where advisory locks re-enter, so the check that nobody holds the key and the lock
 * itself run together, behind a transaction-level guard lock and the system connection's mutex. Use tryLock and
 * unlock only; never take either key on its own.
 */
final class ExtAiLock {

    private static final Logger log = LoggerFactory.getLogger(ExtAiLock.class);

    static final long EXT_AI_ADVISORY_LOCK = 3_987_734_540L;
    static final long EXT_AI_ADVISORY_LOCK_LOCK = 3_987_734_541L;

    /** Both keys are below 2^32, so a one-bigint key shows up in pg_locks as classid 0, objid key, objsubid 1. */
    private static final String NOBODY_HOLDS_IT = "SELECT NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
            + " AND classid = 0 AND objid = ?::oid AND objsubid = 1)";

    private ExtAiLock() {
    }

    /** True when this tenant now holds the builder lock on its system connection; release it with unlock. */
    static boolean tryLock(TenantConnections tenant, Connection pooled) throws SQLException {
        boolean autoCommit = pooled.getAutoCommit();
        pooled.setAutoCommit(false);
        try {
            if (!queryBoolean(pooled, "SELECT pg_try_advisory_xact_lock(?)", EXT_AI_ADVISORY_LOCK_LOCK)) {
                return false;
            }
            return tenant.withSystemConnection(sys -> queryBoolean(sys, NOBODY_HOLDS_IT, EXT_AI_ADVISORY_LOCK)
                    && queryBoolean(sys, "SELECT pg_try_advisory_lock(?)", EXT_AI_ADVISORY_LOCK));
        } finally {
            pooled.rollback();
            pooled.setAutoCommit(autoCommit);
        }
    }

    static void unlock(TenantConnections tenant) throws SQLException {
        boolean released = tenant.withSystemConnection(
                sys -> queryBoolean(sys, "SELECT pg_advisory_unlock(?)", EXT_AI_ADVISORY_LOCK));
        if (!released) {
            log.warn("ext::ai builder lock was not held by the system connection when released");
        }
    }

    private static boolean queryBoolean(Connection conn, String sql, long key) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
