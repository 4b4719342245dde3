package com.example.gitnode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Holds a repository's write lock on its own connection until closed. */
public final class RepoWriteGuard implements AutoCloseable {

    private final Connection conn;
    private final long key;

    RepoWriteGuard(Connection conn, long key) {
        this.conn = conn;
        this.key = key;
    }

    @Override
    public void close() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!(rs.next() && rs.getBoolean(1))) {
                    throw new IllegalStateException("write lock " + key + " was not held by this session");
                }
            }
        } finally {
            conn.close();
        }
    }
}
