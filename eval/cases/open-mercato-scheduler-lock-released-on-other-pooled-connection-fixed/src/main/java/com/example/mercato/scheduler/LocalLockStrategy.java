// Case: Open Mercato's fix for its local scheduler lock: instead of a session-level lock and unlock sent through the pool, runWithLock opens a transaction, takes pg_try_advisory_xact_lock in it and runs the schedule inside that same transaction, so the lock is released by the commit or rollback on the connection that holds it.
// Source: https://github.com/open-mercato/open-mercato/pull/1484
// Kind: correct
// Expected: nothing to report. runWithLock is called from the non-transactional poll, so TransactionTemplate.execute starts a new transaction and binds one pooled connection to the thread for the whole callback; the JdbcTemplate lock call and every JdbcTemplate statement of fn (the next-run update) run on it. The pg_try_advisory_xact_lock result decides: on false nothing runs; on true fn runs inside the transaction and the lock lasts until its commit or rollback (F2), which end it on the same session, on every path, with no unlock to forget or to send to another connection. A failure of the lock statement itself is reported as not acquired; a failure of fn after the lock is rethrown, rolling the transaction back. The 64-bit key derived from the schedule id is correct.
package com.example.mercato.scheduler;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * PostgreSQL advisory-lock strategy of the local (single-database, Redis-free) scheduler. Uses transaction-scoped
 * locks, released when the transaction ends, so no lock can be left on a pooled connection.
 */
@Component
public class LocalLockStrategy {

    /** Whether the lock was taken, and what the guarded function returned. */
    public record LockResult<T>(boolean acquired, T result) {
        static <T> LockResult<T> notAcquired() {
            return new LockResult<>(false, null);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(LocalLockStrategy.class);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public LocalLockStrategy(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(transactionManager);
    }

    /** Runs {@code fn} under the lock of {@code key}, inside the transaction that holds the lock. */
    public <T> LockResult<T> runWithLock(String key, Supplier<T> fn) {
        AtomicBoolean lockAcquired = new AtomicBoolean();
        try {
            return tx.execute(status -> {
                Boolean acquired = jdbc.queryForObject(
                        "SELECT pg_try_advisory_xact_lock(?) AS acquired", Boolean.class, hash(key));
                if (!Boolean.TRUE.equals(acquired)) {
                    return LockResult.<T>notAcquired();
                }
                lockAcquired.set(true);
                return new LockResult<>(true, fn.get());
            });
        } catch (RuntimeException e) {
            if (lockAcquired.get()) {
                throw e;
            }
            log.error("Failed to acquire lock {}", key, e);
            return LockResult.notAcquired();
        }
    }

    /** A stable 64-bit advisory-lock key for a string key. */
    static long hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 not available", e);
        }
    }
}
