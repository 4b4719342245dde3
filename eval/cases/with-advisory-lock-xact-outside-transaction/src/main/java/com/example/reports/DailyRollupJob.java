package com.example.reports;

import com.example.locks.AdvisoryLocks;
import java.time.LocalDate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class DailyRollupJob {

    private static final Logger log = LoggerFactory.getLogger(DailyRollupJob.class);
    private static final long ROLLUP_LOCK = 88_120_001L;

    private final AdvisoryLocks locks;
    private final JdbcTemplate jdbc;

    public DailyRollupJob(AdvisoryLocks locks, JdbcTemplate jdbc) {
        this.locks = locks;
        this.jdbc = jdbc;
    }

    @Scheduled(cron = "0 15 0 * * *")   // every instance of the service fires this
    public void rollUpYesterday() {
        LocalDate day = LocalDate.now().minusDays(1);
        var result = locks.withTransactionLock(ROLLUP_LOCK, () -> {
            jdbc.update("DELETE FROM daily_sales WHERE day = ?", day);
            return jdbc.update(
                    "INSERT INTO daily_sales(day, store_id, total) "
                    + "SELECT ?, store_id, sum(amount) FROM orders WHERE created_at::date = ? GROUP BY store_id",
                    day, day);
        });
        if (!result.lockAcquired()) {
            log.info("rollup for {} already running on another instance", day);
        }
    }
}
