package com.example.inventory;

import java.sql.SQLException;
import java.util.Optional;

public class StockRecount {

    private final ResourceLocks locks;

    public StockRecount(ResourceLocks locks) {
        this.locks = locks;
    }

    /** Recounts one warehouse unless another node is already doing it. */
    public boolean recount(long warehouseId) throws SQLException {
        Optional<ResourceLocks.Held> held = locks.tryAcquire(warehouseId);
        if (held.isEmpty()) {
            return false;
        }
        try (ResourceLocks.Held lock = held.get()) {
            recountShelves(warehouseId);
        }
        return true;
    }

    private void recountShelves(long warehouseId) {
        // reads shelf sensors and rewrites stock_levels for the warehouse
    }
}
