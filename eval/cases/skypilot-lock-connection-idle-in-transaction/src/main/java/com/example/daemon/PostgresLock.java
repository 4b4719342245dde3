// Case: SkyPilot's PostgresLock borrowed a pooled connection for the whole time it held a session-level advisory lock, but left that connection in the driver's transactional mode: the first pg_try_advisory_lock opened a transaction nobody committed, so each lock holder (daemon leader locks for the whole process life, waiters while they poll) showed as "idle in transaction", and idle_in_transaction_session_timeout could not be enabled without killing lock holders and silently dropping their locks.
// Source: https://github.com/skypilot-org/skypilot/pull/10251
// Kind: bug
// Expected: the lock's connection comes from a pool configured with auto-commit off, and nothing ever commits on it: the session sits idle in transaction for as long as the lock is held, hiding real stuck transactions, and a server-side idle_in_transaction_session_timeout ends the session and releases the lock (F1) while this process still believes it leads. No rule describes a lock held through an open, idle transaction. Run the lock statements in auto-commit on that connection.
package com.example.daemon;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

/** A session-level lock that keeps its own pooled connection while held. */
public final class PostgresLock implements AutoCloseable {

    private final DataSource pool;
    private final long key;
    private Connection connection;

    public PostgresLock(DataSource pool, long key) {
        this.pool = pool;
        this.key = key;
    }

    /** Polls until the lock is taken or the timeout passes; false on timeout. */
    public boolean acquire(Duration timeout) throws SQLException, InterruptedException {
        Connection conn = pool.getConnection();     // auto-commit off, as the pool hands it out
        Instant deadline = Instant.now().plus(timeout);
        try {
            while (true) {
                try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: none
                    ps.setLong(1, key);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next() && rs.getBoolean(1)) {
                            connection = conn;
                            return true;
                        }
                    }
                }
                if (Instant.now().isAfter(deadline)) {
                    conn.close();
                    return false;
                }
                Thread.sleep(200L);
            }
        } catch (SQLException | RuntimeException | InterruptedException e) {
            conn.close();
            throw e;
        }
    }

    @Override
    public void close() throws SQLException {
        if (connection == null) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!(rs.next() && rs.getBoolean(1))) {
                    throw new IllegalStateException("lock " + key + " was no longer held by this session");
                }
            }
        } finally {
            connection.close();
            connection = null;
        }
    }
}
