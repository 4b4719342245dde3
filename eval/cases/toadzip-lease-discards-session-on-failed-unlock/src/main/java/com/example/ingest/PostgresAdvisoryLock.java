package com.example.ingest;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

public class PostgresAdvisoryLock {

    private final HikariDataSource pool;

    public PostgresAdvisoryLock(HikariDataSource pool) {
        this.pool = pool;
    }

    public Optional<Lease> tryAcquire(long key) throws SQLException {
        Connection conn = pool.getConnection();
        boolean acquired;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                acquired = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException | RuntimeException e) {
            discard(conn);                     // the lock may or may not be held: end the session
            throw e;
        }
        if (!acquired) {
            conn.close();                      // nothing held: the connection may go back
            return Optional.empty();
        }
        return Optional.of(new Lease(conn, key));
    }

    /** Ends the backend session, and with it every session lock, then frees the pool slot. */
    void discard(Connection conn) {
        try {
            conn.unwrap(Connection.class).abort(Runnable::run);
        } catch (SQLException alreadyBroken) {
        }
        pool.evictConnection(conn);
    }

    public final class Lease implements AutoCloseable {
        private final Connection conn;
        private final long key;
        private boolean closed;

        private Lease(Connection conn, long key) {
            this.conn = conn;
            this.key = key;
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            boolean released;
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                ps.setLong(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    released = rs.next() && rs.getBoolean(1);
                }
            } catch (SQLException e) {
                released = false;
            }
            if (!released) {
                discard(conn);
                return;
            }
            try {
                conn.close();                  // unlocked: back to the pool
            } catch (SQLException ignored) {
            }
        }
    }
}
