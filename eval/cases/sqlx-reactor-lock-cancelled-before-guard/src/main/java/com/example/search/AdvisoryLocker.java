// Case: sqlx's PgAdvisoryLock::acquire was not cancel safe: when the acquiring future was dropped (here by try_join! after a sibling failed) the lock query could already have run, but no guard existed to unlock it, and the connection went back to the pool still holding the session lock. The same shape in Reactor over r2dbc-pool: the guard that releases the lock is only created after the lock statement completes, and a cancellation from the caller's Mono.zip or timeout returns the connection to the pool without unlocking.
// Source: https://github.com/transact-rs/sqlx/issues/4198
// Kind: bug
// Expected: acquire runs pg_advisory_lock on a pooled R2DBC connection and only then wraps the connection in a LockGuard. SearchReindexer subscribes to it inside Mono.zip with a settings lookup and under a timeout; when the lookup fails or the timeout fires while the lock statement is in flight, the cancellation closes the connection (back to the pool) with no unlock, while the server can still grant the lock: cancelling the subscriber does not cancel the statement on the server. The session lock then sits on an idle pooled connection (F1; as with JDBC, F13, closing a pooled connection keeps its session) and every other reindex of that key waits. A guard emitted to zip just before the sibling fails is dropped the same way. Unlock on the cancel and error paths of acquire before the connection goes back, and release a guard zip discards.
package com.example.search;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.spi.Connection;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

public class AdvisoryLocker {

    private final ConnectionPool pool;

    public AdvisoryLocker(ConnectionPool pool) {
        this.pool = pool;
    }

    /** Waits for the key on a connection borrowed from the pool; the guard owns that connection. */
    public Mono<LockGuard> acquire(long key) {
        return pool.create().flatMap((Connection conn) ->
            Flux.from(conn.createStatement("SELECT pg_advisory_lock($1)").bind("$1", key).execute()) // want: lock-without-finally-unlock
                .flatMap(result -> result.map((row, meta) -> Boolean.TRUE))
                .then(Mono.fromSupplier(() -> new LockGuard(conn, key)))
                .doOnCancel(() -> Mono.from(conn.close()).subscribe())           // back to the pool, lock and all
                .onErrorResume(e -> Mono.from(conn.close()).then(Mono.error(e))));
    }
}
