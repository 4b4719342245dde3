package io.github.pgadvisorylint.core.model;

/**
 * Who decides the transaction a lock site runs in (Spring Framework reference, "Using
 * {@code @Transactional}": transactions are applied by the proxy of the bean that is called, and a
 * method without a boundary of its own joins its caller's transaction; Spring Data JPA reference,
 * "Transactionality": a declared query method gets no transaction configuration of its own).
 * A lock site's {@link TransactionState} is final only when this is {@link #OWN} or {@link #FROM_CALL};
 * otherwise each call of the method that holds the site decides again, with its own context.
 */
public enum TransactionBoundary {
    /** The code around the site decides: a transaction callback, an annotation that applies, a JDBC connection, a script. */
    OWN,
    /**
     * No boundary of its own: a Spring-managed statement ({@code JdbcTemplate}, JPA, a Spring Data
     * {@code @Query} method) in a method without an applying {@code @Transactional}, or with
     * {@code SUPPORTS}. It runs in the caller's transaction if there is one, in autocommit otherwise.
     * The state is {@link TransactionState#UNKNOWN} until a call decides it.
     */
    JOINS_CALLER,
    /**
     * As {@link #JOINS_CALLER}, for a method that overrides a method of a project type declared in another
     * file, whose {@code @Transactional} (if any) applies to it too: a caller in a transaction decides it, a
     * caller without one does not (the method may start its own), and the state stays
     * {@link TransactionState#UNKNOWN} there.
     */
    JOINS_CALLER_UNLESS_INHERITED,
    /**
     * A {@code REQUIRED} (or {@code NESTED}) boundary that holds nothing but the lock: it joins the
     * caller's transaction if there is one; otherwise it starts one that commits, releasing the lock,
     * when the method returns. The state is {@link TransactionState#IN_TRANSACTION} until a call
     * without a transaction makes it {@link TransactionState#ENDS_BEFORE_WORK}.
     */
    NEW_UNLESS_CALLER,
    /**
     * Decided at this call of a lock helper whose own boundary was {@link #JOINS_CALLER} or
     * {@link #NEW_UNLESS_CALLER}: the call is where the transaction is missing or ends too early, and
     * the place to report.
     */
    FROM_CALL
}
