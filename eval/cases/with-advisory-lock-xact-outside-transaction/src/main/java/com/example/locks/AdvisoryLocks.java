// Case: with_advisory_lock's `transaction: true` option ran SELECT pg_try_advisory_xact_lock(...) even when no transaction was open, so the lock was released as soon as the statement ended and the block ran unlocked (the PR proposed raising instead)
// Source: https://github.com/ClosureTree/with_advisory_lock/pull/74
// Kind: bug
// Expected: withTransactionLock takes pg_try_advisory_xact_lock through JdbcTemplate, but its only caller is a @Scheduled method with no transaction: in autocommit the lock ends with its own SELECT (F3), so the nightly rollup runs on every instance at once; open a transaction around lock and work (TransactionTemplate, or @Transactional on a bean method called through the proxy).
package com.example.locks;

import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
public class AdvisoryLocks {

    private final JdbcTemplate jdbc;

    public AdvisoryLocks(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Runs the block only if the transaction-level lock could be taken; the lock is meant to be
     * released when the surrounding transaction ends.
     */
    public <T> LockResult<T> withTransactionLock(long key, Supplier<T> block) {
        Boolean acquired = jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, key); // want: xact-lock-outside-transaction
        if (!Boolean.TRUE.equals(acquired)) {
            return LockResult.notAcquired();
        }
        return LockResult.of(block.get());
    }

    public record LockResult<T>(boolean lockAcquired, T value) {
        static <T> LockResult<T> notAcquired() { return new LockResult<>(false, null); }
        static <T> LockResult<T> of(T value) { return new LockResult<>(true, value); }
    }
}
