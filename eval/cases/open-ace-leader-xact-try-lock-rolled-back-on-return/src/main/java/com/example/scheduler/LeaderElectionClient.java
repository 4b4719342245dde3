// Case: open-ace's leader election "advisory" strategy took pg_try_advisory_xact_lock through a fetch-one helper whose connection scope rolled back the open transaction and returned the connection to the pool as soon as the SELECT came back: the lock was gone before tryAcquireLeadership even returned true, so every node became leader and ran the job at once.
// Source: https://github.com/open-ace/open-ace/pull/2862
// Kind: bug
// Expected: the transaction-level try-lock runs in a transaction the helper rolls back right after the statement (F2: released at ROLLBACK), so it guards nothing; the caller then runs the scheduled job as "leader" with no lock held. Hold the xact lock in the transaction that runs the job, or use a session lock on a connection kept for the job's duration.
package com.example.scheduler;

import java.sql.SQLException;

public class LeaderElectionClient {

    private final Database db;

    public LeaderElectionClient(Database db) {
        this.db = db;
    }

    /** True when this node may run the job identified by lockId. */
    public boolean tryAcquireLeadership(long lockId) throws SQLException {
        Boolean acquired = db.fetchOne("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, lockId); // want: xact-lock-outside-transaction
        return Boolean.TRUE.equals(acquired);
    }
}
