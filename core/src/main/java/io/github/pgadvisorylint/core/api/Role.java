package io.github.pgadvisorylint.core.api;

/**
 * What a call does, as far as the analyses care: to SQL, to a connection, to a transaction, or to a
 * value read from the database. A {@link MethodMatcher} carries one or more roles; the analyses ask
 * the {@link ApiCatalog} for them instead of keeping lists of method names.
 */
public enum Role {
    /** Runs SQL on its receiver's connection now ({@code execute}, {@code executeQuery}, {@code JdbcTemplate.query}). */
    EXECUTES_SQL,
    /** Takes SQL text now and runs it later through the object it returns ({@code prepareStatement}, {@code createNativeQuery}, {@code JdbcClient.sql}). */
    PREPARES_SQL,
    /**
     * Its result stands for its receiver: a statement or result set on the receiver's connection
     * ({@code createStatement}, {@code getResultSet}), or the receiver's value unwrapped ({@code Optional.get},
     * {@code Boolean.booleanValue}); the lock-state analysis names the result by the receiver's access path.
     */
    CARRIES_RECEIVER,
    /**
     * Returns an object over the connection its first argument carries, as a static factory: jOOQ's
     * {@code DSL.using(configuration)} in a transaction callback runs on that transaction's connection.
     */
    CARRIES_ARGUMENT,
    /** Binds a parameter of a statement or query ({@code setLong}, {@code setParameter}, {@code bind}, {@code param}). */
    BINDS_PARAMETER,
    /** Sets an option of a query and returns it for chaining ({@code setHint}, {@code setTimeout}, {@code unwrap}). */
    CONFIGURES_QUERY,
    /** Reads a value of the current row of a result ({@code ResultSet.getBoolean}, {@code getObject}). */
    READS_RESULT,
    /** Reads a result's metadata, never a row's value ({@code getMetaData}, {@code getWarnings}, {@code getRow}). */
    DESCRIBES_RESULT,
    /** Tells whether a row or value is there ({@code next}, {@code first}, {@code isPresent}, {@code hasNext}). */
    TESTS_ROW,
    /** Fetches a query's single result ({@code getSingleResult}, {@code uniqueResult}, JDBI {@code one}). */
    FETCHES_ONE,
    /** Fetches a query's rows as a collection ({@code getResultList}, {@code list}). */
    FETCHES_LIST,
    /** Runs a callback in a transaction it begins and ends ({@code TransactionTemplate.execute}, JDBI {@code inTransaction}). */
    BEGINS_TRANSACTION,
    /**
     * Runs the lambda it is passed, at once, inside a transaction it opens for it and commits when the lambda
     * returns ({@code TransactionTemplate.execute}, JDBI {@code inTransaction}, jOOQ {@code transactionResult});
     * matched on the receiver's declared type, never by name alone (core.flow.CallingContexts).
     */
    RUNS_IN_TRANSACTION,
    /** Commits the receiver's transaction ({@code Connection.commit}). */
    COMMITS,
    /** Rolls back the receiver's transaction ({@code Connection.rollback}). */
    ROLLS_BACK,
    /** Switches autocommit ({@code Connection.setAutoCommit}); {@code false} begins a manual transaction (F18). */
    SETS_AUTOCOMMIT,
    /** Borrows or opens a connection; its kind comes from the receiver's type ({@link ApiCatalog#connectionKind}). */
    BORROWS_CONNECTION,
    /** Gives a borrowed connection back to where it came from ({@code DataSourceUtils.releaseConnection}). */
    RETURNS_CONNECTION,
    /** Closes its receiver ({@code Connection.close}: a pooled connection goes back to the pool with its session, F13). */
    CLOSES,
    /** Runs a callback on one connection for the callback's whole length ({@code Session.doWork}, JDBI {@code withHandle}). */
    PINS_CONNECTION,
    /**
     * Runs a callback on the connection of the Spring or JPA transaction it is called in, when there is one
     * ({@code JdbcTemplate.execute(ConnectionCallback)} takes it through {@code DataSourceUtils.getConnection};
     * Hibernate {@code Session.doWork} gets the session's): matched on the receiver's declared type
     * (core.flow.CallingContexts).
     */
    LENDS_TRANSACTION_CONNECTION,
    /**
     * Throws when its first argument is false and returns otherwise: a precondition check
     * ({@code Preconditions.checkState}, Spring {@code Assert.state}, Commons {@code Validate.isTrue}).
     */
    GUARDS,
    /**
     * Runs a project's schema migrations: Flyway {@code migrate}, Liquibase {@code update}, Spring's
     * {@code ScriptUtils.executeSqlScript} and {@code DatabasePopulator.populate}.
     */
    RUNS_MIGRATIONS,
    /** Only logs or prints; never touches the database. */
    LOGS,
    /** A getter, check, conversion or clock read that cannot fail in practice (not treated as throwing). */
    PURE,
    /** Returns the value it was given or called on, unchanged for a boolean test ({@code orElse}, {@code valueOf}, {@code equals}). */
    PASSES_VALUE,
    /**
     * Stores its argument as its receiver's value ({@code AtomicBoolean.set}, {@code lazySet}, {@code getAndSet};
     * {@code compareAndSet} the second): the receiver holds that value from here on (java.util.concurrent.atomic).
     */
    STORES_ARGUMENT,
    /**
     * Acts in the JVM only, never on the database: an operation of a JDK synchronizer, atomic or thread
     * ({@code ReentrantLock.tryLock}, {@code Semaphore.release}, {@code Thread.start}). Its receiver runs the JDK's
     * method, never a project method that shares the name.
     */
    JVM_ONLY,
    /** Runs a lambda once per element of a stream or collection ({@code forEach}, {@code map}). */
    ITERATES,
    /** Its string arguments are messages, patterns or expectations, never SQL to run. */
    TAKES_NO_SQL,
    /** Wraps a call into a stubbing, a verification or an assertion (Mockito, BDDMockito, AssertJ, JUnit). */
    TEST_WRAPPER
}
