// Case: pg_trickle's manual refresh took a session-level pg_try_advisory_lock and released it with pg_advisory_unlock after the refresh, all inside the caller's transaction; when the refresh failed (temp_file_limit exceeded) the transaction was aborted, the unlock did nothing, and the lock stayed on the pooled connection so every later refresh of that stream table was skipped. The fix switched to pg_try_advisory_xact_lock.
// Source: https://github.com/trickle-labs/pg-trickle/pull/157
// Kind: bug
// Expected: the unlock in SessionLocks.withTryLock runs inside the transaction that RefreshService.refreshStreamTable (another bean, @Transactional) opened around the whole refresh. When the delta statement fails, PostgreSQL aborts that transaction and the unlock in finally fails with 25P02 (F18); the rollback does not release a session lock (F1) and closing the pooled connection keeps the session (F13), so the key stays held and later refreshes return SKIPPED. On success the unlock runs before the commit, so another session can take the key while the refreshed rows are still invisible (F19). Taking pg_try_advisory_xact_lock in the same transaction fixes both.
package com.example.streams;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class RefreshService {

    public enum RefreshResult { REFRESHED, SKIPPED }

    private final SessionLocks locks;
    private final StreamDeltas deltas;

    public RefreshService(SessionLocks locks, StreamDeltas deltas) {
        this.locks = locks;
        this.deltas = deltas;
    }

    /** Entry point of the manual refresh: one transaction around lock, delta and unlock. */
    @Transactional
    public RefreshResult refreshStreamTable(long streamTableId) {
        return locks.withTryLock(streamTableId, () -> {
            deltas.apply(streamTableId);   // a multi-join delta; can fail with temp_file_limit exceeded
            return RefreshResult.REFRESHED;
        }).orElse(RefreshResult.SKIPPED);
    }
}
