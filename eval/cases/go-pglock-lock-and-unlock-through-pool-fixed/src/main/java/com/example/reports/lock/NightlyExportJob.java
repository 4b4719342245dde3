package com.example.reports.lock;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Writes the previous day's usage report to the warehouse. Every instance schedules it; the advisory lock lets one
 * of them run it and the others skip.
 */
@Component
public class NightlyExportJob {

    private static final Logger log = LoggerFactory.getLogger(NightlyExportJob.class);

    /** Used by this job only. */
    static final long EXPORT_LOCK_ID = 7_340_031L;

    public interface UsageExporter {
        int export(LocalDate day);
    }

    private final HikariDataSource dataSource;
    private final UsageExporter exporter;
    private final Clock clock;

    public NightlyExportJob(HikariDataSource dataSource, UsageExporter exporter, Clock clock) {
        this.dataSource = dataSource;
        this.exporter = exporter;
        this.clock = clock;
    }

    @Scheduled(cron = "0 15 2 * * *")
    public void run() throws SQLException {
        Connection conn = dataSource.getConnection();
        boolean clean = false;   // true once the connection is known to hold no lock
        try {
            AdvisoryLock lock = new AdvisoryLock(conn);
            if (!lock.lock(EXPORT_LOCK_ID)) {
                clean = true;
                log.info("Nightly export is running on another instance, skipping");
                return;
            }
            try {
                LocalDate day = LocalDate.now(clock).minusDays(1);
                int rows = exporter.export(day);
                log.info("Exported {} usage rows for {}", rows, day);
            } finally {
                clean = lock.unlock(EXPORT_LOCK_ID);
                if (!clean) {
                    log.warn("Export lock {} was not held at unlock", EXPORT_LOCK_ID);
                }
            }
        } finally {
            if (clean) {
                conn.close();
            } else {
                dataSource.evictConnection(conn);   // ends the session, and any lock it still holds
            }
        }
    }
}
