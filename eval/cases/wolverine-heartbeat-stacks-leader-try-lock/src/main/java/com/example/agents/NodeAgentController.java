package com.example.agents;

import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Health-check loop of one node: renews or contests leadership on every tick. */
public class NodeAgentController {

    private final LeaderLock leaderLock;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private volatile boolean leader;

    public NodeAgentController(LeaderLock leaderLock) {
        this.leaderLock = leaderLock;
    }

    public void start() {
        timer.scheduleWithFixedDelay(this::heartbeat, 0, 2, TimeUnit.SECONDS);
    }

    void heartbeat() {
        try {
            // Called on every tick, also when this node already leads, so that lease-based stores renew.
            if (leaderLock.tryAttain()) {
                leader = true;
                evaluateAssignments();
            } else if (leader) {
                stepDown("the leadership lock could not be renewed");
            }
        } catch (SQLException e) {
            stepDown("health check failed: " + e.getMessage());
        }
    }

    void stepDown(String reason) {
        leader = false;
        try {
            leaderLock.release();          // one unlock, whatever the number of ticks as leader
        } catch (SQLException ignored) {
            // the next tick retries
        }
    }

    private void evaluateAssignments() {
        // rebalance agents across the nodes of the cluster
    }
}
