// Case: go-pglock, a small advisory-lock library, took and released its session-level locks through the connection pool handle, so the try-lock and the unlock each ran on whichever pooled connection was free; the lock stayed on an idle pooled connection, the unlock mostly ran elsewhere and released nothing, and the fix made the lock object hold one pinned connection.
// Source: https://github.com/allisson/go-pglock/pull/3
// Kind: bug
// Expected: AdvisoryLock runs SELECT pg_try_advisory_lock(?) and SELECT pg_advisory_unlock(?) through a JdbcTemplate over the application's pool, outside any transaction, so each call borrows a connection, runs, and hands it back. The lock is taken by whatever session ran lock() and stays with that pooled connection after it goes back to the pool; unlock() borrows a connection again, usually a different one, where pg_advisory_unlock returns false with WARNING "you don't own a lock" (unlock() returns that false and NightlyExportJob only logs it), so the key stays locked until the pool retires that connection. Meanwhile any caller that happens to borrow the locked connection is granted the key again by re-entrancy, so the nightly export can run twice at once, or never again on the other instances. Session locks need one connection held from lock to unlock (the library's fix: the lock object owns a pinned connection).
package com.example.reports.lock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Session-level advisory locks by numeric id, for jobs that must run on one instance at a time. Thread safe: every
 * call goes through the template.
 */
public class AdvisoryLock {

    private static final Logger log = LoggerFactory.getLogger(AdvisoryLock.class);

    private final JdbcTemplate jdbcTemplate;

    public AdvisoryLock(JdbcTemplate jdbcTemplate) {
        this.jdbcTemplate = jdbcTemplate;
    }

    /** Obtains the exclusive session-level lock if it is free; returns false at once otherwise. */
    public boolean lock(long id) {
        Boolean locked = jdbcTemplate.queryForObject("SELECT pg_try_advisory_lock(?)", Boolean.class, id); // want: unpinned-session-lock|lock-without-finally-unlock
        log.debug("pg_try_advisory_lock({}) = {}", id, locked);
        return Boolean.TRUE.equals(locked);
    }

    /** Releases one hold of the lock; false when this session held none. */
    public boolean unlock(long id) {
        Boolean released = jdbcTemplate.queryForObject("SELECT pg_advisory_unlock(?)", Boolean.class, id); // may: unpinned-session-lock
        return Boolean.TRUE.equals(released);
    }

    /** Whether some session, this one or another, holds the lock right now. */
    public boolean isHeld(long id) {
        Integer holders = jdbcTemplate.queryForObject(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                        + "AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = ?",
                Integer.class, id);
        return holders != null && holders > 0;
    }
}
