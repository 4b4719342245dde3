// Case: CommCare's formplayer ran Flyway (session-level pg_try_advisory_lock / pg_advisory_unlock) through PgBouncer in transaction mode and saw migration locks left hanging; the fix gives migrations their own DataSource that connects to PostgreSQL directly, bypassing PgBouncer.
// Source: https://github.com/dimagi/commcare-cloud/pull/4466
// Kind: correct
// Expected: nothing to report: the application's pool goes through PgBouncer (transaction pooling), but the session-level migration lock is taken, used and released on one connection of the separate direct DataSource (port 5432), so its session really holds the lock; the try-lock and unlock results are both checked and the unlock is in finally.
package com.example.formplayer;

import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.flyway.FlywayDataSource;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

@Configuration
public class MigrationDataSourceConfig {

    /** Application traffic: through PgBouncer. */
    @Bean
    @Primary
    @ConfigurationProperties("spring.datasource")
    public DataSource dataSource() {
        return DataSourceBuilder.create().build();
    }

    /** Migrations and their advisory lock: straight to PostgreSQL, never through PgBouncer. */
    @Bean
    @FlywayDataSource
    @Qualifier("migrationDataSource")
    @ConfigurationProperties("formplayer.migration.datasource")
    public DataSource migrationDataSource() {
        return DataSourceBuilder.create().build();
    }
}
