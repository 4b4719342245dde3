package com.example.metadata;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

public class AspectDao {

    private final DataSource dataSource;
    private final AspectWriteLocks locks;

    public AspectDao(DataSource dataSource, AspectWriteLocks locks) {
        this.dataSource = dataSource;
        this.locks = locks;
    }

    /** Writes a batch of aspects, possibly of several entities, as one transaction. */
    public void upsertBatch(List<AspectRow> rows) throws SQLException {
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try {
                locks.lockForWrite(conn, rows.stream().map(r -> new AspectWriteLocks.AspectKey(r.urn(), r.aspect())).toList());
                try (PreparedStatement ps = conn.prepareStatement(
                        "INSERT INTO metadata_aspect_v2(urn, aspect, version, metadata) VALUES (?, ?, 0, ?) "
                                + "ON CONFLICT (urn, aspect, version) DO UPDATE SET metadata = EXCLUDED.metadata")) {
                    for (AspectRow r : rows) {
                        ps.setString(1, r.urn());
                        ps.setString(2, r.aspect());
                        ps.setString(3, r.json());
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                conn.commit();
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            }
        }
    }

    /** Hard delete: locks every aspect the entity type can have, then removes the rows. */
    public void deleteUrn(String urn, List<String> aspectNamesOfEntity) throws SQLException {
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try {
                locks.lockForWrite(conn, aspectNamesOfEntity.stream().map(a -> new AspectWriteLocks.AspectKey(urn, a)).toList());
                try (PreparedStatement ps = conn.prepareStatement("DELETE FROM metadata_aspect_v2 WHERE urn = ?")) {
                    ps.setString(1, urn);
                    ps.executeUpdate();
                }
                conn.commit();
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            }
        }
    }

    public record AspectRow(String urn, String aspect, String json) {
    }
}
