package com.example.scheduler;

import java.sql.SQLException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class RetentionJob {

    static final long RETENTION_LEADER_LOCK = 2_187_004L;

    private final LeaderElectionClient leader;
    private final Database db;

    public RetentionJob(LeaderElectionClient leader, Database db) {
        this.leader = leader;
        this.db = db;
    }

    @Scheduled(cron = "0 30 3 * * *")
    public void purgeExpiredUsage() throws SQLException {
        if (!leader.tryAcquireLeadership(RETENTION_LEADER_LOCK)) {
            return;                         // another node is the leader for this run
        }
        db.update("DELETE FROM usage_events WHERE created_at < now() - interval '90 days'");
        db.update("INSERT INTO job_runs(job, finished_at) VALUES ('retention', now())");
    }
}
