package com.example.partitioning;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads a parent table's row of partman.part_config on the caller's connection and transaction. */
public class PartConfigRepository {

    /** The partitioning of one parent table: its control column and whether batches move by time or by id. */
    public record PartConfig(String parentTable, String control, String controlType) {
    }

    public PartConfig find(Connection conn, String parentTable) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT c.control, c.epoch, format_type(a.atttypid, a.atttypmod) "
                        + "FROM partman.part_config c "
                        + "JOIN pg_catalog.pg_attribute a ON a.attrelid = c.parent_table::regclass AND a.attname = c.control "
                        + "WHERE c.parent_table = ?")) {
            ps.setString(1, parentTable);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("No entry in part_config for table " + parentTable);
                }
                String control = rs.getString(1);
                String epoch = rs.getString(2);
                String columnType = rs.getString(3);
                boolean timeBased = columnType.startsWith("timestamp") || columnType.equals("date")
                        || (epoch != null && !epoch.equals("none"));
                return new PartConfig(parentTable, control, timeBased ? "time" : "id");
            }
        }
    }
}
