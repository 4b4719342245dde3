package com.example.inventory;

/** SQL of the inventory module, kept in one place. */
final class StockSql {

    static final String TRY_LOCK_WAREHOUSE = "SELECT pg_try_advisory_xact_lock(:warehouseId)";

    private StockSql() {
    }
}
