// Case: que-web's "reschedule failed job" action locked, changed and unlocked the job in one statement; the advisory-lock call sat where PostgreSQL evaluated it once per row of the jobs table, so with more than one job present the job's key was taken N times and released once, and the rescheduled job stayed locked by the web process (shown as running, never worked) until that process exited.
// Source: https://github.com/statianzo/que-web/issues/34
// Kind: bug
// Expected: the try-lock of the job's key is a predicate of the UPDATE's WHERE next to job_id = ?; the planner may evaluate it for every row it scans, not only the matching one, and each true result stacks (F4), while RETURNING unlocks once: the key stays held by the pooled session behind the template. Lock in the select list of a query that has already found the row by id, then update, then unlock on the same connection.
package com.example.queadmin;

import java.time.OffsetDateTime;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

@Repository
public class JobAdminRepository {

    private final JdbcTemplate jdbc;

    public JobAdminRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Moves a failed job's run_at; false when a worker is running it right now. */
    public boolean reschedule(long jobId, OffsetDateTime runAt) {
        List<Boolean> released = jdbc.queryForList(
                "UPDATE que_jobs SET run_at = ? "
                        + "WHERE job_id = ? AND pg_try_advisory_lock(?) " // want: lock-in-row-filter // may: unpinned-session-lock|lock-without-finally-unlock|unlock-mismatch
                        + "RETURNING pg_advisory_unlock(job_id)",
                Boolean.class, runAt, jobId, jobId);
        return !released.isEmpty();
    }
}
