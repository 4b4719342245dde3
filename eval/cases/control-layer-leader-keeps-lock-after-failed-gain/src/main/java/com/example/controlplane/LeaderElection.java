// Case: control-layer elects the replica that runs the endpoint probes by holding a session-level pg_try_advisory_lock on a connection borrowed from the pool; when the gain-leadership callback fails the election only logs it and stays leader with the lock held and no probes running, and when the keep-alive ping fails it hands the connection back to the pool without unlocking.
// Source: https://github.com/doublewordai/control-layer/pull/1566
// Kind: bug
// Expected: (1) after pg_try_advisory_lock returned true, a failure of onGainLeadership is only logged: the leader flag stays set and the lock stays held on the kept connection, so this replica probes nothing while no other replica can win the lock until the process exits (no rule describes keeping a lock for work that never started). (2) when the SELECT 1 keep-alive fails, closeQuietly(leaderConnection) returns the connection to the Hikari pool; unless the failure was a broken socket, the backend session is alive and keeps the session-level lock (F1, F13), so every replica's later try-lock fails (or this replica's, handed that pooled session again, re-enters it, F4). Release the lock explicitly (unlock, or evict the connection from the pool when the unlock fails) and step down when the callback fails.
package com.example.controlplane;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class LeaderElection {

    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

    private final DataSource dataSource;
    private final ProbeScheduler probes;
    private final long lockId;
    private final AtomicBoolean isLeader = new AtomicBoolean(false);
    private Connection leaderConnection;

    public LeaderElection(DataSource dataSource, ProbeScheduler probes, @Value("${leader-election.lock-id}") long lockId) {
        this.dataSource = dataSource;
        this.probes = probes;
        this.lockId = lockId;
    }

    public boolean isLeader() {
        return isLeader.get();
    }

    @Scheduled(fixedRate = 30_000)
    public synchronized void tick() {
        if (isLeader.get()) {
            keepAlive();
        } else {
            campaign();
        }
    }

    private void campaign() {
        Connection conn;
        try {
            conn = dataSource.getConnection();
        } catch (SQLException e) {
            log.warn("Failed to acquire connection for leader election", e);
            return;
        }
        boolean acquired;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: lock-without-finally-unlock
            ps.setLong(1, lockId);
            try (ResultSet rs = ps.executeQuery()) {
                acquired = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            log.warn("Failed to check leader lock", e);
            closeQuietly(conn);
            return;
        }
        if (!acquired) {
            log.debug("Following - will retry");
            closeQuietly(conn);
            return;
        }
        log.info("Gained leadership");
        isLeader.set(true);
        leaderConnection = conn; // the session, and with it the lock, is kept for as long as we lead
        try {
            probes.onGainLeadership();
        } catch (RuntimeException e) {
            log.error("Failed to execute on_gain_leadership callback", e); // want: none
        }
    }

    private void keepAlive() {
        try (Statement st = leaderConnection.createStatement()) {
            st.execute("SELECT 1");
            log.debug("Leadership renewed (connection alive)");
        } catch (SQLException e) {
            log.warn("Lost leadership (connection died)", e);
            isLeader.set(false);
            closeQuietly(leaderConnection); // may: lock-without-finally-unlock
            leaderConnection = null;
            try {
                probes.onLoseLeadership();
            } catch (RuntimeException ex) {
                log.error("Failed to execute on_lose_leadership callback", ex);
            }
        }
    }

    private static void closeQuietly(Connection conn) {
        try {
            conn.close();
        } catch (SQLException e) {
            log.debug("Closing election connection failed", e);
        }
    }
}
