// Case: dstack serialises making an export global against creating projects with a session-level pg_advisory_lock taken through a lock helper on the request's transaction, and the guarded code commits before the helper's finally block unlocks ("commit before releasing the lock"), so the unlock runs on whatever pooled connection it gets next and the lock stays on the connection the commit gave back to the pool.
// Source: https://github.com/dstackai/dstack/issues/3881
// Kind: bug
// Expected: GlobalExportsLock.hold runs pg_advisory_lock through JdbcTemplate inside the caller's programmatic transaction, so the session lock lands on the transaction's connection. The body then commits that transaction, and the transaction manager hands the connection back to the pool still holding the session lock (F1, F13). The pg_advisory_unlock in hold's finally block runs after the commit, outside any transaction, on a connection JdbcTemplate borrows anew: on another session it returns false with a WARNING (F7) and releases nothing. The next createProject or global export on another pooled connection then waits in pg_advisory_lock for ever (the hang of the issue), while one that happens to get the holding connection takes the lock again and stacks it (F4). The fix uses pg_advisory_xact_lock in the transaction, released by its commit.
package com.example.exports;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;

public class ExportService {

    private final PlatformTransactionManager txManager;
    private final JdbcTemplate jdbc;
    private final GlobalExportsLock globalExportsLock;

    public ExportService(PlatformTransactionManager txManager, JdbcTemplate jdbc, GlobalExportsLock globalExportsLock) {
        this.txManager = txManager;
        this.jdbc = jdbc;
        this.globalExportsLock = globalExportsLock;
    }

    /** Creates an export of a project; a global export is imported into every other project at once. */
    public long createExport(long projectId, String projectName, String name, boolean global, boolean callerIsAdmin) {
        TransactionStatus tx = txManager.getTransaction(TransactionDefinition.withDefaults());
        try {
            // export names are unique per project: serialise creations in this project until commit
            jdbc.query("SELECT pg_advisory_xact_lock(?)", rs -> null, GlobalExportsLock.lockId("export_names_" + projectName));
            Integer existing = jdbc.queryForObject(
                    "SELECT count(*) FROM exports WHERE project_id = ? AND name = ?", Integer.class, projectId, name);
            if (existing != null && existing > 0) {
                throw new IllegalArgumentException("Export " + name + " already exists in project " + projectName);
            }
            Long exportId = jdbc.queryForObject(
                    "INSERT INTO exports (project_id, name, is_global) VALUES (?, ?, FALSE) RETURNING id",
                    Long.class, projectId, name);
            if (global) {
                globalExportsLock.hold(() -> {
                    setAsGlobal(exportId, projectId, callerIsAdmin);
                    txManager.commit(tx); // commit before releasing the lock
                });
            } else {
                txManager.commit(tx);
            }
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
            Long projectId = jdbc.queryForObject(
                    "INSERT INTO projects (name, owner_id) VALUES (?, ?) RETURNING id", Long.class, name, ownerId);
            globalExportsLock.hold(() -> {
                jdbc.update("INSERT INTO imports (project_id, export_id) SELECT ?, e.id FROM exports e WHERE e.is_global",
                        projectId);
                txManager.commit(tx); // commit before releasing the lock
            });
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
}
