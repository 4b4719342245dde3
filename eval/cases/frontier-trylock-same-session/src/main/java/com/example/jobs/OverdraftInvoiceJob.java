package com.example.jobs;

import java.sql.SQLException;
import java.util.Optional;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class OverdraftInvoiceJob {

    static final long OVERDRAFT_INVOICE_LOCK = 7_310_001L;

    private final AdvisoryLocker locker;

    public OverdraftInvoiceJob(AdvisoryLocker locker) {
        this.locker = locker;
    }

    @Scheduled(cron = "0 */10 * * * *")
    public void run() throws SQLException {
        Optional<AdvisoryLocker.Held> held = locker.tryLock(OVERDRAFT_INVOICE_LOCK);
        if (held.isEmpty()) {
            return;                         // another replica is on it
        }
        try (AdvisoryLocker.Held lock = held.get()) {
            issueOverdraftInvoices();
        }
    }

    private void issueOverdraftInvoices() {
        // creates invoices for accounts whose credit balance went negative
    }
}
