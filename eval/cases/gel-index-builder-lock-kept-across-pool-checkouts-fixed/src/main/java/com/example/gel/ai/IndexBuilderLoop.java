// Case: the Gel fix: the index builder's long-held lock is a session-level lock on the tenant's one system connection, which never goes back to a pool, taken after a transaction-level guard lock and a pg_locks check that keep two tasks sharing that session from both entering, and released on that same connection.
// Source: https://github.com/geldata/gel/pull/8320
// Kind: correct
// Expected: nothing to report. The loop still borrows a pooled connection per iteration for its queries, but the lock no longer lives there: ExtAiLock.tryLock opens a transaction on the pooled connection, takes pg_try_advisory_xact_lock on the guard key and reads its boolean, then, on the system connection and under the tenant's mutex, checks pg_locks that no session holds the key (session locks re-enter, F4, and every task of the tenant shares that session) and takes pg_try_advisory_lock, whose boolean it returns; the finally rolls the transaction back, which ends the guard lock (F2) and leaves the session lock in place. The session lock is held across iterations on a connection that stays open for the tenant's life and is released with pg_advisory_unlock on that same connection when no work is ready, when the work fails, and when the loop stops (F1); the unlock's result is read.
package com.example.gel.ai;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The per-database background task that keeps the embeddings of ext::ai indexes up to date. */
public final class IndexBuilderLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(IndexBuilderLoop.class);

    public record ActiveModel(long id, String name, String provider) {
    }

    /** What one round of work left behind: more ready at once, or when to look again (null: after the naptime). */
    public record WorkOutcome(boolean readyAndUrgent, Duration retryAfter) {
        static final WorkOutcome IDLE = new WorkOutcome(false, null);
    }

    /** Sends one batch of pending rows to the providers and stores the embeddings. */
    public interface IndexWorker {
        WorkOutcome indexPending(Connection conn, List<ActiveModel> models) throws SQLException;
    }

    private final TenantConnections tenant;
    private final String dbname;
    private final IndexWorker worker;
    private final Duration naptime;
    private final String taskName;

    public IndexBuilderLoop(TenantConnections tenant, String dbname, IndexWorker worker, Duration naptime) {
        this.tenant = tenant;
        this.dbname = dbname;
        this.worker = worker;
        this.naptime = naptime;
        this.taskName = "ext::ai::index builder on database '" + dbname + "'";
    }

    @Override
    public void run() {
        log.info("started {}", taskName);
        boolean holdingLock = false;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                WorkOutcome outcome = WorkOutcome.IDLE;
                try (Connection conn = tenant.borrow(dbname)) {
                    List<ActiveModel> models = fetchActiveModels(conn);
                    if (!models.isEmpty()) {
                        if (!holdingLock) {
                            holdingLock = ExtAiLock.tryLock(tenant, conn);
                        }
                        if (holdingLock) {
                            try {
                                outcome = worker.indexPending(conn, models);
                            } finally {
                                if (!outcome.readyAndUrgent()) {
                                    holdingLock = false;
                                    ExtAiLock.unlock(tenant);
                                }
                            }
                        }
                    }
                } catch (SQLException | RuntimeException e) {
                    log.error("caught error in {}", taskName, e);
                }
                if (!outcome.readyAndUrgent()) {
                    Duration delay = outcome.retryAfter() == null ? naptime : outcome.retryAfter();
                    Thread.sleep(delay.toMillis());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (holdingLock) {
                try {
                    ExtAiLock.unlock(tenant);
                } catch (SQLException e) {
                    log.warn("{} could not release its lock", taskName, e);
                }
            }
            log.info("stopped {}", taskName);
        }
    }

    private static List<ActiveModel> fetchActiveModels(Connection conn) throws SQLException {
        List<ActiveModel> models = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(
                        "SELECT id, name, provider FROM edgedbext.ai_active_embedding_models");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                models.add(new ActiveModel(rs.getLong(1), rs.getString(2), rs.getString(3)));
            }
        }
        return models;
    }
}
