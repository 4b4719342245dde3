// Case: to stop a connection sitting idle in transaction for a whole schedule run, Open Mercato's local scheduler now takes its pg_try_advisory_xact_lock in a short claim transaction that commits before the schedule runs, keeping only an in-process set of running keys, so the advisory lock no longer keeps a second scheduler process from running the same schedule at the same time.
// Source: https://github.com/open-mercato/open-mercato/issues/4933
// Kind: bug
// Expected: in runWithLock the TransactionTemplate callback holds nothing but the pg_try_advisory_xact_lock: the transaction commits as execute returns, and a transaction-level lock ends at that commit (F2), before fn runs. fn (the schedule's target and the next-run update) then runs holding no lock at all. heldKeys only excludes callers in this JVM; a second scheduler process polling the same database still sees the schedule due (next_run_at is advanced only after the target ran), its own claim succeeds because the first claim was already committed, and both processes run the target at once (a job enqueued twice, a command executed twice). The claim's result is tested, and heldKeys is handled correctly; the defect is the lock's scope: the run must happen inside the transaction that holds the lock, or under a session lock on a pinned connection, or behind a lease row.
package com.example.mercato.scheduler;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Mutual exclusion of the local (single-database, Redis-free) scheduler. Exclusion for the whole run is kept in
 * process ({@code heldKeys}); the advisory lock only serialises concurrent claims, and fn must not run inside the
 * claim transaction, which would leave its connection idle in transaction while the schedule runs.
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

    private final Set<String> heldKeys = ConcurrentHashMap.newKeySet();
    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public LocalLockStrategy(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(transactionManager);
    }

    /** Claims {@code key}, then runs {@code fn} once the short claim transaction has committed. */
    public <T> LockResult<T> runWithLock(String key, Supplier<T> fn) {
        if (!heldKeys.add(key)) {
            return LockResult.notAcquired();
        }
        try {
            boolean claimed;
            try {
                claimed = Boolean.TRUE.equals(tx.execute(status -> jdbc.queryForObject(
                        "SELECT pg_try_advisory_xact_lock(?) AS acquired", Boolean.class, hash(key)))); // want: xact-lock-outside-transaction
            } catch (DataAccessException | TransactionException e) {
                log.error("Failed to acquire lock {}", key, e);
                return LockResult.notAcquired();
            }
            if (!claimed) {
                return LockResult.notAcquired();
            }
            return new LockResult<>(true, fn.get());
        } finally {
            heldKeys.remove(key);
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
