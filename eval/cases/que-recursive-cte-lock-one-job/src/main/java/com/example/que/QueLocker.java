// Case: Que documents why its lock_job query walks the jobs table with a recursive CTE, one candidate at a time, instead of "SELECT ..., pg_try_advisory_lock(id) FROM jobs LIMIT 1", which could lock every job it reads
// Source: https://github.com/que-rb/que/pull/108
// Kind: correct
// Expected: correct: each step of the recursive CTE reads one candidate row through an inner ORDER BY ... LIMIT 1 subquery and only then calls pg_try_advisory_lock on it in the select list; the recursion stops at the first granted lock because the outer LIMIT 1 pulls rows lazily, and the job lock is released in finally on the same session.
package com.example.que;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

public class QueLocker {

    private static final String LOCK_JOB_SQL =
            "WITH RECURSIVE cand AS ( "
            + "  SELECT (j).*, pg_try_advisory_lock((j).job_id) AS locked "              // may: lock-in-limit-query
            + "  FROM (SELECT j FROM que_jobs AS j "
            + "        WHERE queue = ? AND run_at <= now() "
            + "        ORDER BY priority, run_at, job_id LIMIT 1) AS first_row "
            + "  UNION ALL ( "
            + "    SELECT (j).*, pg_try_advisory_lock((j).job_id) AS locked "            // may: lock-in-limit-query
            + "    FROM (SELECT (SELECT j FROM que_jobs AS j "
            + "                  WHERE queue = ? AND run_at <= now() "
            + "                    AND (priority, run_at, job_id) > (cand.priority, cand.run_at, cand.job_id) "
            + "                  ORDER BY priority, run_at, job_id LIMIT 1) AS j "
            + "          FROM cand WHERE NOT cand.locked LIMIT 1) AS next_row "
            + "    WHERE (j).job_id IS NOT NULL) "
            + ") "
            + "SELECT job_id, job_class, args FROM cand WHERE locked LIMIT 1";

    private final Connection conn;     // the worker's own connection, autocommit on

    public QueLocker(Connection conn) {
        this.conn = conn;
    }

    public boolean workOne(String queue, JobRunner runner) throws SQLException {
        long jobId;
        String jobClass;
        String args;
        try (PreparedStatement ps = conn.prepareStatement(LOCK_JOB_SQL)) {
            ps.setString(1, queue);
            ps.setString(2, queue);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;                  // nothing unlocked to work
                }
                jobId = rs.getLong("job_id");
                jobClass = rs.getString("job_class");
                args = rs.getString("args");
            }
        }
        try {
            runner.run(conn, jobId, jobClass, args);
        } finally {
            if (!conn.getAutoCommit()) {
                conn.rollback();               // a job that failed mid-transaction must not leave it aborted
                conn.setAutoCommit(true);
            }
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                ps.setLong(1, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        throw new IllegalStateException("job " + jobId + " lock was not held");
                    }
                }
            }
        }
        return true;
    }

    public interface JobRunner {
        void run(Connection conn, long jobId, String jobClass, String args) throws SQLException;
    }
}
