// Case: open-ace's daily statistics recomputation tried for its advisory lock for a while and, when it could not get it, logged a warning and went on "proceeding anyway", so two workers rebuilt the same day's aggregates at the same time.
// Source: https://github.com/open-ace/open-ace/issues/2333
// Kind: bug
// Expected: the transaction-level try-lock is polled until a deadline, and on the false outcome the code only logs and runs the same delete-and-insert it runs under the lock: concurrent workers interleave their rewrites of one day (lost or doubled rows). Skip the run, or fail it, when the lock was not obtained.
package com.example.stats;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class DailyStatsRepository {

    private static final Logger log = LoggerFactory.getLogger(DailyStatsRepository.class);
    private static final int DAILY_STATS_LOCK_NAMESPACE = 41_017;
    private static final int ATTEMPTS = 20;
    private static final long PAUSE_MILLIS = 500L;

    private final DataSource dataSource;

    public DailyStatsRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public void recomputeDay(LocalDate day) throws SQLException, InterruptedException {
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try {
                boolean locked = false;
                for (int attempt = 0; attempt < ATTEMPTS && !locked; attempt++) {
                    try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_xact_lock(?, ?)")) { // want: try-lock-result-ignored
                        ps.setInt(1, DAILY_STATS_LOCK_NAMESPACE);
                        ps.setInt(2, (int) day.toEpochDay());
                        try (ResultSet rs = ps.executeQuery()) {
                            locked = rs.next() && rs.getBoolean(1);
                        }
                    }
                    if (!locked) {
                        Thread.sleep(PAUSE_MILLIS);
                    }
                }
                if (!locked) {
                    log.warn("Could not acquire the daily stats lock for {}, proceeding anyway", day);
                }
                try (PreparedStatement delete = conn.prepareStatement("DELETE FROM daily_stats WHERE day = ?")) {
                    delete.setObject(1, day);
                    delete.executeUpdate();
                }
                try (PreparedStatement insert = conn.prepareStatement(
                        "INSERT INTO daily_stats(day, tool, requests, tokens) "
                                + "SELECT ?, tool, count(*), sum(tokens) FROM usage_events "
                                + "WHERE created_at >= ? AND created_at < ? GROUP BY tool")) {
                    insert.setObject(1, day);
                    insert.setObject(2, day.atStartOfDay());
                    insert.setObject(3, day.plusDays(1).atStartOfDay());
                    insert.executeUpdate();
                }
                conn.commit();
            } catch (SQLException | RuntimeException | InterruptedException e) {
                conn.rollback();
                throw e;
            }
        }
    }
}
