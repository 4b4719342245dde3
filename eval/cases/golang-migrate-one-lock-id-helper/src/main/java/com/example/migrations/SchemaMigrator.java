package com.example.migrations;

import java.sql.SQLException;
import java.util.List;

public class SchemaMigrator {

    private final PostgresMigrationDriver driver;

    public SchemaMigrator(PostgresMigrationDriver driver) {
        this.driver = driver;
    }

    public void up(List<Runnable> pending) throws SQLException {
        driver.lock();
        try {
            for (Runnable migration : pending) {
                migration.run();
            }
        } finally {
            driver.unlock();
        }
    }
}
