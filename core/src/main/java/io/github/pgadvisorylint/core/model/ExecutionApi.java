package io.github.pgadvisorylint.core.model;

/** The API through which a lock site's SQL reaches the database. */
public enum ExecutionApi {
    /** JDBC {@code Statement.execute/executeQuery/executeUpdate/addBatch}. */
    JDBC_STATEMENT,
    /** JDBC {@code Connection.prepareStatement}. */
    JDBC_PREPARED_STATEMENT,
    /** JDBC {@code Connection.prepareCall}, including the escape {@code { call f(?) }}. */
    JDBC_CALLABLE_STATEMENT,
    /** Spring {@code JdbcTemplate} / {@code NamedParameterJdbcTemplate} / {@code JdbcClient}. */
    SPRING_JDBC_TEMPLATE,
    /** JPA {@code EntityManager.createNativeQuery} (and Hibernate {@code createSQLQuery}). */
    JPA_NATIVE_QUERY,
    /** Spring Data {@code @Query(value = ..., nativeQuery = true)} on a repository method. */
    SPRING_DATA_QUERY,
    /**
     * Spring Data {@code @Procedure("pg_try_advisory_lock")} (or {@code procedureName =} / {@code value =})
     * on a repository method: the function is named without SQL text, its key is the method's parameters.
     */
    SPRING_DATA_PROCEDURE,
    /**
     * MyBatis: {@code @Select}/{@code @Update}/{@code @Insert}/{@code @Delete} on a mapper method, or a
     * statement of a mapper XML file ({@code <mapper namespace="...">}).
     */
    MYBATIS,
    /**
     * jOOQ: plain SQL through {@code DSLContext.fetch/fetchOne/fetchValue/fetchSingle/execute/query/resultQuery},
     * a {@code DSL.field("... {0} ...", ...)} template, or {@code DSL.function(NAME, type, args...)}.
     */
    JOOQ,
    /** R2DBC {@code Connection.createStatement(sql).bind(...)} or Spring's {@code DatabaseClient.sql(sql).bind(...)}. */
    R2DBC,
    /** Vert.x SQL client {@code preparedQuery(sql).execute(Tuple.of(...))} or {@code query(sql).execute()}. */
    VERTX_SQL,
    /**
     * JDBI: {@code Handle.createQuery/createUpdate/select/execute}, or {@code @SqlQuery}/{@code @SqlUpdate}
     * on a SQL Object interface method.
     */
    JDBI,
    /** Micronaut Data {@code JdbcOperations.prepareStatement(sql, statement -> ...)}. */
    MICRONAUT_JDBC,
    /** A statement of a {@code .sql} file. */
    SQL_FILE,
    /** A string handed to a method the tool does not know, which executes it by all appearances. */
    OTHER_CALL,
    /** A SQL constant declared here and executed elsewhere. */
    DECLARATION,
    /**
     * A call of a lock helper: a method (or an {@code AutoCloseable} handle's constructor or factory)
     * that takes or releases an advisory lock with a key from its parameters. The SQL and its context
     * belong to the helper's own site.
     */
    LOCK_HELPER
}
