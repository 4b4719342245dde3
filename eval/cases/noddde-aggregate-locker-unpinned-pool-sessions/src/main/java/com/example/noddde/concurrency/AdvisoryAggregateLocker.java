// Case: noddde's pessimistic-concurrency locker for PostgreSQL takes a session-level advisory lock per aggregate (pg_try_advisory_lock polled until a timeout, or pg_advisory_lock) and releases it with pg_advisory_unlock, each statement sent through the ORM client's connection pool, so acquire and release can run on different sessions and the lock stays held by an idle pooled connection.
// Source: https://github.com/dogganidhal/noddde/issues/103
// Kind: bug
// Expected: every statement here goes through JdbcTemplate outside any transaction, so each one borrows a connection from the pool and hands it back when the statement ends. The lock taken by acquire() (pg_try_advisory_lock in the polling loop, or pg_advisory_lock without a timeout) belongs to the session of the connection that ran it, which goes back to the pool still holding it (F1, F13). release() runs pg_advisory_unlock on whatever connection the pool lends next: on another session it returns false with a WARNING (ignored here) and the aggregate stays locked by an idle pooled session, so later commands on that aggregate time out (LockTimeoutException) or wait for ever in pg_advisory_lock, while a command that happens to borrow the holding connection re-enters the lock (F4) and runs concurrently with nothing excluding it. Lock, work and unlock need one pinned connection (or a transaction-level lock in the command's transaction). The key (64-bit FNV-1a of name and id) and the finally in PessimisticConcurrencyStrategy are correct.
package com.example.noddde.concurrency;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * PostgreSQL advisory-lock implementation of {@link AggregateLocker}, on the application's JdbcTemplate (backed by
 * the Hikari pool). The lock key is a 64-bit FNV-1a hash of {@code aggregateName:aggregateId}.
 */
public class AdvisoryAggregateLocker implements AggregateLocker {

    private static final Logger log = LoggerFactory.getLogger(AdvisoryAggregateLocker.class);

    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

    private final JdbcTemplate jdbc;

    public AdvisoryAggregateLocker(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void acquire(String aggregateName, String aggregateId, Duration timeout) throws InterruptedException {
        long key = lockKey(aggregateName, aggregateId);
        if (timeout != null && !timeout.isNegative() && !timeout.isZero()) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Boolean acquired = jdbc.queryForObject("SELECT pg_try_advisory_lock(?)", Boolean.class, key); // want: unpinned-session-lock
                if (Boolean.TRUE.equals(acquired)) {
                    return;
                }
                if (System.nanoTime() - deadline >= 0) {
                    throw new LockTimeoutException(aggregateName, aggregateId, timeout);
                }
                Thread.sleep(POLL_INTERVAL.toMillis());
            }
        }
        jdbc.queryForObject("SELECT pg_advisory_lock(?)", Object.class, key); // want: unpinned-session-lock
    }

    @Override
    public void release(String aggregateName, String aggregateId) {
        long key = lockKey(aggregateName, aggregateId);
        jdbc.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, key); // want: unlock-mismatch|unpinned-session-lock
        log.trace("Released advisory lock {} for {}:{}", key, aggregateName, aggregateId);
    }

    static long lockKey(String aggregateName, String aggregateId) {
        long hash = FNV_OFFSET_BASIS;
        for (byte b : (aggregateName + ":" + aggregateId).getBytes(StandardCharsets.UTF_8)) {
            hash ^= (b & 0xff);
            hash *= FNV_PRIME;
        }
        return hash;
    }
}
