package com.example.aiostreams.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The database access every module goes through. Each call borrows a connection from the pool and gives it back
 * when the statement is done; {@link #tx} keeps one connection for the whole callback.
 */
public final class DbDriver {

    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    /** The statements of one transaction, all on the transaction's connection. */
    public interface Tx {
        void exec(String sql, Object... params) throws SQLException;
    }

    @FunctionalInterface
    public interface TxWork<T> {
        T run(Tx tx) throws SQLException;
    }

    private final DataSource pool;

    public DbDriver(DataSource pool) {
        this.pool = pool;
    }

    public static DbDriver connect(String jdbcUrl, String user, String password) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(10);
        config.setPoolName("aiostreams");
        return new DbDriver(new HikariDataSource(config));
    }

    public void exec(String sql, Object... params) throws SQLException {
        try (Connection conn = pool.getConnection()) {
            execOn(conn, sql, params);
        }
    }

    public <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
        try (Connection conn = pool.getConnection(); PreparedStatement ps = conn.prepareStatement(sql)) {
            bind(ps, params);
            List<T> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(mapper.map(rs));
                }
            }
            return rows;
        }
    }

    public <T> T tx(TxWork<T> work) throws SQLException {
        try (Connection conn = pool.getConnection()) {
            conn.setAutoCommit(false);
            try {
                T result = work.run((sql, params) -> execOn(conn, sql, params));
                conn.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            } finally {
                conn.setAutoCommit(true);
            }
        }
    }

    private static void execOn(Connection conn, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            bind(ps, params);
            ps.execute();
        }
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            ps.setObject(i + 1, params[i]);
        }
    }
}
