// Case: a hot/cold projection daemon elects its leader with a session-level try-lock on its own connection, but the database sits behind PgBouncer in transaction mode
// Source: https://github.com/JasperFx/marten/issues/3988
// Kind: bug
// Expected: every statement may run on a different server connection, so the lock stays on a pooled backend: other nodes multiplexed onto it
//   get true by re-entrancy and all of them run the subscription; the release may run elsewhere and return false, leaving the key stranded.
package com.example.daemon;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

/**
 * Hot/cold coordination: every node polls for the daemon lock; the node that holds it runs the
 * asynchronous projections and subscriptions, the others stay idle. The lock is meant to live as
 * long as the node's dedicated connection.
 */
public class DaemonLeadership {

    private final Pool pool;
    private final DaemonOptions options;
    private SqlConnection lockConnection;
    private boolean leader;

    public DaemonLeadership(Pool pool, DaemonOptions options) {
        this.pool = pool;
        this.options = options;
    }

    /** Called on every tick of the coordinator; true while this node is the leader. */
    public Future<Boolean> tryAttainLeadership() {
        if (leader) {
            return Future.succeededFuture(true);
        }
        return dedicatedConnection()
                .compose(conn -> conn.preparedQuery("SELECT pg_try_advisory_lock($1)") // want: session-lock-under-transaction-pooling
                        .execute(Tuple.of(options.daemonLockId())))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    leader = row.getBoolean(0);
                    return leader;
                });
    }

    /** Called when the node shuts down or steps back. */
    public Future<Void> releaseLeadership() {
        if (!leader) {
            return Future.succeededFuture();
        }
        return lockConnection.preparedQuery("SELECT pg_advisory_unlock($1)") // want: session-lock-under-transaction-pooling
                .execute(Tuple.of(options.daemonLockId()))
                .map(rows -> rows.iterator().next().getBoolean(0))
                .compose(released -> {
                    leader = false;
                    return released
                            ? Future.<Void>succeededFuture()
                            : Future.<Void>failedFuture(new IllegalStateException("daemon lock was not held"));
                })
                .eventually(() -> lockConnection.close());
    }

    private Future<SqlConnection> dedicatedConnection() {
        if (lockConnection != null) {
            return Future.succeededFuture(lockConnection);
        }
        return pool.getConnection().onSuccess(conn -> lockConnection = conn);
    }
}
