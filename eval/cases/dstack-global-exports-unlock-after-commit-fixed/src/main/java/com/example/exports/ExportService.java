// Case: dstack's fix for its global exports lock: instead of a session-level lock held across a commit and released afterwards, every path that makes an export global or creates a project takes pg_advisory_xact_lock in its own transaction before the work and lets the commit or rollback release it.
// Source: https://github.com/dstackai/dstack/pull/3882
// Kind: correct
// Expected: nothing to report. Each method opens one programmatic transaction; JdbcTemplate runs every statement on that transaction's connection, so each pg_advisory_xact_lock is held from its call until txManager.commit or the rollback in finally (F2), with no unlock to run on another connection and no lock left on a pooled connection. The work the global lock protects (importing a new global export into every project, importing the global exports into a new project) runs after the lock and commits with it, so a concurrent creator sees it committed once it gets the lock. createExport takes the per-project names lock before the global one, createProject only the global one, so no two transactions take them in opposite orders. The keys are SHA-256 of fixed or per-project names reduced to a non-negative bigint.
package com.example.exports;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;

public class ExportService {

    static final String GLOBAL_EXPORTS_LOCK_NAMESPACE = "global_exports";

    private static final String LOCK_SQL = "SELECT pg_advisory_xact_lock(?)";
    private static final BigInteger TWO_TO_63 = BigInteger.ONE.shiftLeft(63);

    private final PlatformTransactionManager txManager;
    private final JdbcTemplate jdbc;

    public ExportService(PlatformTransactionManager txManager, JdbcTemplate jdbc) {
        this.txManager = txManager;
        this.jdbc = jdbc;
    }

    /** Creates an export of a project; a global export is imported into every other project at once. */
    public long createExport(long projectId, String projectName, String name, boolean global, boolean callerIsAdmin) {
        TransactionStatus tx = txManager.getTransaction(TransactionDefinition.withDefaults());
        try {
            // export names are unique per project: serialise creations in this project until commit
            jdbc.query(LOCK_SQL, rs -> null, lockId("export_names_" + projectName));
            if (global) {
                // no project may be created until this export's imports are committed
                jdbc.query(LOCK_SQL, rs -> null, lockId(GLOBAL_EXPORTS_LOCK_NAMESPACE));
            }
            Integer existing = jdbc.queryForObject(
                    "SELECT count(*) FROM exports WHERE project_id = ? AND name = ?", Integer.class, projectId, name);
            if (existing != null && existing > 0) {
                throw new IllegalArgumentException("Export " + name + " already exists in project " + projectName);
            }
            Long exportId = jdbc.queryForObject(
                    "INSERT INTO exports (project_id, name, is_global) VALUES (?, ?, FALSE) RETURNING id",
                    Long.class, projectId, name);
            if (global) {
                setAsGlobal(exportId, projectId, callerIsAdmin);
            }
            txManager.commit(tx);
            return exportId;
        } finally {
            if (!tx.isCompleted()) {
                txManager.rollback(tx);
            }
        }
    }

    /** Creates a project and imports every global export into it. */
    public long createProject(String name, long ownerId) {
        TransactionStatus tx = txManager.getTransaction(TransactionDefinition.withDefaults());
        try {
            jdbc.query(LOCK_SQL, rs -> null, lockId(GLOBAL_EXPORTS_LOCK_NAMESPACE));
            Long projectId = jdbc.queryForObject(
                    "INSERT INTO projects (name, owner_id) VALUES (?, ?) RETURNING id", Long.class, name, ownerId);
            jdbc.update("INSERT INTO imports (project_id, export_id) SELECT ?, e.id FROM exports e WHERE e.is_global",
                    projectId);
            txManager.commit(tx);
            return projectId;
        } finally {
            if (!tx.isCompleted()) {
                txManager.rollback(tx);
            }
        }
    }

    /** Must run under the global exports lock, so that no project is created while the imports are added. */
    private void setAsGlobal(long exportId, long ownerProjectId, boolean callerIsAdmin) {
        if (!callerIsAdmin) {
            throw new SecurityException("Only global admins can make an export global");
        }
        jdbc.update("INSERT INTO imports (project_id, export_id) SELECT p.id, ? FROM projects p "
                + "WHERE p.id <> ? AND NOT p.deleted "
                + "AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.project_id = p.id AND i.export_id = ?)",
                exportId, ownerProjectId, exportId);
        jdbc.update("UPDATE exports SET is_global = TRUE WHERE id = ?", exportId);
    }

    /** SHA-256 of the name, reduced to a non-negative bigint: the same key on every replica. */
    static long lockId(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return new BigInteger(1, digest).mod(TWO_TO_63).longValue();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
