package com.example.ledger.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Arrays;
import java.util.Comparator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.stereotype.Component;

/** Every instance runs the pending migrations when it boots; the migrator's lock keeps them from running twice. */
@Component
public class BootMigrations implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(BootMigrations.class);

    private final String url;
    private final String username;
    private final String password;

    public BootMigrations(@Value("${spring.datasource.url}") String url,
                          @Value("${spring.datasource.username}") String username,
                          @Value("${spring.datasource.password}") String password) {
        this.url = url;
        this.username = username;
        this.password = password;
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        try (Connection conn = DriverManager.getConnection(url, username, password)) {
            Migrator migrator = new Migrator(conn, "public.schema_version");
            for (Resource file : migrationFiles()) {
                migrator.appendMigration(file.getFilename(),
                        new String(file.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            int before = migrator.currentVersion();
            migrator.migrate();
            log.info("schema at version {} (was {})", migrator.currentVersion(), before);
        }
    }

    private static Resource[] migrationFiles() throws IOException {
        Resource[] files = new PathMatchingResourcePatternResolver().getResources("classpath:migrations/*.sql");
        Arrays.sort(files, Comparator.comparing(Resource::getFilename));
        return files;
    }
}
