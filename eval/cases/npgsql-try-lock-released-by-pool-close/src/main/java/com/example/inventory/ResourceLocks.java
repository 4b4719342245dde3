// Case: a user of Npgsql took pg_try_advisory_lock on a pooled connection and "released" it by disposing the connection; with pooling on, the physical session went back to the pool still holding the lock, so the next try-lock from another caller failed (it worked only with Pooling=false or with an xact lock).
// Source: https://github.com/npgsql/npgsql/issues/5592
// Kind: bug
// Expected: the session-level try-lock is taken on a HikariCP connection and the handle's close() only returns that connection to the pool; no pg_advisory_unlock ever runs, so the idle pooled session keeps the lock (F13, F1) and later tryAcquire calls for the same key fail or, on the same pooled connection, succeed by re-entrancy. Unlock in the handle before closing, or use pg_try_advisory_xact_lock in a transaction.
package com.example.inventory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

public class ResourceLocks {

    /** Releasing the lock means closing the connection that holds it. */
    public interface Held extends AutoCloseable {
        @Override
        void close() throws SQLException;
    }

    private final DataSource dataSource;   // HikariDataSource, see application.properties

    public ResourceLocks(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public Optional<Held> tryAcquire(long resourceKey) throws SQLException {
        Connection con = dataSource.getConnection();
        boolean keepOpen = false;
        try (PreparedStatement ps = con.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: lock-without-finally-unlock
            ps.setLong(1, resourceKey);
            try (ResultSet rs = ps.executeQuery()) {
                keepOpen = rs.next() && rs.getBoolean(1);
            }
            return keepOpen ? Optional.of(con::close) : Optional.empty();
        } finally {
            if (!keepOpen) {
                con.close();
            }
        }
    }
}
