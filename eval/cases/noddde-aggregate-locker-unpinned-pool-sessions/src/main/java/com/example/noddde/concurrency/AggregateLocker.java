package com.example.noddde.concurrency;

import java.time.Duration;

/**
 * Exclusive lock per aggregate instance, held while one command is applied to it.
 *
 * <p>Implementations must make the lock visible to every process sharing the event store: an in-memory
 * implementation only serves single-process deployments, a database-backed one (advisory locks) serves several
 * instances of the application.
 */
public interface AggregateLocker {

    /**
     * Blocks until the lock on the aggregate is held. With a positive timeout, gives up after it with a
     * {@link LockTimeoutException}; with none, waits as long as it takes.
     */
    void acquire(String aggregateName, String aggregateId, Duration timeout) throws InterruptedException;

    /**
     * Releases the lock taken by {@link #acquire}. Called once per successful acquire, after the command attempt,
     * whatever its outcome.
     */
    void release(String aggregateName, String aggregateId);

    /** The lock could not be acquired within the configured timeout. */
    final class LockTimeoutException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public LockTimeoutException(String aggregateName, String aggregateId, Duration timeout) {
            super("Could not lock " + aggregateName + ":" + aggregateId + " within " + timeout.toMillis() + " ms");
        }
    }
}
