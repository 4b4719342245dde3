package com.example.billing;

import com.example.locks.AdvisoryLocks;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Runs the invoice batch on one node at a time. */
public class InvoiceBatch {

    /** Holds lock 7 for the run; the shared helper releases it in finally. */
    public void run(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("SELECT pg_advisory_lock(7)");
            try {
                invoice();
            } finally {
                AdvisoryLocks.unlock(conn, 7);
            }
        }
    }

    private void invoice() {
    }
}
