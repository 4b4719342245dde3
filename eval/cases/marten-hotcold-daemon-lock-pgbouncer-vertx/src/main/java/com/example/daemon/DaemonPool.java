package com.example.daemon;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/** Builds the daemon's pool from application.properties (host and port point at PgBouncer). */
public final class DaemonPool {

    private DaemonPool() {
    }

    public static Pool create(Vertx vertx, String host, int port, String database, String user, String password) {
        PgConnectOptions connect = new PgConnectOptions()
                .setHost(host)
                .setPort(port)
                .setDatabase(database)
                .setUser(user)
                .setPassword(password);
        return Pool.pool(vertx, connect, new PoolOptions().setMaxSize(4));
    }
}
