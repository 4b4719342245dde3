package io.github.pgadvisorylint.core.model;

/**
 * Whether a lock site runs inside a transaction, as far as the code shows (RULES.md F3, F17;
 * PostgreSQL docs "Advisory Locks": transaction-level locks end with the transaction).
 */
public enum TransactionState {
    /** Inside an explicit transaction: an applying {@code @Transactional}, {@code TransactionTemplate}, {@code setAutoCommit(false)}, {@code BEGIN}, a migration tool's transaction, or a multi-statement string. */
    IN_TRANSACTION,
    /**
     * Inside a transaction that demonstrably ends right after the lock: a {@code TransactionTemplate}
     * callback or a {@code @Transactional(REQUIRES_NEW)} method that only takes the lock, or a
     * {@code REQUIRED} boundary (a service method, a repository method) holding only the lock and
     * called where no transaction is open; the guarded work runs after it returns.
     */
    ENDS_BEFORE_WORK,
    /** In autocommit: every statement is its own transaction. */
    AUTOCOMMIT,
    /** Cannot be told from the code (a caller may have started a transaction): rules stay silent. */
    UNKNOWN
}
