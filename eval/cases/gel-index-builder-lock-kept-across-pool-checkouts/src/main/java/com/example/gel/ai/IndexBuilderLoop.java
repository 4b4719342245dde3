// Case: Gel's AI index builder took a session-level pg_try_advisory_lock on the pooled connection of one loop iteration and, while more work was ready, kept the lock across iterations although each iteration gave its connection back to the pool, so the lock stayed on a pooled session and the later unlock ran on another one.
// Source: https://github.com/geldata/gel/pull/8320
// Kind: bug
// Expected: run() borrows a pooled connection per iteration (try-with-resources) and takes the lock through tryLock on it. When the worker reports more work ready at once, the finally skips the unlock and keeps holdingLock = true, and closing the connection at the end of the iteration returns it to the Hikari pool with the session-level lock still on its session (F1, F13). The next iteration borrows whatever connection is free, does not lock again, and its eventual pg_advisory_unlock runs on that connection: on any other session it returns false with a WARNING and releases nothing, and holdingLock is reset anyway. The key then stays held by an idle pooled session that no loop owns: every later tryLock, by this builder or by the builder of another server on the same database, returns false and indexing of that database stops (only a borrow of that very connection gets it, by re-entry, F4), until the pool retires that connection (Hikari's maxLifetime, 30 minutes by default), and the next round of urgent work leaks it again. A lock held across iterations needs a connection held across them.
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

    /** Lets one server's index builder at a time work on a database (advisory keys are per database). */
    static final long EXT_AI_ADVISORY_LOCK = 3_987_734_540L;

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
                            holdingLock = tryLock(conn); // want: lock-without-finally-unlock
                        }
                        if (holdingLock) {
                            try {
                                outcome = worker.indexPending(conn, models);
                            } finally {
                                if (!outcome.readyAndUrgent()) {
                                    unlock(conn);
                                    holdingLock = false;
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

    private static boolean tryLock(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // may: lock-without-finally-unlock
            ps.setLong(1, EXT_AI_ADVISORY_LOCK);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static void unlock(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // may: unlock-mismatch|unlock-result-ignored
            ps.setLong(1, EXT_AI_ADVISORY_LOCK);
            ps.execute();
        }
    }
}
