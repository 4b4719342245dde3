// Case: with_advisory_lock now refuses `transaction: true` outside an open transaction, so a transaction-level lock always covers the guarded block
// Source: https://github.com/ClosureTree/with_advisory_lock/pull/122
// Kind: correct
// Expected: correct: the helper refuses to run without an actual transaction, and the only caller opens one with TransactionTemplate around both the pg_try_advisory_xact_lock and the numbering work, so the lock is held until that transaction commits or rolls back.
package com.example.billing;

import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

@Service
public class InvoiceNumbering {

    private static final int NUMBERING_NS = 31;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public InvoiceNumbering(JdbcTemplate jdbc, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.tx = tx;
    }

    /** Issues the next invoice number of a tenant; returns null when another node is numbering that tenant. */
    public Long issueNext(int tenantId, long invoiceId) {
        return tx.execute(status -> withXactLock(tenantId, () -> {
            Long next = jdbc.queryForObject(
                    "SELECT coalesce(max(number), 0) + 1 FROM invoices WHERE tenant_id = ?", Long.class, tenantId);
            jdbc.update("UPDATE invoices SET number = ? WHERE id = ? AND tenant_id = ?", next, invoiceId, tenantId);
            return next;
        }));
    }

    private <T> T withXactLock(int tenantId, Supplier<T> block) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("transaction-level advisory lock requested outside a transaction");
        }
        Boolean acquired = jdbc.queryForObject(
                "SELECT pg_try_advisory_xact_lock(?, ?)", Boolean.class, NUMBERING_NS, tenantId);
        if (!Boolean.TRUE.equals(acquired)) {
            return null;
        }
        return block.get();
    }
}
