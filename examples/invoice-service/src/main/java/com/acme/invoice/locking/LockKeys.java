package com.acme.invoice.locking;

/**
 * The registry of every advisory-lock key this service uses. One place, so two jobs never pick the
 * same number by accident, and an operator reading {@code pg_locks} can look a key up here.
 *
 * <p>Single {@code bigint} keys identify singleton jobs. Per-entity locks use the two-{@code int}
 * form: the first part is a namespace from this class, the second the entity id.
 */
public final class LockKeys {

    /** The nightly invoice run: exactly one instance sends the invoices. */
    public static final long NIGHTLY_INVOICE_RUN = 9001L;

    /** The payment-reminder run of the legacy reminder job. */
    public static final long PAYMENT_REMINDER_RUN = 9002L;

    /** Held by the V2 migration while it backfills invoice numbers. */
    public static final long INVOICE_NUMBER_BACKFILL = 9003L;

    /** The search reindex cron. */
    public static final long SEARCH_REINDEX = 1001L;

    /** The ledger month-end close. Taken before {@link #PAYOUT_BATCH} whenever both are needed. */
    public static final long LEDGER_CLOSE = 2001L;

    /** The payout batch. Taken after {@link #LEDGER_CLOSE} whenever both are needed. */
    public static final long PAYOUT_BATCH = 2002L;

    /** Namespace of per-customer locks taken while archiving a customer's PDFs. */
    public static final int PDF_ARCHIVE_NAMESPACE = 12;

    /**
     * The render queue locks each invoice by its own id in the one-{@code bigint} key space. Invoice
     * ids start here, far above every singleton key of this class, so the two never collide.
     */
    public static final long FIRST_INVOICE_ID = 1_000_000L;

    private LockKeys() {
    }
}
