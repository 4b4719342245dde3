package com.example.migrations;

import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/** Every instance of the order service brings the schema up to date before it takes traffic (the deployment runs three). */
@Component
public class MigrateOnStartup implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(MigrateOnStartup.class);

    private final Migrator migrator;

    public MigrateOnStartup(@Value("${spring.datasource.url}") String url,
                            @Value("${spring.datasource.username}") String user,
                            @Value("${spring.datasource.password}") String password) {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        this.migrator = new Migrator(url, props, "db/migrations");
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        log.info("Schema up to date, {} migrations applied", migrator.migrate().size());
    }
}
