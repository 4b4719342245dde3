package com.example.lynx.processing;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;

/** The statements a processing worker runs besides the graph building itself. */
public class ProcessingStore {

    private final DataSource dataSource;

    public ProcessingStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Takes the container's transaction-level lock on the caller's connection if it is free, without waiting; the
     * lock ends with the caller's transaction. False when another worker holds it.
     */
    public boolean tryLockContainer(Connection tx, long containerId) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
            ps.setLong(1, containerId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    public void incrementAttempts(List<Long> importIds) throws SQLException {
        try (Connection conn = dataSource.getConnection();
             PreparedStatement ps = conn.prepareStatement(
                     "UPDATE imports SET process_attempts = process_attempts + 1 WHERE id = ANY (?)")) {
            ps.setArray(1, idArray(conn, importIds));
            ps.executeUpdate();
        }
    }

    public void setStarted(Instant at, List<Long> importIds) throws SQLException {
        try (Connection conn = dataSource.getConnection();
             PreparedStatement ps = conn.prepareStatement(
                     "UPDATE imports SET process_start = ?, status = 'processing' WHERE id = ANY (?)")) {
            ps.setTimestamp(1, Timestamp.from(at));
            ps.setArray(2, idArray(conn, importIds));
            ps.executeUpdate();
        }
    }

    private static Array idArray(Connection conn, List<Long> ids) throws SQLException {
        return conn.createArrayOf("bigint", ids.toArray());
    }
}
