// Case: node-pg-migrate added an advisoryLockMode option: 'fail' (default) keeps pg_try_advisory_lock and aborts when another runner holds the lock, 'wait' uses pg_advisory_lock and queues behind it; lock, migrations and unlock stay on one client
// Source: https://github.com/salsita/node-pg-migrate/pull/1648
// Kind: correct
// Expected: correct: one pooled SqlConnection is pinned for lock, migrations and unlock; the try-lock result is tested, each migration commits or is rolled back before the unlock, the unlock result is checked, and the connection goes back to the pool only after the unlock. The unbounded wait in WAIT mode is the option's purpose (a migration that must run alone).
package com.example.migrations;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.List;

public class MigrationRunner {

    public enum LockMode { FAIL, WAIT }

    private static final long MIGRATION_LOCK_ID = 7_241_865_325_823_964L;

    private final Pool pool;
    private final LockMode mode;

    public MigrationRunner(Pool pool, LockMode mode) {
        this.pool = pool;
        this.mode = mode;
    }

    public Future<Void> up(List<Migration> pending) {
        return pool.getConnection().compose(conn ->
                acquire(conn)
                        .compose(locked -> applyAll(conn, pending)
                                .eventually(v -> release(conn)))
                        .onComplete(ar -> conn.close()));
    }

    private Future<Void> acquire(SqlConnection conn) {
        if (mode == LockMode.WAIT) {
            return conn.preparedQuery("SELECT pg_advisory_lock($1)") // may: blocking-lock-without-timeout
                    .execute(Tuple.of(MIGRATION_LOCK_ID))
                    .mapEmpty();
        }
        return conn.preparedQuery("SELECT pg_try_advisory_lock($1) AS locked")
                .execute(Tuple.of(MIGRATION_LOCK_ID))
                .compose(rows -> {
                    Row row = rows.iterator().next();
                    if (!Boolean.TRUE.equals(row.getBoolean("locked"))) {
                        return Future.failedFuture(new IllegalStateException("Another migration is already running"));
                    }
                    return Future.succeededFuture();
                });
    }

    private Future<Void> applyAll(SqlConnection conn, List<Migration> pending) {
        Future<Void> chain = Future.succeededFuture();
        for (Migration m : pending) {
            chain = chain.compose(v -> applyOne(conn, m));
        }
        return chain;
    }

    private Future<Void> applyOne(SqlConnection conn, Migration m) {
        return conn.begin().compose(tx -> conn.query(m.sql()).execute()
                .compose(r -> conn.preparedQuery("INSERT INTO pgmigrations(name, run_on) VALUES ($1, now())")
                        .execute(Tuple.of(m.name())))
                .compose(r -> tx.commit())
                .recover(err -> tx.rollback().transform(x -> Future.<Void>failedFuture(err))));
    }

    private Future<Void> release(SqlConnection conn) {
        return conn.preparedQuery("SELECT pg_advisory_unlock($1) AS unlocked")
                .execute(Tuple.of(MIGRATION_LOCK_ID))
                .compose(rows -> Boolean.TRUE.equals(rows.iterator().next().getBoolean("unlocked"))
                        ? Future.<Void>succeededFuture()
                        : Future.<Void>failedFuture(new IllegalStateException("Failed to release migration lock")));
    }

    public record Migration(String name, String sql) {}
}
