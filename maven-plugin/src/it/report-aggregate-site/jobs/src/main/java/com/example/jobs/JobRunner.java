package com.example.jobs;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Two advisory-lock bugs the current rules report. */
public class JobRunner {

    /** Claims the next job: the try-lock in WHERE runs for rows the LIMIT throws away. */
    public long claimNext(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT id FROM jobs WHERE status = 'pending' AND pg_try_advisory_lock(id) ORDER BY priority LIMIT 1")) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    /** Runs the nightly report: an exception in work() leaves lock 42 held. */
    public void nightly(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("SELECT pg_advisory_lock(42)");
            work();
            st.execute("SELECT pg_advisory_unlock(42)");
        }
    }

    private void work() {
    }
}
