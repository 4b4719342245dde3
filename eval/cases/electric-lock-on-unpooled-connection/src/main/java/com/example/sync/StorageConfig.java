package com.example.sync;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Queries that serve shapes go through the pooler; they take no advisory locks. */
@Configuration
public class StorageConfig {

    @Bean
    public HikariDataSource pooledDataSource(@Value("${electric.pooled-database-url}") String url,
                                             @Value("${electric.db-user}") String user) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setMaximumPoolSize(20);
        return new HikariDataSource(config);
    }
}
