// Case: prom-analytics-proxy's fix for its advisory-lock leader election: leadership is now given up with an explicit pg_advisory_unlock on the connection that holds the lock, run whether the job returns or throws, and a connection whose unlock fails or returns false is discarded instead of going back to the pool; errors while trying to become leader are retried with back-off instead of ending the election.
// Source: https://github.com/nicolastakashi/prom-analytics-proxy/pull/587
// Kind: correct
// Expected: nothing to report. tryAcquire returns the connection only when pg_try_advisory_lock returned true, and closes it (nothing held) when it returned false; when the try-lock statement itself fails the connection is evicted, ending its session whether or not the lock was taken. The caller runs the job in a try whose finally releases: pg_advisory_unlock on that same connection (autocommit, so no aborted transaction can make it fail), then close() only when the unlock returned true; on an error or a false the connection is evicted, which closes the physical connection and ends the backend session with its locks (F1), so no locked session ever returns to the pool (F13). The key is a fixed constant per lease, and the two leases use different keys.
package com.example.analytics.leader;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Single-leader coordination through a PostgreSQL session-level advisory lock: among all replicas of the
 * proxy, only the one holding the lock runs a given background job.
 */
public class AdvisoryLeaderElection {

    private static final Logger log = LoggerFactory.getLogger(AdvisoryLeaderElection.class);
    private static final Duration INITIAL_BACKOFF = Duration.ofSeconds(2);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    private static final int UNLOCK_TIMEOUT_SECONDS = 5;   // release runs on the shutdown path: keep it bounded

    private final HikariDataSource dataSource;

    public AdvisoryLeaderElection(HikariDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Runs job whenever this process holds the advisory lock lockKey, until the thread is interrupted. */
    public void runWhileLeader(String lease, long lockKey, Runnable job) throws InterruptedException {
        Duration wait = INITIAL_BACKOFF;
        while (!Thread.currentThread().isInterrupted()) {
            Connection conn;
            try {
                conn = tryAcquire(lockKey);
            } catch (SQLException e) {
                log.warn("leader election attempt for {} failed", lease, e);   // retried, never a silent stop
                Thread.sleep(jitter(wait).toMillis());
                wait = wait.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait.multipliedBy(2);
                continue;
            }
            if (conn == null) {
                Thread.sleep(INITIAL_BACKOFF.toMillis());    // another replica leads: poll at the steady interval
                continue;
            }
            wait = INITIAL_BACKOFF;
            log.info("leader election {}: acquired leadership", lease);
            try {
                job.run();
            } finally {
                release(conn, lease, lockKey);
            }
        }
    }

    /** The connection holding the lock, or null when another session holds it. */
    private Connection tryAcquire(long lockKey) throws SQLException {
        Connection conn = dataSource.getConnection();
        boolean got;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, lockKey);
            try (ResultSet rs = ps.executeQuery()) {
                got = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException | RuntimeException e) {
            dataSource.evictConnection(conn);            // whether the lock was taken is unknown: end the session
            throw e;
        }
        if (!got) {
            conn.close();                                // nothing held: the connection may go back to the pool
            return null;
        }
        return conn;
    }

    private void release(Connection conn, String lease, long lockKey) {
        boolean unlocked = false;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setQueryTimeout(UNLOCK_TIMEOUT_SECONDS);
            ps.setLong(1, lockKey);
            try (ResultSet rs = ps.executeQuery()) {
                unlocked = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            log.warn("advisory unlock for {} failed", lease, e);
        }
        if (!unlocked) {
            // A pooled connection still holding the lock would keep the lease taken for ever: close the physical
            // connection instead, which ends the session and releases the lock with it.
            log.warn("leader election {}: discarding the lock connection", lease);
            dataSource.evictConnection(conn);
            return;
        }
        try {
            conn.close();
        } catch (SQLException e) {
            log.debug("closing connection failed", e);
        }
        log.info("leader election {}: released leadership", lease);
    }

    /** Up to 20% either way, so replicas restarted together do not retry in lockstep. */
    private static Duration jitter(Duration d) {
        long millis = d.toMillis();
        return Duration.ofMillis(millis + ThreadLocalRandom.current().nextLong(-millis / 5, millis / 5 + 1));
    }
}
