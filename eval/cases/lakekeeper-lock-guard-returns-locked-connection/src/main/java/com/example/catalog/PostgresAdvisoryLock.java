// Case: lakekeeper's Postgres advisory-lock guard took a session-level pg_try_advisory_lock on a connection borrowed from the pool and, when the guard was dropped, only handed that connection back to the pool: no unlock ran, so the backend session behind it kept the lock.
// Source: https://github.com/lakekeeper/lakekeeper/pull/1789
// Kind: bug
// Expected: the session-level try-lock is taken on a pooled connection whose only release is close(), which returns it to the pool with the session (and the lock) still alive (F13): a later tryAcquire on another pooled connection sees the key taken until the pool retires that connection, and one on the same connection re-enters it (F4). Unlock the key on that connection before closing it, or use a transaction-level lock held by an open transaction.
package com.example.catalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/** Held while a warehouse's authorization tuples are reconciled; closing the guard is meant to release it. */
public final class PostgresAdvisoryLock implements AutoCloseable {

    private final Connection connection;
    private final long key;

    private PostgresAdvisoryLock(Connection connection, long key) {
        this.connection = connection;
        this.key = key;
    }

    /** Empty when another replica is reconciling the same warehouse. */
    public static Optional<PostgresAdvisoryLock> tryAcquire(DataSource pool, long key) throws SQLException {
        Connection connection = pool.getConnection();
        boolean acquired;
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: lock-without-finally-unlock
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                acquired = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        if (!acquired) {
            connection.close();
            return Optional.empty();
        }
        return Optional.of(new PostgresAdvisoryLock(connection, key));
    }

    public long key() {
        return key;
    }

    /** Gives the connection back; the comment in the original said this "drops the lock". */
    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
