package com.example.dlock;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

public class InvoiceNumbering {

    private static final long INVOICE_SEQUENCE_LOCK = 880_014L;

    private final DataSource dataSource;

    public InvoiceNumbering(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Hands out gap-free invoice numbers per tenant. */
    public long nextNumber(long tenantId) throws SQLException {
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try {
                long next;
                try (PgAdvisoryLock lock = new PgAdvisoryLock(conn, INVOICE_SEQUENCE_LOCK, true).acquire();
                     PreparedStatement ps = conn.prepareStatement(
                             "UPDATE invoice_counters SET last_number = last_number + 1 WHERE tenant_id = ? RETURNING last_number")) {
                    ps.setLong(1, tenantId);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        next = rs.getLong(1);
                    }
                }
                conn.commit();
                return next;
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            }
        }
    }
}
