// Case: the fix asked for in lakekeeper's review: the advisory-lock guard keeps its key and, when closed, runs pg_advisory_unlock on the very connection that took the lock before that connection goes back to the pool.
// Source: https://github.com/lakekeeper/lakekeeper/pull/1789
// Kind: correct
// Expected: nothing to report: the session-level try-lock's result is tested, the guard pins the connection that holds it for the guard's whole life, and close() unlocks the key on that connection (checking the result) before returning it to the pool, in a finally so a failed unlock still gives the connection back.
package com.example.catalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/** Held while a warehouse's authorization tuples are reconciled; closing the guard releases it. */
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
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
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

    @Override
    public void close() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!(rs.next() && rs.getBoolean(1))) {
                    throw new IllegalStateException("advisory lock " + key + " was not held by this session");
                }
            }
        } finally {
            connection.close();
        }
    }
}
