// Case: Open Mercato's local scheduler kept two instances from running one schedule with a session-level pg_try_advisory_lock per schedule and a pg_advisory_unlock after the run, both sent through the ORM's pooled connection, so the lock and the unlock ran on different connections and the lock was never released, blocking the schedule's later runs.
// Source: https://github.com/open-mercato/open-mercato/pull/1484
// Kind: bug
// Expected: tryLock and unlock each run one JdbcTemplate statement outside any transaction (LocalSchedulerService is not transactional), so each borrows a pooled connection and returns it as the statement ends. The pg_try_advisory_lock stays on the session that ran it, now idle in the pool (F1, F13); the pg_advisory_unlock in the finally of executeSchedule lands on whatever connection the pool lends next and, on another session, returns false with a WARNING that is ignored. The schedule's key stays locked by an idle pooled session: every later poll that borrows another connection gets false and skips the schedule ("already locked") for as long as that connection lives, while a poll that happens to borrow the holding connection re-enters the lock (F4) and runs the schedule, and its unlock, again sent to whichever connection comes next, seldom brings that count back to zero. Lock and unlock need one pinned connection, or a transaction-level lock in a transaction that spans the run. The 64-bit key derived from the schedule id is correct.
package com.example.mercato.scheduler;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** PostgreSQL advisory-lock strategy of the local (single-database, Redis-free) scheduler. */
@Component
public class LocalLockStrategy {

    private static final Logger log = LoggerFactory.getLogger(LocalLockStrategy.class);

    private final JdbcTemplate jdbc;

    public LocalLockStrategy(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Tries to take the lock of {@code key}; false when another run holds it or the database failed. */
    public boolean tryLock(String key) {
        try {
            Boolean acquired = jdbc.queryForObject("SELECT pg_try_advisory_lock(?) AS acquired", Boolean.class, hash(key)); // want: unpinned-session-lock
            return Boolean.TRUE.equals(acquired);
        } catch (DataAccessException e) {
            log.error("Failed to acquire lock {}", key, e);
            return false;
        }
    }

    /** Releases the lock of {@code key}. */
    public void unlock(String key) {
        try {
            jdbc.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, hash(key)); // want: unlock-mismatch|unpinned-session-lock
        } catch (DataAccessException e) {
            log.error("Failed to release lock {}", key, e);
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
