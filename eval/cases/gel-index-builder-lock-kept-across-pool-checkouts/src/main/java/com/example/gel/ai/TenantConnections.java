package com.example.gel.ai;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The PostgreSQL connections of one tenant: a small pool per database, shared by client queries and the
 * tenant's background tasks.
 */
public final class TenantConnections implements AutoCloseable {

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final int poolSizePerDatabase;
    private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();

    public TenantConnections(String host, int port, String user, String password, int poolSizePerDatabase) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.poolSizePerDatabase = poolSizePerDatabase;
    }

    /** A connection of the database's pool; closing it gives it back to the pool. */
    public Connection borrow(String dbname) throws SQLException {
        return pools.computeIfAbsent(dbname, this::newPool).getConnection();
    }

    private HikariDataSource newPool(String dbname) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://" + host + ":" + port + "/" + dbname);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(poolSizePerDatabase);
        config.setPoolName("tenant-" + dbname);
        return new HikariDataSource(config);
    }

    @Override
    public void close() {
        pools.values().forEach(HikariDataSource::close);
        pools.clear();
    }
}
