package com.example.workflow.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/** Runs work under a transaction-level advisory lock, on one pooled connection. */
public class DbLockService {

    @FunctionalInterface
    public interface LockedWork<T> {
        T run(Connection connection) throws SQLException;
    }

    private final DataSource dataSource;

    public DbLockService(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public <T> T withLock(DbLock lock, int subKey, boolean waitIndefinitely, LockedWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                if (waitIndefinitely) {
                    // the waiter blocks inside one statement, and the holder idles between migration steps
                    try (Statement st = connection.createStatement()) {
                        st.execute("SET LOCAL statement_timeout = 0");
                        st.execute("SET LOCAL lock_timeout = 0");
                        st.execute("SET LOCAL idle_in_transaction_session_timeout = 0");
                    }
                }
                try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
                    ps.setInt(1, lock.namespace());
                    ps.setInt(2, subKey);
                    ps.execute();
                }
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("locked work failed: " + lock, e);
        }
    }
}
