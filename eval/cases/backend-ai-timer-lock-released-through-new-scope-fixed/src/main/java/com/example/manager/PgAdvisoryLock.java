// Case: the backend.ai fix: the PostgreSQL distributed lock keeps the advisory-lock scope that acquire() opened and closes that same scope in release(), so the unlock runs on the pooled connection that holds the lock.
// Source: https://github.com/lablup/backend.ai-manager/pull/571
// Kind: correct
// Expected: nothing to report. acquire() keeps the opened AdvisoryLockScope in a field; the scope holds the one pooled connection that took the session-level pg_advisory_lock, and release() closes that scope, which runs pg_advisory_unlock on the same connection (autocommit, no transaction to abort) and only then returns the connection to the pool. GlobalTimer calls release() in a finally block right after a successful acquire(), on its single timer thread, so every acquired lock is released on every path (F1, F13); a failed acquire() (55P03 after lock_timeout) closes its connection inside open() and leaves no scope behind. A release() without a held scope is a programming error and fails loudly rather than unlocking anything. Each timer has its own lock id.
package com.example.manager;

import java.sql.SQLException;

/** The PostgreSQL flavour of the global timers' distributed lock: a session-level advisory lock on one key. */
public class PgAdvisoryLock implements GlobalTimer.DistributedLock {

    private final Database db;
    private final long lockId;
    private Database.AdvisoryLockScope scope;

    public PgAdvisoryLock(Database db, long lockId) {
        this.db = db;
        this.lockId = lockId;
    }

    @Override
    public void acquire() throws SQLException {
        Database.AdvisoryLockScope opened = db.advisoryLock(lockId);
        opened.open();
        scope = opened;
    }

    @Override
    public void release() throws SQLException {
        if (scope == null) {
            throw new IllegalStateException(this + " released without being acquired");
        }
        try {
            scope.close();
        } finally {
            scope = null;
        }
    }

    @Override
    public String toString() {
        return "PgAdvisoryLock(" + lockId + ")";
    }
}
