// Case: runner queue; the claim was fixed to pick one FIFO row under LIMIT before its try-lock, but the stale-lease reaper still try-locks in the WHERE of an ORDER BY ... LIMIT scan
// Source: https://github.com/ShipfoxHQ/shipfox/pull/1138
// Kind: bug
// Expected: the claim is sound (the try-lock runs on the single row the inner LIMIT chose); the reaper's try-lock is a filter under a Sort and
//   LIMIT, so it runs for every row read (F8) and holds transaction locks on executions it never returns until it commits.
package com.example.runners;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

@Repository
public class ClaimAndReapRepository {

    static final String LOCK_PREFIX = "runners_job_execution:";

    private final JdbcTemplate jdbc;

    public ClaimAndReapRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Serializes enqueue retries, release and reconciliation of one execution. */
    void lockExecution(UUID jobExecutionId) {
        jdbc.queryForObject("SELECT pg_advisory_xact_lock(hashtext(?))", Object.class, // may: weak-lock-key-hash
                LOCK_PREFIX + jobExecutionId);
    }

    /** Hands the oldest pending execution that fits the runner's labels to one runner. */
    @Transactional
    public Optional<UUID> claim(UUID workspaceId, String[] runnerLabels, UUID runnerSessionId) {
        List<Map<String, Object>> rows = jdbc.queryForList(
                "SELECT c.id, c.job_execution_id"
                        + " FROM (SELECT id, job_execution_id FROM runners_pending_job_executions"
                        + "       WHERE workspace_id = ? AND required_labels <@ ?::text[]"
                        + "       ORDER BY created_at, id"
                        + "       LIMIT 1"
                        + "       FOR UPDATE SKIP LOCKED) c"
                        + " WHERE pg_try_advisory_xact_lock(" // may: weak-lock-key-hash
                        + "         hashtext('" + LOCK_PREFIX + "' || c.job_execution_id::text))",
                workspaceId, runnerLabels);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        UUID pendingId = (UUID) rows.get(0).get("id");
        UUID jobExecutionId = (UUID) rows.get(0).get("job_execution_id");
        jdbc.update("DELETE FROM runners_pending_job_executions WHERE id = ?", pendingId);
        int inserted = jdbc.update(
                "INSERT INTO runners_running_job_executions (job_execution_id, runner_session_id, started_at)"
                        + " VALUES (?, ?, now()) ON CONFLICT (job_execution_id) DO NOTHING",
                jobExecutionId, runnerSessionId);
        return inserted == 1 ? Optional.of(jobExecutionId) : Optional.empty();
    }

    /** Cron: expires running leases whose runner stopped sending heartbeats. */
    @Transactional
    public List<UUID> expireStuckExecutions(int thresholdSeconds, int firstHeartbeatGraceSeconds, int limit) {
        List<Map<String, Object>> stale = jdbc.queryForList(
                "SELECT id, job_execution_id FROM runners_running_job_executions"
                        + " WHERE ((first_heartbeat_at IS NULL AND last_heartbeat_at <= started_at"
                        + "         AND started_at < now() - make_interval(secs => ?))"
                        + "     OR ((first_heartbeat_at IS NOT NULL OR last_heartbeat_at > started_at)"
                        + "         AND last_heartbeat_at < now() - make_interval(secs => ?)))"
                        + "   AND pg_try_advisory_xact_lock(" // want: lock-in-limit-query
                        + "         hashtext('" + LOCK_PREFIX + "' || job_execution_id::text))" // may: weak-lock-key-hash
                        + " ORDER BY CASE WHEN first_heartbeat_at IS NULL AND last_heartbeat_at <= started_at"
                        + "               THEN started_at ELSE last_heartbeat_at END, id"
                        + " LIMIT ?",
                firstHeartbeatGraceSeconds, thresholdSeconds, limit);
        if (stale.isEmpty()) {
            return List.of();
        }
        List<UUID> executionIds = stale.stream().map(r -> (UUID) r.get("job_execution_id")).toList();
        UUID[] ids = executionIds.toArray(UUID[]::new);
        jdbc.update("DELETE FROM runners_pending_job_executions WHERE job_execution_id = ANY(?)", (Object) ids);
        jdbc.update("DELETE FROM runners_running_job_executions WHERE job_execution_id = ANY(?)", (Object) ids);
        jdbc.update("INSERT INTO runners_outbox (event_type, payload)"
                + " SELECT 'runner.job.lease_expired', jsonb_build_object('jobExecutionId', x)"
                + " FROM unnest(?::uuid[]) AS x", (Object) ids);
        return executionIds;
    }

    /** Terminal workflow state: drop the queue entry and ask the runner to stop. */
    @Transactional
    public void reconcileTerminal(UUID jobExecutionId) {
        lockExecution(jobExecutionId);
        jdbc.update("DELETE FROM runners_pending_job_executions WHERE job_execution_id = ?", jobExecutionId);
        jdbc.update("UPDATE runners_running_job_executions"
                + " SET cancellation_requested_at = COALESCE(cancellation_requested_at, now())"
                + " WHERE job_execution_id = ?", jobExecutionId);
    }
}
