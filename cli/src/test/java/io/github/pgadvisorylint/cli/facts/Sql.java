package io.github.pgadvisorylint.cli.facts;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Small JDBC helpers for the facts suite and the {@code locks} tests: one value per query, warnings kept. */
public final class Sql {

    private Sql() {}

    /**
     * @param c   a session
     * @param sql a statement returning nothing of interest
     * @throws SQLException as the server raised it
     */
    public static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /**
     * @param c   a session
     * @param sql a query whose first row's first column is a boolean
     * @return that value
     * @throws SQLException as the server raised it
     */
    public static boolean bool(Connection c, String sql) throws SQLException {
        return withWarnings(c, sql).value() instanceof Boolean b && b;
    }

    /**
     * @param c   a session
     * @param sql a query whose first row's first column is a number
     * @return that value
     * @throws SQLException as the server raised it
     */
    public static long number(Connection c, String sql) throws SQLException {
        return ((Number) withWarnings(c, sql).value()).longValue();
    }

    /**
     * @param c   a session
     * @param sql a query whose first row's first column is text
     * @return that value
     * @throws SQLException as the server raised it
     */
    public static String text(Connection c, String sql) throws SQLException {
        Object v = withWarnings(c, sql).value();
        return v == null ? null : v.toString();
    }

    /** The first value of a query and the warnings (notices) it raised. */
    public record Answer(Object value, List<String> warnings) {}

    /**
     * @param c   a session
     * @param sql a query returning at least one row
     * @return the first row's first column and the server's warnings
     * @throws SQLException as the server raised it
     */
    public static Answer withWarnings(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                throw new SQLException("no row from: " + sql);
            }
            Object v = rs.getObject(1);
            List<String> warnings = new ArrayList<>();
            for (SQLWarning w = st.getWarnings(); w != null; w = w.getNextWarning()) {
                warnings.add(w.getMessage());
            }
            return new Answer(v, warnings);
        }
    }

    /**
     * @param c a session
     * @return its backend's process id
     * @throws SQLException as the server raised it
     */
    public static int pid(Connection c) throws SQLException {
        return (int) number(c, "SELECT pg_backend_pid()");
    }

    /**
     * @param c   a session that looks
     * @param pid a backend
     * @return how many advisory locks that backend holds (granted rows of {@code pg_locks}; a key locked twice is one row)
     * @throws SQLException as the server raised it
     */
    public static long heldBy(Connection c, int pid) throws SQLException {
        return number(c, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = " + pid);
    }
}
