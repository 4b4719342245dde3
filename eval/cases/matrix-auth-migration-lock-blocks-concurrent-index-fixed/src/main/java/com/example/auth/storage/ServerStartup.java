package com.example.auth.storage;

import java.sql.Connection;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Runs the pending database migrations when the server starts, as every replica of the deployment does
 * (the Helm chart runs two or more), unless the server was started with migrations switched off and
 * an operator runs them separately.
 */
@Component
public class ServerStartup implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(ServerStartup.class);

    private final DataSource dataSource;
    private final DatabaseMigrator migrator = new DatabaseMigrator();
    private final boolean migrateOnStart;

    public ServerStartup(DataSource dataSource, @Value("${auth.database.migrate-on-start:true}") boolean migrateOnStart) {
        this.dataSource = dataSource;
        this.migrateOnStart = migrateOnStart;
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        if (!migrateOnStart) {
            log.info("Skipping database migrations (auth.database.migrate-on-start=false)");
            return;
        }
        log.info("Running pending database migrations");
        try (Connection conn = dataSource.getConnection()) {
            migrator.migrate(conn);
        }
        log.info("Database is up to date");
    }
}
