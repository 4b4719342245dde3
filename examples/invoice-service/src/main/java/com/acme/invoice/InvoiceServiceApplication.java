package com.acme.invoice;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.transaction.annotation.EnableTransactionManagement;

/**
 * The invoice service: issues invoices, renders them to PDF, sends reminders and keeps the search
 * index fresh.
 *
 * <p>Three identical instances run behind the load balancer, and every instance runs the same
 * {@code @Scheduled} jobs at the same second. PostgreSQL advisory locks decide which instance does
 * the work; the keys live in {@link com.acme.invoice.locking.LockKeys}.
 *
 * <p>See the project's README for which scenarios are correct and which carry a bug on purpose.
 */
@SpringBootApplication
@EnableScheduling
@EnableTransactionManagement
public class InvoiceServiceApplication {

    /**
     * Starts the service.
     *
     * @param args Spring Boot command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(InvoiceServiceApplication.class, args);
    }
}
