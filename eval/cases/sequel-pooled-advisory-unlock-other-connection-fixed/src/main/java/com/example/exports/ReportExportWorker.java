// Case: the fix the Sequel user settled on: the per-job lock becomes pg_try_advisory_xact_lock taken inside a database transaction that also does the work, so the lock, the work and the release all happen on the one connection the transaction holds.
// Source: https://github.com/jeremyevans/sequel/issues/1879
// Kind: correct
// Expected: nothing to report. The TransactionTemplate binds one pooled connection for the whole callback; the transaction-level try-lock is taken on it, its result decides whether the export runs, the status check, the rendering and the status update run inside the same transaction, and the COMMIT (or the ROLLBACK when a statement throws) releases the lock on the connection that took it, before the pool gets the connection back. Nothing is unlocked by hand.
package com.example.exports;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Renders requested report exports; every instance polls, and a per-export lock keeps one worker on each. */
@Component
public class ReportExportWorker {

    private static final Logger log = LoggerFactory.getLogger(ReportExportWorker.class);
    private static final int EXPORT_LOCK_NAMESPACE = 1;

    /** Builds one export and stores the file (minutes for the large reports); returns where it can be downloaded. */
    public interface ReportRenderer {
        String render(int exportId, String reportType, String paramsJson);
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final ReportRenderer renderer;
    private final ExecutorService workers = Executors.newFixedThreadPool(8);

    public ReportExportWorker(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, ReportRenderer renderer) {
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(transactionManager);
        this.renderer = renderer;
    }

    @Scheduled(fixedDelay = 30_000)
    public void dispatchPending() {
        List<Integer> pending = jdbc.queryForList(
                "SELECT id FROM report_exports WHERE status = 'pending' ORDER BY requested_at", Integer.class);
        for (int exportId : pending) {
            workers.submit(() -> exportOne(exportId));
        }
    }

    void exportOne(int exportId) {
        tx.executeWithoutResult(status -> {
            Boolean locked = jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?, ?)", Boolean.class,
                    EXPORT_LOCK_NAMESPACE, exportId);
            if (!Boolean.TRUE.equals(locked)) {
                log.debug("export {} is being rendered by another worker", exportId);
                return;
            }
            Map<String, Object> request = jdbc.queryForMap(
                    "SELECT report_type, params, status FROM report_exports WHERE id = ?", exportId);
            if (!"pending".equals(request.get("status"))) {
                return;
            }
            try {
                String location = renderer.render(exportId, (String) request.get("report_type"), (String) request.get("params"));
                jdbc.update("UPDATE report_exports SET status = 'done', location = ?, finished_at = now() WHERE id = ?",
                        location, exportId);
                log.info("export {} written to {}", exportId, location);
            } catch (RuntimeException e) {
                // the renderer touches no table here, so the transaction is still usable: record the failure in it
                log.error("export {} failed", exportId, e);
                jdbc.update("UPDATE report_exports SET status = 'failed', finished_at = now() WHERE id = ?", exportId);
            }
        });
    }
}
