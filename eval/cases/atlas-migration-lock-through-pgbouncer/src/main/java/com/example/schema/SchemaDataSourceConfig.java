package com.example.schema;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One DataSource for the application and for its migrations alike. */
@Configuration
public class SchemaDataSourceConfig {

    @Bean
    public HikariDataSource dataSource(@Value("${app.datasource.url}") String url,
                                       @Value("${app.datasource.username}") String user) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setMaximumPoolSize(10);
        return new HikariDataSource(config);
    }
}
