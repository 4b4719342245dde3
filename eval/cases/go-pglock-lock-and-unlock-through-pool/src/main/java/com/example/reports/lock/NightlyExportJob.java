package com.example.reports.lock;

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

    private final AdvisoryLock locker;
    private final UsageExporter exporter;
    private final Clock clock;

    public NightlyExportJob(AdvisoryLock locker, UsageExporter exporter, Clock clock) {
        this.locker = locker;
        this.exporter = exporter;
        this.clock = clock;
    }

    @Scheduled(cron = "0 15 2 * * *")
    public void run() {
        if (!locker.lock(EXPORT_LOCK_ID)) {
            log.info("Nightly export is running on another instance, skipping");
            return;
        }
        try {
            LocalDate day = LocalDate.now(clock).minusDays(1);
            int rows = exporter.export(day);
            log.info("Exported {} usage rows for {}", rows, day);
        } finally {
            if (!locker.unlock(EXPORT_LOCK_ID)) {
                log.warn("Export lock {} was not held at unlock", EXPORT_LOCK_ID);
            }
        }
    }
}
