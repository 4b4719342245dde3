package com.example.payments;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Settles due payments, one settlement run at a time; connects straight to PostgreSQL. */
public class SettlementJob {

    /** The advisory-lock key of the settlement run: the same number as orders' cart sweep. */
    static final long SETTLEMENT_KEY = 4242;

    public void settle(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("SELECT pg_advisory_lock(" + SETTLEMENT_KEY + ")");
            try {
                st.executeUpdate("UPDATE settlements SET done = true WHERE due < now()");
            } finally {
                st.execute("SELECT pg_advisory_unlock(" + SETTLEMENT_KEY + ")");
            }
        }
    }
}
