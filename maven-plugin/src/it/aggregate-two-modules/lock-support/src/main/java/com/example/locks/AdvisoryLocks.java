package com.example.locks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Shared helper: releases a session-level advisory lock. */
public final class AdvisoryLocks {

    private AdvisoryLocks() {
    }

    /** Releases the session-level lock on key; call it from a finally block. */
    public static void unlock(Connection conn, long key) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            ps.execute();
        }
    }
}
