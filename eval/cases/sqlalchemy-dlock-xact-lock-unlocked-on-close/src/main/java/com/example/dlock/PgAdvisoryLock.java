// Case: sqlalchemy-dlock's PostgreSQL lock, used as a context manager with xact=True, released on exit by calling pg_advisory_unlock on a key it had taken with pg_advisory_xact_lock; PostgreSQL answered with "you don't own a lock of type ExclusiveLock" on every use.
// Source: https://github.com/tanbro/sqlalchemy-dlock/issues/4
// Kind: bug
// Expected: close() always runs the session-level unlock, also for a key taken with pg_advisory_xact_lock: a transaction-level lock cannot be released early (F2), so the unlock returns false with a WARNING in the server log on every transactional use, and a caller reading the lock as released at the end of the block is wrong (it lasts to commit). Release only session-level locks; make close() a no-op for the transactional mode.
package com.example.dlock;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A named-key advisory lock on a caller's connection, usable in try-with-resources. */
public final class PgAdvisoryLock implements AutoCloseable {

    private final Connection connection;
    private final long key;
    private final boolean xact;
    private boolean acquired;

    public PgAdvisoryLock(Connection connection, long key, boolean xact) {
        this.connection = connection;
        this.key = key;
        this.xact = xact;
    }

    public PgAdvisoryLock acquire() throws SQLException {
        String sql = xact ? "SELECT pg_advisory_xact_lock(?)" : "SELECT pg_advisory_lock(?)";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setLong(1, key);
            ps.executeQuery().close();
        }
        acquired = true;
        return this;
    }

    public boolean release() throws SQLException {
        if (!acquired) {
            return false;
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) { // want: unlock-mismatch
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                acquired = false;
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        release();
    }
}
