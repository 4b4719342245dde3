package com.example.search;

import io.r2dbc.spi.Connection;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Holds a session-level advisory lock and the pooled connection it lives on. */
public final class LockGuard {

    private final Connection conn;
    private final long key;

    LockGuard(Connection conn, long key) {
        this.conn = conn;
        this.key = key;
    }

    public Mono<Void> release() {
        Mono<Boolean> unlock = Flux.from(conn.createStatement("SELECT pg_advisory_unlock($1)").bind("$1", key).execute())
            .flatMap(result -> result.map((row, meta) -> row.get(0, Boolean.class)))
            .next();
        // The connection is in autocommit: the unlock only fails when the connection is broken,
        // and then the session, with its lock, is gone too.
        return unlock.onErrorResume(e -> Mono.just(false)).then(Mono.from(conn.close()));
    }
}
