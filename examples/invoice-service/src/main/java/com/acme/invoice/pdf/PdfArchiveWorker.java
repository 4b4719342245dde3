package com.acme.invoice.pdf;

import com.acme.invoice.locking.AdvisoryLock;
import com.acme.invoice.locking.LockKeys;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Moves a customer's rendered PDFs older than a year to cold storage. Archiving the same customer
 * twice at once would upload duplicates, so each run holds a per-customer lock: namespace
 * {@link LockKeys#PDF_ARCHIVE_NAMESPACE}, id = customer id.
 *
 * <p>Correct pattern: {@link AdvisoryLock} in try-with-resources, declared after the connection,
 * so it is released first, also when archiving throws.
 */
@Component
public class PdfArchiveWorker {

    private static final Logger log = LoggerFactory.getLogger(PdfArchiveWorker.class);

    private final DataSource dataSource;
    private final ColdStorage coldStorage;

    public PdfArchiveWorker(DataSource dataSource, ColdStorage coldStorage) {
        this.dataSource = dataSource;
        this.coldStorage = coldStorage;
    }

    /**
     * Archives one customer's old PDFs, waiting for any concurrent archive of the same customer.
     *
     * @param customerId the customer
     * @return how many files were archived
     */
    public int archive(int customerId) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             AdvisoryLock lock = AdvisoryLock.acquire(connection, LockKeys.PDF_ARCHIVE_NAMESPACE, customerId);
             PreparedStatement ps = connection.prepareStatement(
                     "UPDATE invoice_pdfs SET location = 'cold' WHERE customer_id = ? AND location = 'hot'"
                             + " AND created_at < now() - interval '1 year' RETURNING storage_key")) {
            ps.setInt(1, customerId);
            int archived = 0;
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    coldStorage.moveToColdTier(rs.getString(1));
                    archived++;
                }
            }
            log.info("archived {} PDFs of customer {} under {}", archived, customerId, lock);
            return archived;
        }
    }

    /** The object store holding the PDF files. */
    public interface ColdStorage {
        /**
         * @param storageKey the object key of one PDF
         */
        void moveToColdTier(String storageKey);
    }
}
