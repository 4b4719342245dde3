// Case: que-web's fix: find the job by id and take its lock in that query's select list, so the lock runs only for the row found, then update it in a second statement and release the lock in a third, all on one connection.
// Source: https://github.com/statianzo/que-web/pull/35
// Kind: correct
// Expected: nothing to report: the try-lock is evaluated in the select list of a query filtered on the job's id (no LIMIT, not in a predicate), its result decides whether the update runs, and the unlock runs in a finally on the same connection only when the lock was taken, before the connection is closed.
package com.example.queadmin;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import javax.sql.DataSource;
import org.springframework.stereotype.Repository;

@Repository
public class JobAdminRepository {

    private final DataSource dataSource;

    public JobAdminRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Moves a failed job's run_at; false when the job is gone or a worker is running it right now. */
    public boolean reschedule(long jobId, OffsetDateTime runAt) throws SQLException {
        try (Connection conn = dataSource.getConnection()) {
            boolean locked;
            try (PreparedStatement lock = conn.prepareStatement(
                    "SELECT pg_try_advisory_lock(job_id) FROM que_jobs WHERE job_id = ?")) {
                lock.setLong(1, jobId);
                try (ResultSet rs = lock.executeQuery()) {
                    locked = rs.next() && rs.getBoolean(1);
                }
            }
            if (!locked) {
                return false;
            }
            try {
                try (PreparedStatement update = conn.prepareStatement("UPDATE que_jobs SET run_at = ? WHERE job_id = ?")) {
                    update.setObject(1, runAt);
                    update.setLong(2, jobId);
                    return update.executeUpdate() == 1;
                }
            } finally {
                try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    unlock.setLong(1, jobId);
                    unlock.executeQuery().close();
                }
            }
        }
    }
}
