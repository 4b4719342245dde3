package com.example.gel.ai;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The PostgreSQL connections of one tenant: a small pool per database, shared by client queries and the
 * tenant's background tasks, and one system connection of its own that is never pooled.
 */
public final class TenantConnections implements AutoCloseable {

    @FunctionalInterface
    public interface SqlFunction<T> {
        T apply(Connection conn) throws SQLException;
    }

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final String systemDatabase;
    private final int poolSizePerDatabase;
    private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();
    private final ReentrantLock systemMutex = new ReentrantLock();
    private Connection systemConnection;

    public TenantConnections(String host, int port, String user, String password, String systemDatabase,
            int poolSizePerDatabase) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.systemDatabase = systemDatabase;
        this.poolSizePerDatabase = poolSizePerDatabase;
    }

    /** A connection of the database's pool; closing it gives it back to the pool. */
    public Connection borrow(String dbname) throws SQLException {
        return pools.computeIfAbsent(dbname, this::newPool).getConnection();
    }

    /** Runs fn on the tenant's system connection, one caller at a time; the connection stays open afterwards. */
    public <T> T withSystemConnection(SqlFunction<T> fn) throws SQLException {
        systemMutex.lock();
        try {
            if (systemConnection == null || systemConnection.isClosed()) {
                systemConnection = DriverManager.getConnection(url(systemDatabase), user, password);
            }
            return fn.apply(systemConnection);
        } finally {
            systemMutex.unlock();
        }
    }

    private String url(String dbname) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + dbname;
    }

    private HikariDataSource newPool(String dbname) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url(dbname));
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(poolSizePerDatabase);
        config.setPoolName("tenant-" + dbname);
        return new HikariDataSource(config);
    }

    @Override
    public void close() throws SQLException {
        pools.values().forEach(HikariDataSource::close);
        pools.clear();
        systemMutex.lock();
        try {
            if (systemConnection != null) {
                systemConnection.close();
            }
        } finally {
            systemMutex.unlock();
        }
    }
}
