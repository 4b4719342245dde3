package com.example.manager;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** The manager's connection pool and the database helpers built on it. */
public class Database implements AutoCloseable {

    /** Advisory-lock ids of the global timers; one per timer, unique across the manager. */
    public static final long LOCKID_SCHEDULE_TIMER = 191L;
    public static final long LOCKID_PREPARE_TIMER = 192L;
    public static final long LOCKID_IDLE_CHECK_TIMER = 196L;

    private final HikariDataSource dataSource;

    public Database(String jdbcUrl, String user, String password) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(72);
        // a waiting pg_advisory_lock gives up after 30 s with SQLSTATE 55P03
        config.addDataSourceProperty("options", "-c lock_timeout=30000");
        this.dataSource = new HikariDataSource(config);
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * A scope that holds the session-level advisory lock {@code lockId} between {@link AdvisoryLockScope#open()} and
     * {@link AdvisoryLockScope#close()}. The lock belongs to the session that took it, so the scope keeps that one
     * pooled connection from open to close and unlocks on it before handing it back.
     */
    public AdvisoryLockScope advisoryLock(long lockId) {
        return new AdvisoryLockScope(lockId);
    }

    public final class AdvisoryLockScope implements AutoCloseable {

        private final long lockId;
        private Connection lockConn;

        private AdvisoryLockScope(long lockId) {
            this.lockId = lockId;
        }

        /** Waits for the lock (up to lock_timeout, then SQLException with SQLSTATE 55P03). */
        public void open() throws SQLException {
            Connection conn = dataSource.getConnection();
            try (Statement st = conn.createStatement()) {
                st.execute("SELECT pg_advisory_lock(" + lockId + ")");
            } catch (SQLException e) {
                conn.close();
                throw e;
            }
            lockConn = conn;
        }

        /** Unlocks and returns the connection to the pool; does nothing for a scope that holds no lock. */
        @Override
        public void close() throws SQLException {
            if (lockConn == null) {
                return;
            }
            try (Statement st = lockConn.createStatement()) {
                st.execute("SELECT pg_advisory_unlock(" + lockId + ")");
            } finally {
                lockConn.close();
                lockConn = null;
            }
        }
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
