// Case: pikku's fix holds the per-run workflow lock as a session-level pg_advisory_lock on a connection pinned from a dedicated lock pool, with lock_timeout set and reset around it, no open transaction, and the unlock (or, if that fails, termination of the backend) on the way out.
// Source: https://github.com/pikkujs/pikku/pull/1360
// Kind: correct
// Expected: nothing to report: lock and unlock run on the one connection pinned by withConnection, the wait is bounded by lock_timeout, the release runs whether the body succeeds or fails, and a failed release kills the session instead of returning a locked connection to the pool. The key is a 32-bit String hash of the run id, which a reviewer may question but which only costs an occasional extra wait between two concurrently running runs.
package com.example.workflow;

import io.vertx.core.Future;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.function.Supplier;

/** Serialises the orchestration of one workflow run across all workers. */
public class RunLockService {

    private final PgPool lockPool;       // a separate, small pool pointed straight at PostgreSQL
    private final long lockTimeoutMs;

    public RunLockService(PgPool lockPool, long lockTimeoutMs) {
        if (lockTimeoutMs <= 0) {
            throw new IllegalArgumentException("workflow.lock-timeout-ms must be positive");
        }
        this.lockPool = lockPool;
        this.lockTimeoutMs = lockTimeoutMs;
    }

    public <T> Future<T> withRunLock(String runId, Supplier<Future<T>> body) {
        long lockId = ("run:" + runId).hashCode();
        return lockPool.withConnection(conn ->
            conn.query("SET lock_timeout = " + lockTimeoutMs).execute()
                .compose(v -> conn.preparedQuery("SELECT pg_advisory_lock($1)").execute(Tuple.of(lockId))) // may: weak-lock-key-hash
                .compose(locked -> body.get()
                    .eventually(v -> releaseRunLock(conn, lockId)))
                .eventually(v -> conn.query("RESET lock_timeout").execute().otherwiseEmpty()));
    }

    /** Unlocks on the pinned connection; if that fails, ends the session so the lock cannot ride back into the pool. */
    private Future<Void> releaseRunLock(SqlConnection conn, long lockId) {
        return conn.preparedQuery("SELECT pg_advisory_unlock($1)").execute(Tuple.of(lockId))
            .<Void>mapEmpty()
            .recover(err -> conn.query("SELECT pg_terminate_backend(pg_backend_pid())").execute()
                .<Void>mapEmpty()
                .otherwiseEmpty());
    }
}
