// Case: prom-analytics-proxy elects one replica to run its metrics-inventory sync and its retention job by holding a session-level pg_try_advisory_lock on a connection borrowed from the application's pool, and gave leadership up only by closing that connection, which returns it to the pool with the lock still held, so the lease could stay taken by an idle pooled session and starve every later election.
// Source: https://github.com/nicolastakashi/prom-analytics-proxy/issues/585
// Kind: bug
// Expected: runWhileLeader takes pg_try_advisory_lock on a connection borrowed from the Hikari pool and never unlocks it. When the job returns, close() only hands the connection back to the pool with its backend session and the session-level lock intact (F1, F13): the key sits on an idle pooled connection that ordinary queries borrow, and no replica can be elected for that lease while this JVM lives, although none runs the job any more. When the job throws, not even close() runs: the connection leaks holding the lock, the executor swallows the exception, and this replica keeps the lease without running the job. Releasing needs pg_advisory_unlock on the same connection in a finally around the job before the connection goes back (or the connection evicted when the unlock fails or returns false).
package com.example.analytics.leader;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Single-leader coordination through a PostgreSQL session-level advisory lock: among all replicas of the
 * proxy, only the one holding the lock runs a given background job.
 */
public class AdvisoryLeaderElection {

    private static final Logger log = LoggerFactory.getLogger(AdvisoryLeaderElection.class);
    private static final Duration NOT_LEADER_BACKOFF = Duration.ofSeconds(2);

    private final HikariDataSource dataSource;

    public AdvisoryLeaderElection(HikariDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Runs job only while this process holds the advisory lock lockKey; waits its turn while another
     * replica holds it. lockKey should be a stable number, e.g. derived from the job's name.
     */
    public void runWhileLeader(String lease, long lockKey, Runnable job) throws InterruptedException {
        while (!Thread.currentThread().isInterrupted()) {
            Connection conn;
            try {
                conn = dataSource.getConnection();
            } catch (SQLException e) {
                log.debug("leader election {}: no database connection", lease, e);
                return;
            }

            boolean got;
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: lock-without-finally-unlock
                ps.setLong(1, lockKey);
                try (ResultSet rs = ps.executeQuery()) {
                    got = rs.next() && rs.getBoolean(1);
                }
            } catch (SQLException e) {
                closeQuietly(conn);
                log.debug("leader election {}: lock query failed", lease, e);
                return;
            }
            if (!got) {
                closeQuietly(conn);                     // not leader: back off a bit and try again
                Thread.sleep(NOT_LEADER_BACKOFF.toMillis());
                continue;
            }

            // We are leader for the duration of this connection.
            log.info("leader election {}: acquired leadership", lease);
            job.run();

            // Release by closing the session connection.
            closeQuietly(conn);                         // may: lock-without-finally-unlock
            return;
        }
    }

    private static void closeQuietly(Connection conn) {
        try {
            conn.close();
        } catch (SQLException e) {
            log.debug("closing connection failed", e);
        }
    }
}
