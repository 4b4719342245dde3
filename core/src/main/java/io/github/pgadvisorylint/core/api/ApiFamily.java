package io.github.pgadvisorylint.core.api;

import java.util.List;

/**
 * The library a {@link MethodMatcher} or a {@link TypeFact} belongs to, with the import prefixes that
 * show a file uses it.
 */
public enum ApiFamily {
    /** {@code java.sql}: {@code Connection}, {@code Statement}, {@code ResultSet}, {@code DriverManager}. */
    JDBC("java.sql.", "javax.sql."),
    /** Spring JDBC: {@code JdbcTemplate}, {@code NamedParameterJdbcTemplate}, {@code JdbcClient}, data sources. */
    SPRING_JDBC("org.springframework.jdbc."),
    /** Spring's transaction templates ({@code TransactionTemplate}). */
    SPRING_TX("org.springframework.transaction."),
    /** JPA and Hibernate: {@code EntityManager}, {@code Query}, {@code Session}. */
    JPA("jakarta.persistence.", "javax.persistence.", "org.hibernate."),
    /** jOOQ: {@code DSLContext}, {@code DSL}. */
    JOOQ("org.jooq."),
    /** JDBI 2 and 3: {@code Jdbi}, {@code Handle}. */
    JDBI("org.jdbi.", "org.skife.jdbi."),
    /** R2DBC and Spring's {@code DatabaseClient}. */
    R2DBC("io.r2dbc.", "org.springframework.r2dbc."),
    /** The Vert.x SQL client. */
    VERTX(
            "io.vertx.sqlclient.",
            "io.vertx.pgclient.",
            "io.vertx.reactivex.sqlclient.",
            "io.vertx.rxjava3.sqlclient.",
            "io.vertx.mutiny.sqlclient."),
    /** MyBatis mappers and sessions. */
    MYBATIS("org.apache.ibatis."),
    /** Micronaut Data's {@code JdbcOperations}. */
    MICRONAUT("io.micronaut."),
    /** PostgreSQL's JDBC driver ({@code PGSimpleDataSource}). */
    PGJDBC("org.postgresql."),
    /** Connection pools: HikariCP, Tomcat JDBC, DBCP, c3p0. */
    POOLS("com.zaxxer.hikari.", "org.apache.tomcat.jdbc.", "org.apache.commons.dbcp", "com.mchange.v2.c3p0."),
    /** Names of small in-house SQL wrappers, matched by name alone. */
    GENERIC(),
    /** The JDK beyond {@code java.sql}: {@code Optional}, {@code Boolean}, streams, strings, clocks. */
    JDK("java.lang.", "java.util."),
    /** Logging: SLF4J, Log4j, JUL, {@code System.out}. */
    LOGGING("org.slf4j.", "org.apache.logging.", "java.util.logging.", "org.apache.commons.logging."),
    /** Test libraries: JUnit, AssertJ, Mockito, Hamcrest. */
    TESTING("org.junit.", "org.assertj.", "org.mockito.", "org.hamcrest.");

    @SuppressWarnings("ImmutableEnumChecker") // List.of: unmodifiable
    private final List<String> importPrefixes;

    ApiFamily(String... importPrefixes) {
        this.importPrefixes = List.of(importPrefixes);
    }

    /** @return the import prefixes that show a file uses the library (empty for {@link #GENERIC}) */
    public List<String> importPrefixes() {
        return importPrefixes;
    }
}
