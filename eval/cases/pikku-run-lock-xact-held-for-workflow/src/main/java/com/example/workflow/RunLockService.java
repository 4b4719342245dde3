// Case: pikku's Postgres workflow service held the per-run lock as pg_advisory_xact_lock inside a transaction that wrapped the whole workflow body; with lockTimeoutMs defaulting to 0 every redispatch of a busy run waited forever on its own pooled connection until the pool was gone.
// Source: https://github.com/pikkujs/pikku/pull/1360
// Kind: bug
// Expected: the blocking transaction-level lock waits without any lock_timeout in the default configuration (lockTimeoutMs = 0), and the transaction that holds it stays open, idle in transaction, for as long as the workflow body runs; every redispatch pins one pool connection while it waits. Bound the wait, and hold a session lock on a pinned connection without an open transaction.
package com.example.workflow;

import io.vertx.core.Future;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.function.Supplier;

/** Serialises the orchestration of one workflow run across all workers. */
public class RunLockService {

    private final PgPool lockPool;
    private final long lockTimeoutMs;   // 0 (the default) means: no timeout

    public RunLockService(PgPool lockPool, long lockTimeoutMs) {
        this.lockPool = lockPool;
        this.lockTimeoutMs = Math.max(0, lockTimeoutMs);
    }

    /** Runs the whole workflow body while holding the run's lock. */
    public <T> Future<T> withRunLock(String runId, Supplier<Future<T>> body) {
        long lockId = ("run:" + runId).hashCode();
        return lockPool.withTransaction(conn ->
            applyLockTimeout(conn)
                .compose(v -> conn.preparedQuery("SELECT pg_advisory_xact_lock($1)").execute(Tuple.of(lockId))) // want: blocking-lock-without-timeout // may: weak-lock-key-hash
                .compose(rows -> body.get()));   // the transaction stays open until the body settles
    }

    private Future<Void> applyLockTimeout(SqlConnection conn) {
        if (lockTimeoutMs == 0) {
            return Future.succeededFuture();
        }
        return conn.query("SET LOCAL lock_timeout = " + lockTimeoutMs).execute().mapEmpty();
    }
}
