package com.acme.invoice.search;

import com.acme.invoice.locking.LockKeys;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Recomputes the full-text search vector of invoices changed since the last run, every five minutes.
 * A run can take longer than five minutes; the next run then finds the lock taken and skips.
 *
 * <p>Correct session-lock pattern: the try-lock is the first statement of a {@code try} whose
 * {@code finally} unlocks, on the same connection, only when the lock was acquired. A failed
 * reindex still releases the lock before the connection returns to the pool.
 */
@Component
public class SearchReindexCron {

    private static final Logger log = LoggerFactory.getLogger(SearchReindexCron.class);

    private final DataSource dataSource;

    public SearchReindexCron(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Reindexes changed invoices unless a previous run is still going. */
    @Scheduled(fixedDelayString = "PT5M")
    public void reindexChangedInvoices() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement st = connection.createStatement()) {
            boolean acquired = false;
            try {
                try (ResultSet rs = st.executeQuery("SELECT pg_try_advisory_lock(" + LockKeys.SEARCH_REINDEX + ")")) {
                    acquired = rs.next() && rs.getBoolean(1);
                }
                if (!acquired) {
                    log.info("previous reindex still running, skipping this run");
                    return;
                }
                int updated = st.executeUpdate("""
                        UPDATE invoices
                           SET search_vector = to_tsvector('simple', number || ' ' || customer_name || ' ' || coalesce(notes, ''))
                         WHERE updated_at > (SELECT coalesce(max(finished_at), '-infinity') FROM reindex_runs)
                        """);
                st.executeUpdate("INSERT INTO reindex_runs(finished_at, rows_updated) VALUES (now(), " + updated + ")");
                log.info("reindexed {} invoices", updated);
            } finally {
                if (acquired) {
                    st.execute("SELECT pg_advisory_unlock(" + LockKeys.SEARCH_REINDEX + ")");
                }
            }
        }
    }
}
