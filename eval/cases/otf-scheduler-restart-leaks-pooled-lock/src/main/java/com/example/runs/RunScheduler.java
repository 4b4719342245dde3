// Case: otf's run scheduler held a session-level advisory lock so that one replica schedules at a time; when the scheduler stopped on an error, which happens in the normal flow and is followed by a restart, it did not release the lock, so the restarted scheduler could never obtain it again. The fix released the lock when the scheduler exits.
// Source: https://github.com/leg100/otf/pull/348
// Kind: bug
// Expected: start() takes pg_try_advisory_lock on a connection borrowed from the Hikari pool and unlocks only after its scheduling loop ends normally (stop()). When scheduleRuns throws, try-with-resources closes the connection, which only returns it to the pool: the session and its lock live on (F1, F13). SchedulerSupervisor.runForever catches the error and calls start() again, which borrows another pooled connection and polls the try-lock forever, since an idle session of its own pool holds the key (or, handed the same session back, stacks the lock a second time, F4). Unlock in a finally block before the connection is closed.
package com.example.runs;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

public class RunScheduler {

    private static final long SCHEDULER_LOCK_ID = 4_242L;

    private final HikariDataSource dataSource;
    private volatile boolean stopping;

    public RunScheduler(HikariDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Waits to become the only scheduler of the cluster, then schedules runs until an error stops it. */
    public void start() throws SQLException, InterruptedException {
        try (Connection conn = dataSource.getConnection();
             PreparedStatement tryLock = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: lock-without-finally-unlock
            tryLock.setLong(1, SCHEDULER_LOCK_ID);
            while (true) {
                try (ResultSet rs = tryLock.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        break;
                    }
                }
                Thread.sleep(1_000);              // another replica schedules: wait for it to go away
            }
            while (!stopping) {
                scheduleRuns(conn);               // throws on errors, part of the normal flow
                Thread.sleep(500);
            }
            try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                unlock.setLong(1, SCHEDULER_LOCK_ID);
                unlock.executeQuery().close();
            }
        }
    }

    public void stop() {
        stopping = true;
    }

    private void scheduleRuns(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "UPDATE runs SET status = 'scheduled' WHERE status = 'pending' AND workspace_id NOT IN "
                        + "(SELECT workspace_id FROM runs WHERE status IN ('scheduled', 'running'))")) {
            ps.executeUpdate();
        }
    }
}
