package com.acme.invoice.settlement;

import com.acme.invoice.locking.LockKeys;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Month-end settlement. Closing the ledger and paying out both need the ledger and the payout batch;
 * both methods take the two keys in the same order (ledger first), as the key registry says, so they
 * can never wait on each other. {@code pg-advisory-lint graph} draws this order.
 */
@Component
public class SettlementJob {

    private final JdbcTemplate jdbc;

    public SettlementJob(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Closes the month: ledger, then payouts, in one transaction. */
    @Scheduled(cron = "0 30 0 1 * *")
    @Transactional
    public void closeMonth() {
        jdbc.queryForObject("SELECT pg_advisory_xact_lock(?)", Object.class, LockKeys.LEDGER_CLOSE);
        jdbc.queryForObject("SELECT pg_advisory_xact_lock(?)", Object.class, LockKeys.PAYOUT_BATCH);
        jdbc.update("UPDATE ledger_months SET closed = true WHERE closed = false");
        jdbc.update("UPDATE payouts SET batch_closed = true WHERE batch_closed = false");
    }

    /** Pays out a batch; it also reads the ledger, so it takes the ledger key first too. */
    @Transactional
    public void payOut(long batchId) {
        jdbc.queryForObject("SELECT pg_advisory_xact_lock(?)", Object.class, LockKeys.LEDGER_CLOSE);
        jdbc.queryForObject("SELECT pg_advisory_xact_lock(?)", Object.class, LockKeys.PAYOUT_BATCH);
        jdbc.update("UPDATE payouts SET paid = true WHERE batch_id = ?", batchId);
    }
}
