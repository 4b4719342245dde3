// Case: before openworkflow switched to a transaction-level lock, idempotent workflow-run creation reserved one pooled connection and held a session-level pg_advisory_lock(hashtextextended(scope, 0)) around the lookup and the insert; users running behind PgBouncer in transaction mode asked for the change because session locks do not work there.
// Source: https://github.com/openworkflowdev/openworkflow/pull/609
// Kind: bug
// Expected: the connection is pinned on the client side only: with pool_mode = transaction (pgbouncer.ini, port 6432) each autocommit statement may run on another server connection, so the session lock stays on whichever backend took it, the lookup and insert run unprotected, and the unlock in finally lands elsewhere and is swallowed (F10). Use pg_advisory_xact_lock inside one transaction.
package com.example.workflows;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;

public class WorkflowRunStore {

    private static final Duration IDEMPOTENCY_PERIOD = Duration.ofDays(1);

    private final DataSource dataSource;
    private final String namespaceId = "default";

    public WorkflowRunStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public UUID createRun(String workflowName, String idempotencyKey, String inputJson) throws SQLException {
        String lockScope = namespaceId + ":" + workflowName.length() + ":" + workflowName + ":" + idempotencyKey;
        try (Connection reserved = dataSource.getConnection()) {
            try (PreparedStatement lock = reserved.prepareStatement(advisoryCall("pg_advisory_lock"))) { // want: session-lock-under-transaction-pooling
                lock.setString(1, lockScope);
                lock.execute();
            }
            try {
                UUID existing = findByIdempotencyKey(reserved, workflowName, idempotencyKey);
                return existing != null ? existing : insertRun(reserved, workflowName, idempotencyKey, inputJson);
            } finally {
                try (PreparedStatement unlock = reserved.prepareStatement(advisoryCall("pg_advisory_unlock"))) { // want: session-lock-under-transaction-pooling
                    unlock.setString(1, lockScope);
                    unlock.execute();
                } catch (SQLException ignored) {
                    // best effort: closing the session also releases session locks
                }
            }
        }
    }

    /** One place that spells the key expression, so lock and unlock always hash the scope the same way. */
    private static String advisoryCall(String function) {
        return "SELECT " + function + "(hashtextextended(?, 0::bigint))";
    }

    private UUID findByIdempotencyKey(Connection c, String workflowName, String idempotencyKey) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id FROM openworkflow.workflow_runs WHERE namespace_id = ? AND workflow_name = ?"
                    + " AND idempotency_key = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 1")) {
            ps.setString(1, namespaceId);
            ps.setString(2, workflowName);
            ps.setString(3, idempotencyKey);
            ps.setTimestamp(4, Timestamp.from(Instant.now().minus(IDEMPOTENCY_PERIOD)));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getObject(1, UUID.class) : null;
            }
        }
    }

    private UUID insertRun(Connection c, String workflowName, String idempotencyKey, String inputJson) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO openworkflow.workflow_runs (namespace_id, id, workflow_name, status, idempotency_key, input, created_at)"
                    + " VALUES (?, gen_random_uuid(), ?, 'pending', ?, ?::jsonb, now()) RETURNING id")) {
            ps.setString(1, namespaceId);
            ps.setString(2, workflowName);
            ps.setString(3, idempotencyKey);
            ps.setString(4, inputJson);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getObject(1, UUID.class);
            }
        }
    }
}
