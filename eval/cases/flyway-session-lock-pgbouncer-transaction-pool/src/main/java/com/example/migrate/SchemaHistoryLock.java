// Case: Flyway's PostgreSQL schema-history lock used a session-level pg_try_advisory_lock/pg_advisory_unlock pair; through PgBouncer in transaction pooling, nodes starting together hung until "Number of retries exceeded while attempting to acquire PostgreSQL advisory lock".
// Source: https://github.com/flyway/flyway/issues/2895
// Kind: bug
// Expected: the session-level lock and its unlock run as separate autocommit statements through PgBouncer (pool_mode = transaction): the lock stays on whatever server connection ran it, the unlock lands on another backend and returns false unnoticed, and other nodes spin until they give up; use pg_try_advisory_xact_lock inside a transaction or a direct connection.
package com.example.migrate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import javax.sql.DataSource;

public class SchemaHistoryLock {

    private static final int MAX_ATTEMPTS = 50;
    private static final long RETRY_MILLIS = 1000L;

    private final DataSource dataSource;   // spring.datasource.url points at PgBouncer, see application.properties
    private final long lockKey;

    public SchemaHistoryLock(DataSource dataSource, long lockKey) {
        this.dataSource = dataSource;
        this.lockKey = lockKey;
    }

    public <T> T runLocked(Callable<T> migrations) throws Exception {
        try (Connection con = dataSource.getConnection()) {
            acquire(con);
            try {
                return migrations.call();
            } finally {
                try (PreparedStatement ps = con.prepareStatement("SELECT pg_advisory_unlock(?)")) { // want: session-lock-under-transaction-pooling|try-lock-result-ignored
                    ps.setLong(1, lockKey);
                    ps.execute();
                }
            }
        }
    }

    private void acquire(Connection con) throws SQLException, InterruptedException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            try (PreparedStatement ps = con.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: session-lock-under-transaction-pooling
                ps.setLong(1, lockKey);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
            }
            Thread.sleep(RETRY_MILLIS);
        }
        throw new IllegalStateException(
                "Number of retries exceeded while attempting to acquire PostgreSQL advisory lock " + lockKey);
    }
}
