// Case: a Sequel user guarded work run by several worker processes and threads with pg_try_advisory_lock and a later pg_advisory_unlock, two separate queries through the shared connection pool; the unlock often ran on another pooled connection ("WARNING: you don't own a lock of type ExclusiveLock") and the lock stayed on the first one.
// Source: https://github.com/jeremyevans/sequel/issues/1879
// Kind: bug
// Expected: each JdbcTemplate call outside a transaction borrows a pooled connection and gives it back at once, so the session-level pg_try_advisory_lock stays on whichever connection ran it, and the unlock in finally runs on whichever connection the pool hands out next: usually it returns false with a WARNING and the key stays held by an idle pooled session (one leaked lock per export, kept as long as the pool keeps that connection). While an export runs, its lock sits on a connection that is back in the pool: a worker thread that borrows that connection for its try-lock of the same export gets true (session locks re-enter) and renders it a second time, while workers on other connections are refused. Take pg_try_advisory_xact_lock inside a transaction that also does the work, or hold one connection for the lock, the work and the unlock.
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
    private final ReportRenderer renderer;
    private final ExecutorService workers = Executors.newFixedThreadPool(8);

    public ReportExportWorker(JdbcTemplate jdbc, ReportRenderer renderer) {
        this.jdbc = jdbc;
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
        Boolean locked = jdbc.queryForObject("SELECT pg_try_advisory_lock(?, ?)", Boolean.class, // want: unpinned-session-lock
                EXPORT_LOCK_NAMESPACE, exportId);
        if (!Boolean.TRUE.equals(locked)) {
            log.debug("export {} is being rendered by another worker", exportId);
            return;
        }
        try {
            Map<String, Object> request = jdbc.queryForMap(
                    "SELECT report_type, params, status FROM report_exports WHERE id = ?", exportId);
            if (!"pending".equals(request.get("status"))) {
                return;
            }
            String location = renderer.render(exportId, (String) request.get("report_type"), (String) request.get("params"));
            jdbc.update("UPDATE report_exports SET status = 'done', location = ?, finished_at = now() WHERE id = ?",
                    location, exportId);
            log.info("export {} written to {}", exportId, location);
        } catch (RuntimeException e) {
            log.error("export {} failed", exportId, e);
            jdbc.update("UPDATE report_exports SET status = 'failed', finished_at = now() WHERE id = ?", exportId);
        } finally {
            Boolean released = jdbc.queryForObject("SELECT pg_advisory_unlock(?, ?)", Boolean.class, // may: unlock-mismatch|unpinned-session-lock
                    EXPORT_LOCK_NAMESPACE, exportId);
            if (!Boolean.TRUE.equals(released)) {
                log.warn("export lock {} was not held by this session at release", exportId);
            }
        }
    }
}
