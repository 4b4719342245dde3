package com.example.workflow;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.PoolOptions;

/** Builds the lock service from configuration; the lock pool defaults to the query pool. */
public final class WorkflowLockConfig {

    private WorkflowLockConfig() {
    }

    public static RunLockService runLockService(Vertx vertx, PgPool queryPool, String lockDbUri, long lockTimeoutMs) {
        PgPool lockPool = queryPool;
        if (lockDbUri != null && !lockDbUri.isBlank()) {
            lockPool = PgPool.pool(vertx, PgConnectOptions.fromUri(lockDbUri), new PoolOptions().setMaxSize(20));
        }
        return new RunLockService(lockPool, lockTimeoutMs);
    }
}
