package com.example.mercato.scheduler;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * Local scheduler for deployments without Redis: polls scheduled_jobs for due schedules and runs them in this
 * process, using advisory locks so that one schedule is not run twice at once.
 */
@Service
public class LocalSchedulerService {

    /** Runs a schedule's target: enqueues its queue job or executes its command. */
    public interface ScheduleTargets {
        boolean tenantHasFeature(ScheduledJob job);

        void run(ScheduledJob job) throws Exception;
    }

    private static final Logger log = LoggerFactory.getLogger(LocalSchedulerService.class);

    private final JdbcTemplate jdbc;
    private final LocalLockStrategy lockStrategy;
    private final ScheduleTargets targets;

    public LocalSchedulerService(JdbcTemplate jdbc, LocalLockStrategy lockStrategy, ScheduleTargets targets) {
        this.jdbc = jdbc;
        this.lockStrategy = lockStrategy;
        this.targets = targets;
    }

    @Scheduled(fixedDelayString = "${scheduler.local.poll-interval-ms:30000}")
    public void poll() {
        List<ScheduledJob> due = jdbc.query("SELECT " + ScheduledJob.COLUMNS + " FROM scheduled_jobs"
                + " WHERE is_enabled AND deleted_at IS NULL AND next_run_at <= now()"
                + " ORDER BY next_run_at LIMIT 100", ScheduledJob::fromRow);
        if (due.isEmpty()) {
            log.debug("No due schedules");
            return;
        }
        log.info("Found {} due schedule(s)", due.size());
        for (ScheduledJob job : due) {
            executeSchedule(job);
        }
    }

    void executeSchedule(ScheduledJob job) {
        LocalLockStrategy.LockResult<Void> outcome = lockStrategy.runWithLock(job.lockKey(), () -> {
            log.info("Executing schedule {} ({})", job.name(), job.id());
            try {
                if (job.requireFeature() != null && !targets.tenantHasFeature(job)) {
                    log.info("Schedule {} skipped: missing feature {}", job.name(), job.requireFeature());
                } else {
                    targets.run(job);
                    log.info("Schedule {} completed", job.name());
                }
            } catch (Exception e) {
                log.error("Schedule {} failed", job.name(), e);
            }
            updateNextRun(job);
            return null;
        });
        if (!outcome.acquired()) {
            log.info("Schedule {} is already locked, skipping", job.name());
        }
    }

    private void updateNextRun(ScheduledJob job) {
        Instant now = Instant.now();
        jdbc.update("UPDATE scheduled_jobs SET last_run_at = ?, next_run_at = ? WHERE id = ?",
                Timestamp.from(now), Timestamp.from(job.nextRunAfter(now)), job.id());
    }
}
