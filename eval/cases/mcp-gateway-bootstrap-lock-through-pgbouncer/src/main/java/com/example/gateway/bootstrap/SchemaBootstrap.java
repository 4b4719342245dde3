// Case: mcp-context-forge's bootstrap serialised replica start-up with a session-level pg_try_advisory_lock retried with backoff, but the gateway reaches PostgreSQL through PgBouncer with POOL_MODE=transaction: the lock was left on whichever backend ran it, the unlock landed elsewhere, and later replicas spun in the retry loop until they gave up.
// Source: https://github.com/IBM/mcp-context-forge/pull/4444
// Kind: bug
// Expected: session-level lock and unlock through a transaction-mode PgBouncer (docker-compose.yml, the JDBC URL on port 6432): each autocommit statement may run on another server connection, so the lock stays orphaned on a pooled backend, the unlock in finally returns false (unchecked) and other replicas never get the key (F10). Take the lock over a direct connection, or use pg_advisory_xact_lock inside one transaction.
package com.example.gateway.bootstrap;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

@Component
public class SchemaBootstrap implements ApplicationRunner {

    private static final long MIGRATION_LOCK_ID = 42_424_242_424_242L;
    private static final int MAX_ATTEMPTS = 60;

    private final DataSource dataSource;
    private final AdminBootstrap adminBootstrap;

    public SchemaBootstrap(DataSource dataSource, AdminBootstrap adminBootstrap) {
        this.dataSource = dataSource;
        this.adminBootstrap = adminBootstrap;
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        try (Connection conn = dataSource.getConnection()) {
            acquireMigrationLock(conn);
            try {
                Flyway.configure().dataSource(dataSource).load().migrate();
                adminBootstrap.ensureAdminUser(conn);
                adminBootstrap.ensureDefaultRoles(conn);
            } finally {
                try (Statement st = conn.createStatement()) {
                    st.execute("SELECT pg_advisory_unlock(" + MIGRATION_LOCK_ID + ")"); // want: session-lock-under-transaction-pooling
                }
            }
        }
    }

    private void acquireMigrationLock(Connection conn) throws SQLException, InterruptedException {
        double delay = 1.0;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: session-lock-under-transaction-pooling
                ps.setLong(1, MIGRATION_LOCK_ID);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
            }
            double jitter = delay * ThreadLocalRandom.current().nextDouble(-0.1, 0.1);
            Thread.sleep((long) ((delay + jitter) * 1000));
            delay = Math.min(delay * 1.5, 10.0);
        }
        throw new IllegalStateException("Failed to acquire the migration lock after " + MAX_ATTEMPTS + " attempts");
    }
}
