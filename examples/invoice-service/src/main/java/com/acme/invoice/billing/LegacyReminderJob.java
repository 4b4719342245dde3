package com.acme.invoice.billing;

import com.acme.invoice.locking.LockKeys;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Sends payment reminders for overdue invoices at 02:30, on one instance at a time.
 *
 * <p><b>Bug (kept on purpose for the example):</b> the session-level lock is released by a
 * statement at the end of the method, not in a {@code finally}. When the mail provider throws, the
 * unlock never runs, the connection goes back to the Hikari pool still holding lock 9002, and no
 * instance sends reminders again until that pooled connection is closed. Compare
 * {@link NightlyInvoiceJob}, which needs no unlock at all.
 */
@Component
public class LegacyReminderJob {

    private static final Logger log = LoggerFactory.getLogger(LegacyReminderJob.class);

    private final DataSource dataSource;
    private final InvoiceMailer mailer;

    public LegacyReminderJob(DataSource dataSource, InvoiceMailer mailer) {
        this.dataSource = dataSource;
        this.mailer = mailer;
    }

    /** Sends one reminder per overdue invoice, unless another instance is already sending. */
    @Scheduled(cron = "0 30 2 * * *")
    public void sendReminders() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // expect: lock-without-finally-unlock
                lock.setLong(1, LockKeys.PAYMENT_REMINDER_RUN);
                try (ResultSet rs = lock.executeQuery()) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        log.info("reminders already being sent by another instance");
                        return;
                    }
                }
            }

            for (long invoiceId : overdueInvoices(connection)) {
                mailer.sendReminder(invoiceId);
            }

            try (PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                unlock.setLong(1, LockKeys.PAYMENT_REMINDER_RUN);
                unlock.execute();
            }
        }
    }

    private List<Long> overdueInvoices(Connection connection) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT id FROM invoices WHERE status = 'open' AND due_at < now() - interval '7 days'");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }
}
