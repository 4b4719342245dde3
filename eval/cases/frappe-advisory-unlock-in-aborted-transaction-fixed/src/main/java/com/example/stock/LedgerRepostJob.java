// Case: frappe's fix for its advisory_lock helper: the session-level lock is still released in a finally block, but when the unlock fails because a failed statement of the guarded block aborted the transaction, the helper rolls the aborted transaction back and unlocks again, and if that also fails it ends the session, without letting the cleanup hide the block's own error.
// Source: https://github.com/frappe/frappe/pull/40497
// Kind: correct
// Expected: nothing to report. The worker's session is its own DriverManager connection (no pool), autocommit off. On success the repost commits inside the block and the unlock then runs in a fresh transaction and releases the lock. When a statement of the block failed (a deadlock), the unlock fails with 25P02 (F18); release() catches it, rolls the aborted transaction back (it holds nothing worth keeping) and runs the unlock again, which now succeeds; if the rollback or the second unlock fails too, the session is closed, which ends the backend and releases every session-level lock it held (F1). No exception escapes the finally block, so the deadlock reaches run(), which rolls back (a no-op after the cleanup's rollback) and re-queues the repost. When the block throws without a database error, the unlock succeeds before run() rolls the uncommitted work back; that work is discarded, and the next holder's FOR UPDATE waits for the rollback, so it never reads or overwrites it. The lock is released on every path and never stacked.
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
