package com.example.jobs;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Takes a transaction-level advisory lock: released at COMMIT or ROLLBACK, nothing to leak. */
public class JobRunner {

    /** Runs the nightly report at most once at a time, inside the caller's transaction. */
    public boolean nightly(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT pg_try_advisory_xact_lock(42)")) {
            return rs.next() && rs.getBoolean(1);
        }
    }
}
