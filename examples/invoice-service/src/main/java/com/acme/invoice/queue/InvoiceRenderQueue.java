package com.acme.invoice.queue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/**
 * Workers on every instance take pending invoices from the {@code invoices} table, render their
 * PDF, and mark them rendered. Each worker locks the invoice it claims, by id, so two workers never
 * render the same invoice; the lock is released in {@code finally} on the same connection.
 */
@Component
public class InvoiceRenderQueue {

    private final DataSource dataSource;
    private final PdfRenderer renderer;

    public InvoiceRenderQueue(DataSource dataSource, PdfRenderer renderer) {
        this.dataSource = dataSource;
        this.renderer = renderer;
    }

    /**
     * <b>Bug (kept on purpose for the example):</b> the lock sits in the WHERE clause of a query
     * with ORDER BY and LIMIT 1. PostgreSQL may evaluate it for every pending row before sorting and
     * keeping one, so one call can take hundreds of session locks, and the finally releases only
     * the one claimed. The other invoices stay locked on a pooled connection: no worker can claim
     * them until that connection is closed.
     *
     * @return true when an invoice was rendered
     */
    public boolean renderNextLegacy() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            Long invoiceId = null;
            try {
                try (PreparedStatement claim = connection.prepareStatement("""
                        SELECT id
                          FROM invoices
                         WHERE status = 'pending'
                           AND pg_try_advisory_lock(id) -- expect: lock-in-limit-query
                         ORDER BY due_at
                         LIMIT 1
                        """);
                     ResultSet rs = claim.executeQuery()) {
                    if (!rs.next()) {
                        return false;
                    }
                    invoiceId = rs.getLong(1);
                }
                renderer.render(connection, invoiceId);
                return true;
            } finally {
                if (invoiceId != null) {
                    release(connection, invoiceId);
                }
            }
        }
    }

    /**
     * The fix: choose the next invoice in a subquery with its own LIMIT, and lock only that one in
     * the outer query. When another worker holds it, the query returns no row and this worker tries
     * again on its next poll.
     *
     * @return true when an invoice was rendered
     */
    public boolean renderNext() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            Long invoiceId = null;
            try {
                try (PreparedStatement claim = connection.prepareStatement("""
                        SELECT next.id
                          FROM (SELECT id FROM invoices WHERE status = 'pending' ORDER BY due_at LIMIT 1) AS next
                         WHERE pg_try_advisory_lock(next.id)
                        """);
                     ResultSet rs = claim.executeQuery()) {
                    if (!rs.next()) {
                        return false;
                    }
                    invoiceId = rs.getLong(1);
                }
                renderer.render(connection, invoiceId);
                return true;
            } finally {
                if (invoiceId != null) {
                    release(connection, invoiceId);
                }
            }
        }
    }

    private static void release(Connection connection, long invoiceId) throws SQLException {
        try (PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            unlock.setLong(1, invoiceId);
            unlock.execute();
        }
    }

    /**
     * Renders one invoice to PDF, stores the file and marks the invoice {@code rendered}, on the
     * caller's connection: the session that holds the invoice's lock.
     */
    public interface PdfRenderer {
        /**
         * @param connection the connection holding the invoice's advisory lock
         * @param invoiceId  the invoice
         * @throws SQLException when reading the invoice or updating its status fails
         */
        void render(Connection connection, long invoiceId) throws SQLException;
    }
}
