// Case: backend.ai's manager adapted its database's advisory-lock scope to the distributed-lock interface its global timers use, but acquire and release each built a new scope: release never reached the pooled connection that acquire had locked on.
// Source: https://github.com/lablup/backend.ai-manager/pull/571
// Kind: bug
// Expected: acquire() opens a fresh AdvisoryLockScope, which borrows a pooled connection and takes the session-level pg_advisory_lock on it, and then drops the scope: nothing keeps the connection or will ever unlock it. release() builds another scope that never opened, and its close() does nothing, so the lock stays held by a connection checked out of the pool and never returned (F1). The timer's next turn (on this instance, or on any other) borrows a different connection and waits in pg_advisory_lock behind that leaked session until lock_timeout ends the wait with 55P03, turn after turn: after the first tick no manager instance produces the schedule event again until the process that leaked the connection exits (Hikari never reclaims a connection that is not returned, so maxLifetime does not end that session either). Keep the scope that acquire() opened and close that same scope in release().
package com.example.manager;

import java.sql.SQLException;

/** The PostgreSQL flavour of the global timers' distributed lock: a session-level advisory lock on one key. */
public class PgAdvisoryLock implements GlobalTimer.DistributedLock {

    private final Database db;
    private final long lockId;

    public PgAdvisoryLock(Database db, long lockId) {
        this.db = db;
        this.lockId = lockId;
    }

    @Override
    public void acquire() throws SQLException {
        db.advisoryLock(lockId).open(); // want: lock-without-finally-unlock
    }

    @Override
    public void release() throws SQLException {
        db.advisoryLock(lockId).close(); // may: unlock-mismatch
    }

    @Override
    public String toString() {
        return "PgAdvisoryLock(" + lockId + ")";
    }
}
