package com.example.jobs;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A queue worker with two advisory-lock bugs, for the site page to list. */
public class QueueWorker {

    /** Takes the oldest task: the try-lock in WHERE may lock rows the LIMIT then drops. */
    public long takeOldest(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT id FROM tasks WHERE done = false AND pg_try_advisory_lock(id) ORDER BY created_at LIMIT 1")) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    /** Compacts the task table: when compact() throws, lock 77 stays held by the session. */
    public void compactAll(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("SELECT pg_advisory_lock(77)");
            compact();
            st.execute("SELECT pg_advisory_unlock(77)");
        }
    }

    private void compact() {
    }
}
