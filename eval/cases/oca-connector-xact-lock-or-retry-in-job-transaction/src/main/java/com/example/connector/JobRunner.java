package com.example.connector;

import java.time.Duration;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/** Runs each queued job in one transaction: its writes and its advisory locks end together. */
@Component
public class JobRunner {

    private final TransactionTemplate tx;
    private final JobQueue queue;

    public JobRunner(TransactionTemplate tx, JobQueue queue) {
        this.tx = tx;
        this.queue = queue;
    }

    public void perform(long jobId, Runnable job) {
        try {
            tx.executeWithoutResult(status -> job.run());
            queue.markDone(jobId);
        } catch (AdvisoryLocks.RetryableJobException e) {
            queue.postpone(jobId, Duration.ofSeconds(10), e.getMessage());
        }
    }

    public interface JobQueue {
        void markDone(long jobId);

        void postpone(long jobId, Duration delay, String reason);
    }
}
