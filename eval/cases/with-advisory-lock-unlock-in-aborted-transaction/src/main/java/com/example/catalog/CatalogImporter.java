// Case: with_advisory_lock's session lock was never freed when the surrounding transaction had been aborted by a statement timeout: the unlock then failed with PG::InFailedSqlTransaction and the pooled connection kept the lock
// Source: https://github.com/ClosureTree/with_advisory_lock/issues/14
// Kind: bug
// Expected: the unlock in finally runs inside the manual transaction; when an import statement fails (statement_timeout, constraint error) the transaction is aborted and the unlock fails with 25P02 (F18), then close() returns the connection to the Hikari pool still holding the session lock (F13). Roll back before unlocking, or use pg_try_advisory_xact_lock.
package com.example.catalog;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

public class CatalogImporter {

    private static final long IMPORT_LOCK = 5_550_101L;

    private final HikariDataSource pool;   // connectionInitSql = SET statement_timeout = '30s'

    public CatalogImporter(HikariDataSource pool) {
        this.pool = pool;
    }

    public boolean importBatch(List<ProductRow> rows) throws SQLException {
        try (Connection conn = pool.getConnection()) {
            conn.setAutoCommit(false);
            try (PreparedStatement lock = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: lock-without-finally-unlock
                lock.setLong(1, IMPORT_LOCK);
                try (ResultSet rs = lock.executeQuery()) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        conn.rollback();
                        return false;
                    }
                }
            }
            try {
                try (PreparedStatement up = conn.prepareStatement(
                        "INSERT INTO products(sku, title, price_cents) VALUES (?, ?, ?) "
                        + "ON CONFLICT (sku) DO UPDATE SET title = excluded.title, price_cents = excluded.price_cents")) {
                    for (ProductRow r : rows) {
                        up.setString(1, r.sku());
                        up.setString(2, r.title());
                        up.setLong(3, r.priceCents());
                        up.addBatch();
                    }
                    up.executeBatch();
                }
                try (Statement st = conn.createStatement()) {
                    st.executeUpdate("REFRESH MATERIALIZED VIEW product_search");
                }
                conn.commit();
                return true;
            } finally {
                try (Statement st = conn.createStatement()) {
                    st.execute("SELECT pg_advisory_unlock(" + IMPORT_LOCK + ")"); // may: lock-without-finally-unlock
                }   // may: try-lock-result-ignored
            }
        }
    }

    public record ProductRow(String sku, String title, long priceCents) {}
}
