package com.acme.invoice.billing;

/**
 * Sends invoice e-mails through the mail provider. Calls are not idempotent: a customer who is sent
 * an invoice twice receives it twice, which is why the jobs calling this take advisory locks.
 */
public interface InvoiceMailer {

    /**
     * Sends one customer the invoice for the period just closed.
     *
     * @param customerId the customer
     * @throws MailDeliveryException when the provider rejects the message
     */
    void sendInvoice(long customerId);

    /**
     * Reminds a customer of an overdue invoice.
     *
     * @param invoiceId the overdue invoice
     * @throws MailDeliveryException when the provider rejects the message
     */
    void sendReminder(long invoiceId);

    /** Thrown when the mail provider refuses a message; the caller's job run stops. */
    class MailDeliveryException extends RuntimeException {
        public MailDeliveryException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
