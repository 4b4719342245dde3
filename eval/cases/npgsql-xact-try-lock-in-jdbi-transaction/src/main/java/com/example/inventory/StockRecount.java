// Case: the variant reported as working in the Npgsql thread: begin a transaction, take pg_try_advisory_xact_lock in it, and let commit or rollback end the lock, so returning the pooled connection cannot leave it behind.
// Source: https://github.com/npgsql/npgsql/issues/5592
// Kind: correct
// Expected: nothing to report: the transaction-level try-lock runs inside Jdbi.inTransaction on the callback's handle, its boolean decides whether the work runs, the work uses the same handle, and the lock ends at commit or rollback before the connection goes back to the pool.
package com.example.inventory;

import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

public class StockRecount {

    private final Jdbi jdbi;

    public StockRecount(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** Recounts one warehouse unless another node is already doing it. */
    public boolean recount(long warehouseId) {
        return jdbi.inTransaction(handle -> {
            if (!tryLockWarehouse(handle, warehouseId)) {
                return false;
            }
            recountShelves(handle, warehouseId);
            return true;
        });
    }

    private static boolean tryLockWarehouse(Handle handle, long warehouseId) {
        return handle.createQuery(StockSql.TRY_LOCK_WAREHOUSE)
            .bind("warehouseId", warehouseId)
            .mapTo(Boolean.class)
            .one();
    }

    private void recountShelves(Handle handle, long warehouseId) {
        handle.createUpdate("UPDATE stock_levels SET counted_at = now() WHERE warehouse_id = :warehouseId")
            .bind("warehouseId", warehouseId)
            .execute();
    }
}
