// Case: mockforge's registry server took its migration pg_advisory_lock and later pg_advisory_unlock through the sqlx pool, so the two statements could run on different pooled sessions; the unlock returned false unnoticed, the lock stayed on an idle pooled connection and the next deploy hung at "Acquiring advisory lock"
// Source: https://github.com/SaaSy-Solutions/mockforge/pull/968
// Kind: bug
// Expected: the session-level pg_advisory_lock and the unlock each borrow an arbitrary connection from the pool (JdbcTemplate, no transaction): the lock stays on whichever pooled session ran it (F1, F13) and the unlock, on another session, returns false, which the code drops; pin one Connection for lock, migration and unlock (ConnectionCallback) or use a dedicated connection.
package com.example.registry;

import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
public class MigrationGate implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(MigrationGate.class);
    private static final long MIGRATION_LOCK_ID = 8_675_309L;

    private final JdbcTemplate jdbc;    // backed by the application's HikariCP pool
    private final Flyway flyway;

    public MigrationGate(JdbcTemplate jdbc, Flyway flyway) {
        this.jdbc = jdbc;
        this.flyway = flyway;
    }

    @Override
    public void run(ApplicationArguments args) {
        log.info("Acquiring advisory lock for database migrations...");
        jdbc.execute("SELECT pg_advisory_lock(" + MIGRATION_LOCK_ID + ")"); // want: unpinned-session-lock
        try {
            flyway.migrate();
            log.info("Migrations complete");
        } finally {
            jdbc.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, MIGRATION_LOCK_ID); // want: try-lock-result-ignored|unpinned-session-lock
        }
    }
}
