package com.example.flowserver.db;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** Runs in every worker process before it starts serving flows; a worker whose schema is not current must not serve. */
@Component
@Order(0)
public class WorkerBootstrap implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(WorkerBootstrap.class);

    private final SchemaMigrator migrator;

    public WorkerBootstrap(SchemaMigrator migrator) {
        this.migrator = migrator;
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        log.info("Checking database schema before serving");
        try {
            migrator.migrate();
        } catch (Exception e) {
            log.error("Schema migration failed; this worker will not serve flows", e);
            throw e;
        }
        log.info("Database schema is current; worker ready");
    }
}
