// Case: openworkflow replaced the session-level lock around idempotent workflow-run creation (which needed a direct connection) with pg_advisory_xact_lock(hashtextextended(scope, 0)) inside a READ COMMITTED transaction, so the check-then-insert works behind PgBouncer in transaction mode.
// Source: https://github.com/openworkflowdev/openworkflow/pull/609
// Kind: correct
// Expected: nothing to report: the transaction-level lock is taken first inside TransactionTemplate.execute, the lookup and the insert run in the same transaction on the same connection, the lock ends at commit (after the insert is visible) or rollback, PgBouncer keeps the whole transaction on one server connection, and the key is a 64-bit hashtextextended of the scope.
package com.example.workflows;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

@Repository
public class WorkflowRunStore {

    private static final Duration IDEMPOTENCY_PERIOD = Duration.ofDays(1);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final String namespaceId;

    public WorkflowRunStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(transactionManager);
        this.tx.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        this.namespaceId = "default";
    }

    public UUID createRun(String workflowName, String idempotencyKey, String inputJson) {
        if (idempotencyKey == null) {
            return insertRun(workflowName, null, inputJson);
        }
        String lockScope = namespaceId + ":" + workflowName.length() + ":" + workflowName + ":" + idempotencyKey;
        return tx.execute(status -> {
            jdbc.queryForList(WorkflowSql.LOCK_IDEMPOTENCY_SCOPE, lockScope); // may: blocking-lock-without-timeout
            List<UUID> existing = jdbc.queryForList(WorkflowSql.FIND_BY_IDEMPOTENCY_KEY, UUID.class,
                namespaceId, workflowName, idempotencyKey, Timestamp.from(Instant.now().minus(IDEMPOTENCY_PERIOD)));
            if (!existing.isEmpty()) {
                return existing.get(0);
            }
            return insertRun(workflowName, idempotencyKey, inputJson);
        });
    }

    private UUID insertRun(String workflowName, String idempotencyKey, String inputJson) {
        return jdbc.queryForObject(WorkflowSql.INSERT_RUN, UUID.class, namespaceId, workflowName, idempotencyKey, inputJson);
    }
}
