// Case: go-pglock's fix: a lock object now takes one connection the caller has pinned and runs both the try-lock and the unlock on it, so the session that holds the lock is the one that releases it.
// Source: https://github.com/allisson/go-pglock/pull/3
// Kind: correct
// Expected: nothing to report. AdvisoryLock runs SELECT pg_try_advisory_lock(?) and SELECT pg_advisory_unlock(?) on the one Connection it was built with (autocommit, as the pool hands it out), so lock and unlock address the same session. NightlyExportJob borrows that connection from the pool for the whole run and acts only when the try-lock returned true; it unlocks in a finally on the same connection and keeps the result: the connection goes back to the pool only after a true unlock or a refused try-lock (nothing held), and on any other path (the try-lock or the unlock threw, or the unlock returned false) it is evicted, which closes the physical connection and ends the session with whatever it held, so no pooled connection is ever returned holding the key. The key is a constant used by this job only.
package com.example.reports.lock;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;

/**
 * Session-level advisory locks by numeric id, bound to one connection: the caller keeps that connection from lock
 * to unlock. Not thread safe, like the connection itself.
 */
public class AdvisoryLock {

    private final Connection conn;

    public AdvisoryLock(Connection conn) {
        this.conn = Objects.requireNonNull(conn, "conn");
    }

    /** Obtains the exclusive session-level lock if it is free; returns false at once otherwise. */
    public boolean lock(long id) throws SQLException {
        return call("SELECT pg_try_advisory_lock(?)", id);
    }

    /** Releases one hold of the lock; false when this session held none. */
    public boolean unlock(long id) throws SQLException {
        return call("SELECT pg_advisory_unlock(?)", id);
    }

    private boolean call(String sql, long id) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
