package com.example.scheduler;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Thin query helper: every call borrows a pooled connection and leaves it clean for the next borrower. */
public class Database {

    private final DataSource pool;

    public Database(DataSource pool) {
        this.pool = pool;
    }

    public <T> T fetchOne(String sql, Class<T> type, Object... args) throws SQLException {
        try (Connection conn = pool.getConnection()) {
            conn.setAutoCommit(false);
            try (PreparedStatement ps = conn.prepareStatement(sql)) {
                for (int i = 0; i < args.length; i++) {
                    ps.setObject(i + 1, args[i]);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getObject(1, type) : null;
                }
            } finally {
                conn.rollback();            // never hand a connection back with a transaction open
                conn.setAutoCommit(true);
            }
        }
    }

    public int update(String sql, Object... args) throws SQLException {
        try (Connection conn = pool.getConnection();
             PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        }
    }
}
