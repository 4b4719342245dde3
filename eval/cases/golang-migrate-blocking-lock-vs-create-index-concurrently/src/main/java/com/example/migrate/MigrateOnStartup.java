package com.example.migrate;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.stereotype.Component;

/** Every replica of the service (the Deployment runs three) migrates the schema when it starts. */
@Component
public class MigrateOnStartup implements ApplicationRunner {

    private final AdvisoryLockMigrator migrator;

    public MigrateOnStartup(AdvisoryLockMigrator migrator) {
        this.migrator = migrator;
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        Resource[] files = new PathMatchingResourcePatternResolver().getResources("classpath:db/migration/*.sql");
        List<Resource> ordered = Arrays.stream(files)
                .sorted(Comparator.comparing(Resource::getFilename))
                .toList();
        migrator.up(ordered);
    }
}
