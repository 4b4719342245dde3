package com.example.workflow;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.PoolOptions;

/** The run lock gets its own pool, so held locks never starve request queries. */
public final class WorkflowLockConfig {

    private WorkflowLockConfig() {
    }

    public static RunLockService runLockService(Vertx vertx, String lockDbUri, int maxConcurrentRuns, long lockTimeoutMs) {
        PgPool lockPool = PgPool.pool(vertx, PgConnectOptions.fromUri(lockDbUri),
            new PoolOptions().setMaxSize(maxConcurrentRuns + 2).setName("workflow-run-locks"));
        return new RunLockService(lockPool, lockTimeoutMs);
    }
}
