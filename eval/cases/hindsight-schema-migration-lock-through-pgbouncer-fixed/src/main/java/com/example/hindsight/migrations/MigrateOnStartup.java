package com.example.hindsight.migrations;

import java.util.List;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** Every API and worker pod migrates public and the existing tenant schemas before it serves. */
@Component
public class MigrateOnStartup implements ApplicationRunner {

    private final SchemaMigrator migrator;
    private final JdbcTemplate jdbc;

    public MigrateOnStartup(SchemaMigrator migrator, JdbcTemplate jdbc) {
        this.migrator = migrator;
        this.jdbc = jdbc;
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        migrator.runMigrations("public");
        List<String> tenantSchemas = jdbc.queryForList(
                "SELECT schema_name FROM public.tenants WHERE active ORDER BY schema_name", String.class);
        for (String schema : tenantSchemas) {
            migrator.runMigrations(schema);
        }
    }
}
