package com.acme.invoice.billing;

import com.acme.invoice.locking.LockKeys;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Emails every customer their invoice at 02:00. All three instances wake at the same second; the
 * transaction-level try-lock lets exactly one of them send, and the others log and return.
 *
 * <p>This is the correct pattern: {@code pg_try_advisory_xact_lock} inside {@code @Transactional}.
 * The lock lives exactly as long as the transaction, so there is no unlock to forget, and a crash or
 * a rollback releases it.
 */
@Component
public class NightlyInvoiceJob {

    private static final Logger log = LoggerFactory.getLogger(NightlyInvoiceJob.class);

    private final JdbcTemplate jdbc;
    private final InvoiceMailer mailer;

    public NightlyInvoiceJob(JdbcTemplate jdbc, InvoiceMailer mailer) {
        this.jdbc = jdbc;
        this.mailer = mailer;
    }

    /**
     * Sends this period's invoices, unless another instance is already doing it.
     *
     * @return how many invoices this instance sent (0 when another instance holds the lock)
     */
    @Scheduled(cron = "0 0 2 * * *")
    @Transactional
    public int sendInvoices() {
        Boolean acquired = jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class,
                LockKeys.NIGHTLY_INVOICE_RUN);
        if (!Boolean.TRUE.equals(acquired)) {
            log.info("invoice run already in progress on another instance, skipping");
            return 0;
        }
        List<Long> customers = jdbc.queryForList(
                "SELECT id FROM customers WHERE billing_day = extract(day FROM now()) AND active", Long.class);
        for (Long customerId : customers) {
            mailer.sendInvoice(customerId);
        }
        jdbc.update("INSERT INTO invoice_runs(started_at, invoices_sent) VALUES (now(), ?)", customers.size());
        log.info("sent {} invoices", customers.size());
        return customers.size();
    }
}
