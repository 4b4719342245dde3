// Case: control-layer's fix for its advisory-lock leader election: a failed gain-leadership callback makes the replica step down and release the lock, and a failed keep-alive or a shutdown releases it explicitly, ending the pooled session when the unlock itself fails.
// Source: https://github.com/doublewordai/control-layer/pull/1566
// Kind: correct
// Expected: nothing to report: the session-level try-lock is taken on a connection kept out of the pool while this replica leads, and every way out of leadership (failed callback, failed ping, shutdown) goes through releaseLeaderConnection, which unlocks on that same connection before returning it to the pool, or, when the unlock fails (the session is broken or mid-error), evicts it from Hikari, closing the physical connection so the server ends the session and its locks (F1). A try-lock that returned false or failed leaves a connection that holds nothing, which is returned at once. No key is taken twice: a replica campaigns only while it does not lead.
package com.example.controlplane;

import com.zaxxer.hikari.HikariDataSource;
import jakarta.annotation.PreDestroy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class LeaderElection {

    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);
    private final HikariDataSource dataSource;
    private final ProbeScheduler probes;
    private final long lockId;
    private final AtomicBoolean isLeader = new AtomicBoolean(false);
    private Connection leaderConnection;

    public LeaderElection(HikariDataSource dataSource, ProbeScheduler probes, @Value("${leader-election.lock-id}") long lockId) {
        this.dataSource = dataSource;
        this.probes = probes;
        this.lockId = lockId;
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
        boolean acquired = false;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, lockId);
            try (ResultSet rs = ps.executeQuery()) {
                acquired = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            log.warn("Failed to check leader lock", e);
        }
        if (!acquired) {
            try {
                conn.close(); // holds no lock
            } catch (SQLException e) {
                log.debug("Closing election connection failed", e);
            }
            return;
        }
        isLeader.set(true);
        leaderConnection = conn;
        try {
            probes.onGainLeadership();
        } catch (RuntimeException e) {
            log.error("Failed to start leader work, stepping down", e);
            stepDown();
        }
    }

    private void keepAlive() {
        try (Statement st = leaderConnection.createStatement()) {
            st.execute("SELECT 1");
        } catch (SQLException e) {
            log.warn("Leader keep-alive failed, stepping down", e);
            stepDown();
        }
    }

    @PreDestroy
    public synchronized void shutdown() {
        if (isLeader.get()) {
            stepDown();
        }
    }

    private void stepDown() {
        isLeader.set(false);
        try {
            probes.onLoseLeadership();
        } finally {
            releaseLeaderConnection();
        }
    }

    private void releaseLeaderConnection() {
        Connection conn = leaderConnection;
        leaderConnection = null;
        try {
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                ps.setLong(1, lockId);
                ps.executeQuery().close();
            }
            conn.close(); // back to the pool without the lock
        } catch (SQLException e) {
            log.warn("Could not release the leader lock, closing its session", e);
            dataSource.evictConnection(conn); // closes the physical connection: the server ends the session
        }
    }
}
