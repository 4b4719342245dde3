package com.example.nango.clickhouse;

import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Every server pod migrates the ClickHouse databases when it starts; rolling deploys and crash loops
 * start several pods at once, hence the advisory lock in {@link ClickHouseMigrator}.
 */
@Component
public class MigrationsOnStartup implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(MigrationsOnStartup.class);

    private final ClickHouseMigrator migrator;
    private final Path migrationsRoot;

    public MigrationsOnStartup(ClickHouseMigrator migrator,
                               @Value("${nango.clickhouse.migrations-dir:/app/clickhouse-migrations}") String migrationsRoot) {
        this.migrator = migrator;
        this.migrationsRoot = Path.of(migrationsRoot);
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        for (String database : new String[] {"nango_audit", "nango_usage"}) {
            migrator.migrate(database, migrationsRoot.resolve(database));
            log.info("ClickHouse database {} is up to date", database);
        }
    }
}
