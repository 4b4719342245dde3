package com.example.flags.db;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/** Every replica checks the schema at start-up; the one that gets the lock migrates, the others wait their turn. */
@Component
public class StartupMigration implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(StartupMigration.class);

    /** Applies the pending SQL migrations, each in a transaction of its own, on connections of its own pool. */
    public interface SchemaMigrator {
        boolean requiresMigration() throws Exception;

        void migrate() throws Exception;
    }

    private final SchemaMigrator migrator;
    private final String url;
    private final String username;
    private final String password;
    private final boolean migrationLockEnabled;

    public StartupMigration(SchemaMigrator migrator,
                            @Value("${spring.datasource.url}") String url,
                            @Value("${spring.datasource.username}") String username,
                            @Value("${spring.datasource.password}") String password,
                            @Value("${unleash.migration-lock.enabled:true}") boolean migrationLockEnabled) {
        this.migrator = migrator;
        this.url = url;
        this.username = username;
        this.password = password;
        this.migrationLockEnabled = migrationLockEnabled;
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        try {
            if (!migrator.requiresMigration()) {
                log.info("DB migration: no migration needed");
                return;
            }
            log.info("DB migration: start");
            if (migrationLockEnabled) {
                log.info("Running migration with lock");
                DbLock lock = new DbLock(url, username, password,
                        DbLock.DEFAULT_LOCK_KEY, DbLock.DEFAULT_TIMEOUT, DbLock.DEFAULT_LOCK_TIMEOUT);
                lock.withLock(() -> {
                    migrator.migrate();
                    return null;
                });
            } else {
                log.info("Running migration without lock");
                migrator.migrate();
            }
            log.info("DB migration: end");
        } catch (Exception e) {
            log.error("Failed to migrate db", e);
            throw e;
        }
    }
}
