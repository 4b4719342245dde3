// Case: frappe's advisory_lock helper holds a session-level advisory lock (pg_try_advisory_lock polled until a timeout) around a block on the site's database session and releases it in a finally block; ERPNext wraps each (item, warehouse) repost in it, and when a statement of the repost fails (a deadlock, a serialization failure) the transaction is aborted, the unlock in finally fails, and the lock stays held by the session.
// Source: https://github.com/frappe/frappe/pull/40497
// Kind: bug
// Expected: SiteDatabase's connection runs with autocommit off. When a statement inside withAdvisoryLock's block fails (repostPair's SELECT ... FOR UPDATE or UPDATE hits a deadlock, 40P01), the transaction is aborted and the pg_advisory_unlock that unlock() runs in the finally block fails with SQLSTATE 25P02 (F18); that exception replaces the deadlock, and the rollback in run() does not release a session-level lock (F1). The (item, warehouse) key stays locked by this worker's long-lived session: every other worker that reposts the same pair polls for the whole 600 s timeout and fails, and this worker re-takes the key on its next repost, stacking it (F4), so its one unlock never frees it. Roll back before unlocking (or end the session) when the unlock fails.
package com.example.stock;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Background job: recomputes the running balances of stock ledger entries posted after a back-dated entry. */
public class LedgerRepostJob {

    public record ItemWarehouse(String itemCode, String warehouse) {
    }

    static final Duration REPOST_LOCK_TIMEOUT = Duration.ofSeconds(600);

    private static final Logger log = LoggerFactory.getLogger(LedgerRepostJob.class);

    private final SiteDatabase db;

    public LedgerRepostJob(SiteDatabase db) {
        this.db = db;
    }

    /** Called by the worker for one queued repost; a failure is rolled back and the repost re-queued. */
    public void run(List<ItemWarehouse> affected, LocalDateTime from) throws SQLException {
        try {
            for (ItemWarehouse pair : affected) {
                // serialise reposts of one (item, warehouse) across workers, in front of the row locks
                db.withAdvisoryLock("repost:" + pair.itemCode() + ":" + pair.warehouse(), REPOST_LOCK_TIMEOUT, () -> {
                    repostPair(pair, from);
                    db.commit();
                });
            }
        } catch (SQLException | RuntimeException e) {
            log.warn("Repost from {} failed, rolling back", from, e);
            db.rollback();
            throw e;
        }
    }

    private void repostPair(ItemWarehouse pair, LocalDateTime from) throws SQLException {
        BigDecimal qty = BigDecimal.ZERO;
        BigDecimal value = BigDecimal.ZERO;
        try (PreparedStatement ps = db.connection().prepareStatement(
                "SELECT qty_after_transaction, stock_value FROM stock_ledger_entry "
                        + "WHERE item_code = ? AND warehouse = ? AND posting_datetime < ? AND is_cancelled = 0 "
                        + "ORDER BY posting_datetime DESC, creation DESC LIMIT 1")) {
            ps.setString(1, pair.itemCode());
            ps.setString(2, pair.warehouse());
            ps.setTimestamp(3, Timestamp.valueOf(from));
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    qty = rs.getBigDecimal(1);
                    value = rs.getBigDecimal(2);
                }
            }
        }

        try (PreparedStatement select = db.connection().prepareStatement(
                "SELECT name, actual_qty, incoming_rate FROM stock_ledger_entry "
                        + "WHERE item_code = ? AND warehouse = ? AND posting_datetime >= ? AND is_cancelled = 0 "
                        + "ORDER BY posting_datetime, creation FOR UPDATE");
             PreparedStatement update = db.connection().prepareStatement(
                "UPDATE stock_ledger_entry SET qty_after_transaction = ?, stock_value = ?, valuation_rate = ? "
                        + "WHERE name = ?")) {
            select.setString(1, pair.itemCode());
            select.setString(2, pair.warehouse());
            select.setTimestamp(3, Timestamp.valueOf(from));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    BigDecimal actualQty = rs.getBigDecimal("actual_qty");
                    BigDecimal rate = qty.signum() > 0 ? value.divide(qty, 9, RoundingMode.HALF_UP) : BigDecimal.ZERO;
                    BigDecimal moved = actualQty.signum() > 0 ? rs.getBigDecimal("incoming_rate") : rate;
                    qty = qty.add(actualQty);
                    value = value.add(actualQty.multiply(moved));
                    update.setBigDecimal(1, qty);
                    update.setBigDecimal(2, value);
                    update.setBigDecimal(3, qty.signum() > 0 ? value.divide(qty, 9, RoundingMode.HALF_UP) : rate);
                    update.setString(4, rs.getString("name"));
                    update.executeUpdate();
                }
            }
        }
    }
}
