package com.example.workflows;

/** Statements of the workflow-run store. */
final class WorkflowSql {

    static final String LOCK_IDEMPOTENCY_SCOPE =
        "SELECT pg_advisory_xact_lock(hashtextextended(?, 0::bigint))"; // may: blocking-lock-without-timeout

    static final String FIND_BY_IDEMPOTENCY_KEY =
        "SELECT id FROM openworkflow.workflow_runs"
            + " WHERE namespace_id = ? AND workflow_name = ? AND idempotency_key = ? AND created_at >= ?"
            + " ORDER BY created_at DESC LIMIT 1";

    static final String INSERT_RUN =
        "INSERT INTO openworkflow.workflow_runs (namespace_id, id, workflow_name, status, idempotency_key, input, created_at)"
            + " VALUES (?, gen_random_uuid(), ?, 'pending', ?, ?::jsonb, now()) RETURNING id";

    private WorkflowSql() {
    }
}
