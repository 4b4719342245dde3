package com.example.workspace.scheduler;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Brings each workspace's billed seat count back in line with its members. Every replica schedules it; the leader
 * lock makes one of them do the work per round.
 */
@Component
public class SeatReconciliationJob {

    private static final Logger log = LoggerFactory.getLogger(SeatReconciliationJob.class);

    private final LeaderLock leaderLock;
    private final JdbcTemplate jdbc;
    private final BillingClient billing;

    public SeatReconciliationJob(LeaderLock leaderLock, JdbcTemplate jdbc, BillingClient billing) {
        this.leaderLock = leaderLock;
        this.jdbc = jdbc;
        this.billing = billing;
    }

    @Scheduled(fixedDelayString = "${kaneo.seat-reconciliation.interval-ms:300000}")
    public void reconcile() {
        int updated = leaderLock.withLeaderLock(LeaderLock.SEAT_RECONCILIATION_LOCK, this::reconcileAll, () -> 0);
        if (updated > 0) {
            log.info("Seat reconciliation updated {} workspaces", updated);
        }
    }

    private int reconcileAll() {
        List<SeatDrift> drifts = jdbc.query(
                "SELECT w.id, w.billed_seats, count(m.user_id) AS members FROM workspace w "
                        + "LEFT JOIN workspace_member m ON m.workspace_id = w.id "
                        + "WHERE w.subscription_id IS NOT NULL GROUP BY w.id, w.billed_seats "
                        + "HAVING w.billed_seats <> count(m.user_id)",
                (rs, n) -> new SeatDrift(rs.getString("id"), rs.getInt("billed_seats"), rs.getInt("members")));
        for (SeatDrift drift : drifts) {
            billing.updateSeatQuantity(drift.workspaceId(), drift.members());
            jdbc.update("UPDATE workspace SET billed_seats = ? WHERE id = ?", drift.members(), drift.workspaceId());
        }
        return drifts.size();
    }

    record SeatDrift(String workspaceId, int billedSeats, int members) {
    }

    /** The payment provider's subscription API. */
    public interface BillingClient {
        void updateSeatQuantity(String workspaceId, int seats);
    }
}
