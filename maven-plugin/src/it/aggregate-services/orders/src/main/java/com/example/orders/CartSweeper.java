package com.example.orders;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Deletes abandoned carts, one sweeper at a time. */
public class CartSweeper {

    /** The advisory-lock key of the cart sweep. */
    static final long CART_SWEEP_KEY = 4242;

    public void sweep(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("SELECT pg_advisory_lock(" + CART_SWEEP_KEY + ")");
            try {
                st.executeUpdate("DELETE FROM carts WHERE updated_at < now() - interval '1 day'");
            } finally {
                st.execute("SELECT pg_advisory_unlock(" + CART_SWEEP_KEY + ")");
            }
        }
    }
}
