package com.example.noddde.concurrency;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pessimistic concurrency: takes the aggregate's exclusive lock before a command attempt and releases it after
 * the attempt, whether it succeeded or failed. No retry loop: the lock keeps concurrent commands apart, and the
 * version check on save stays as a safety net.
 */
public class PessimisticConcurrencyStrategy {

    private static final Logger log = LoggerFactory.getLogger(PessimisticConcurrencyStrategy.class);

    private final AggregateLocker locker;
    private final Duration lockTimeout;

    public PessimisticConcurrencyStrategy(AggregateLocker locker, Duration lockTimeout) {
        this.locker = locker;
        this.lockTimeout = lockTimeout;
    }

    /** Runs one command attempt on the aggregate under its lock and returns the events it produced. */
    public <E> List<E> execute(String aggregateName, String aggregateId, Callable<List<E>> attempt) throws Exception {
        log.debug("Acquiring lock on {}:{}", aggregateName, aggregateId);
        locker.acquire(aggregateName, aggregateId, lockTimeout);
        log.debug("Lock acquired on {}:{}", aggregateName, aggregateId);
        try {
            return attempt.call();
        } finally {
            locker.release(aggregateName, aggregateId);
            log.debug("Lock released on {}:{}", aggregateName, aggregateId);
        }
    }
}
