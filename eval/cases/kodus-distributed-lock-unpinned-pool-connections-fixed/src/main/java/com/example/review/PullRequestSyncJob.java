package com.example.review;

import com.example.review.DistributedLockService.DistributedLock;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Every instance of the API schedules this; the lock lets one of them sync the open pull requests per run. */
@Component
public class PullRequestSyncJob {

    private static final Logger log = LoggerFactory.getLogger(PullRequestSyncJob.class);

    private final DistributedLockService locks;
    private final PullRequestSyncer syncer;

    public PullRequestSyncJob(DistributedLockService locks, PullRequestSyncer syncer) {
        this.locks = locks;
        this.syncer = syncer;
    }

    @Scheduled(cron = "0 */5 * * * *")
    public void syncOpenPullRequests() throws SQLException {
        DistributedLock lock = locks.createLock("code-review:pull-request-sync");
        if (!lock.acquire()) {
            log.info("Another instance holds {}, skipping this run", lock.name());
            return;
        }
        Instant started = Instant.now();
        try {
            int synced = syncer.syncAll();
            log.info("Synced {} pull requests in {}", synced, Duration.between(started, Instant.now()));
        } finally {
            lock.release();
        }
    }

    /** Fetches the open pull requests of every connected repository and stores their review state. */
    public interface PullRequestSyncer {
        int syncAll();
    }
}
