// Case: chainlink's fix for its node-exclusion lock: after taking the session-level advisory lock the node now re-checks every few seconds that its session still holds it, takes it again on a fresh connection when the old session is gone, and stops the node when another node got it first or ownership cannot be confirmed.
// Source: https://github.com/smartcontractkit/chainlink/pull/5638
// Kind: correct
// Expected: nothing to report. takeAndHold polls SELECT pg_try_advisory_lock(?) on an unpooled LockSession and acts only on true, then schedules check(): it asks pg_locks whether pg_backend_pid() holds APP_LOCK_ID (classid and objid are the high and low halves of a one-bigint key, objsubid 1); a check that fails on a dead connection leads to relock(), which closes that session (its lock is gone with its backend) and tries the key on a new one, and a refusal or a second failure calls onLost, which stops the node, so no two nodes run on the database for longer than one check interval. Every use of the session goes through a synchronized method of DatabaseLock, and release() stops the checker before it unlocks (checking the result, which is false after a loss) and closes the connection, ending the session whatever happened. The try-lock in relock runs on a new session, so it never stacks a second hold of the key.
package com.example.oraclenode.pg;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One node per database: a session-level lock on an unpooled connection, watched for as long as it is held. */
public final class DatabaseLock {

    private static final Logger log = LoggerFactory.getLogger(DatabaseLock.class);
    static final long APP_LOCK_ID = 1027321974924625846L; // every node uses this key; nothing else does

    private final String jdbcUrl;
    private final Properties credentials;
    private final Duration retryInterval;
    private final Duration checkInterval;
    private LockSession session;
    private ScheduledExecutorService checker;
    private Runnable onLost;

    public DatabaseLock(String jdbcUrl, Properties credentials, Duration retryInterval, Duration checkInterval) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
        this.retryInterval = retryInterval;
        this.checkInterval = checkInterval;
    }

    /** Blocks until this node holds the lock; onLost runs (once) if the node later stops holding it. */
    public synchronized void takeAndHold(Runnable onLost) throws SQLException, InterruptedException {
        int attempts = 0;
        session = LockSession.open(jdbcUrl, credentials, APP_LOCK_ID);
        try {
            while (!session.tryLock()) {
                if (attempts++ % 60 == 0) {
                    log.info("Another node holds the advisory lock, waiting (attempt {})", attempts);
                }
                Thread.sleep(retryInterval.toMillis());
            }
        } catch (SQLException | InterruptedException e) {
            session.close();
            session = null;
            throw e;
        }
        log.info("Got advisory lock {}", APP_LOCK_ID);
        this.onLost = onLost;
        checker = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "advisory-lock-check"));
        long period = checkInterval.toMillis();
        checker.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
    }

    private synchronized void check() {
        if (session == null || onLost == null) {
            return; // released, or already reported lost
        }
        try {
            if (session.holdsLock()) {
                return;
            }
            log.error("This session no longer holds advisory lock {}", APP_LOCK_ID);
        } catch (SQLException e) {
            log.warn("Checking advisory lock failed; the lock connection is gone, taking the lock again", e);
            if (relock()) {
                return;
            }
        }
        Runnable callback = onLost;
        onLost = null;
        callback.run();
    }

    /** The old session is gone, and its lock with it: try the key on a new one. */
    private boolean relock() {
        session.close();
        session = null;
        try {
            session = LockSession.open(jdbcUrl, credentials, APP_LOCK_ID);
            if (session.tryLock()) {
                log.warn("Took advisory lock {} again on a new connection", APP_LOCK_ID);
                return true;
            }
            log.error("Another node has taken advisory lock {}", APP_LOCK_ID);
        } catch (SQLException e) {
            log.error("Could not confirm advisory lock {}", APP_LOCK_ID, e);
        }
        return false;
    }

    /** Stops watching, gives the lock up, and ends the lock's session either way. */
    public synchronized void release() {
        if (checker != null) {
            checker.shutdownNow();
        }
        if (session == null) {
            return;
        }
        try {
            if (!session.unlock()) {
                log.warn("Advisory lock {} was not held at shutdown", APP_LOCK_ID);
            }
        } catch (SQLException e) {
            log.warn("Error trying to unlock advisory lock on shutdown", e);
        } finally {
            session.close();
            session = null;
        }
    }
}
