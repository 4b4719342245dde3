// Case: the proposed Flyway fix for PgBouncer transaction pooling switched to pg_try_advisory_xact_lock held by an open transaction on a dedicated "main" connection, while migrations run on a second connection.
// Source: https://github.com/flyway/flyway/pull/3394
// Kind: correct
// Expected: nothing to report: the transaction-level try-lock is taken inside BEGIN ... COMMIT on one connection (which PgBouncer keeps on one server connection for the whole transaction), its result is tested, and it ends at commit or rollback on every path.
package com.example.migrate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.Consumer;
import javax.sql.DataSource;

public class SchemaHistoryXactLock {

    private static final int MAX_ATTEMPTS = 50;
    private static final long RETRY_MILLIS = 1000L;

    private final DataSource dataSource;
    private final long lockKey;

    public SchemaHistoryXactLock(DataSource dataSource, long lockKey) {
        this.dataSource = dataSource;
        this.lockKey = lockKey;
    }

    /** Holds the lock in a transaction on the main connection; migrations get their own connection. */
    public void migrate(Consumer<Connection> migrations) throws SQLException, InterruptedException {
        try (Connection main = dataSource.getConnection();
             Connection migrationConnection = dataSource.getConnection()) {
            main.setAutoCommit(false);
            try {
                waitForLock(main);
                migrations.accept(migrationConnection);
                main.commit();                 // releases the transaction-level lock
            } catch (RuntimeException | SQLException | InterruptedException e) {
                main.rollback();               // also releases it
                throw e;
            }
        }
    }

    private void waitForLock(Connection main) throws SQLException, InterruptedException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            try (PreparedStatement ps = main.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
                ps.setLong(1, lockKey);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
            }
            Thread.sleep(RETRY_MILLIS);
        }
        throw new IllegalStateException("Could not acquire the schema history lock " + lockKey);
    }
}
