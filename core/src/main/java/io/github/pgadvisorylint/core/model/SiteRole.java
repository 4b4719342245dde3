package io.github.pgadvisorylint.core.model;

/**
 * What a lock site stands for in the code: where its SQL runs, and whether its callers are sites of
 * their own. Computed once by {@link LockModel} (read it with {@link LockModel#role(LockSite)}), so
 * rules ask instead of re-deriving exclusions from {@link ExecutionApi} values.
 *
 * <p>One role per site, decided in this order: {@link #HELPER_CALL}, {@link #DECLARATION},
 * {@link #ANNOTATION}, {@link #HELPER_BODY}, else {@link #EXECUTED}.
 */
public enum SiteRole {
    /** The SQL is executed here: a JDBC, template, JPA, jOOQ, R2DBC, Vert.x or JDBI call, or a SQL file's statement. */
    EXECUTED,
    /**
     * The SQL is only declared here, in a constant or a field ({@link ExecutionApi#DECLARATION}), and
     * executed by code the tool did not tie to it.
     */
    DECLARATION,
    /**
     * The SQL inside a lock helper: a method (or a MyBatis mapper statement) that takes or releases an
     * advisory lock with a key from its parameters. Each call of the helper is a {@link #HELPER_CALL}
     * site of its own; this site is where the SQL and its context are judged.
     */
    HELPER_BODY,
    /**
     * A call of a lock helper ({@link ExecutionApi#LOCK_HELPER}): it repeats the helper's own site with
     * the keys of its arguments, at the caller's line.
     */
    HELPER_CALL,
    /**
     * SQL in an annotation of a method, run by the method's callers: Spring Data {@code @Query} and
     * {@code @Procedure}, MyBatis {@code @Select}/{@code @Update}/…, JDBI {@code @SqlQuery}/{@code @SqlUpdate}.
     */
    ANNOTATION;

    /**
     * @return true for {@link #DECLARATION} and {@link #ANNOTATION}: the SQL is written here but runs
     *     in other code, so the method or class around it says nothing about how it is executed
     */
    public boolean declaredOnly() {
        return this == DECLARATION || this == ANNOTATION;
    }

    /**
     * Decides a site's role.
     *
     * @param site       a lock site
     * @param helperBody true when the site is the own SQL of a lock helper (from the helper registry)
     * @return its role
     */
    public static SiteRole of(LockSite site, boolean helperBody) {
        ExecutionApi api = site.api();
        if (api == ExecutionApi.LOCK_HELPER) {
            return HELPER_CALL;
        }
        if (api == ExecutionApi.DECLARATION) {
            return DECLARATION;
        }
        if (api == ExecutionApi.SPRING_DATA_QUERY
                || api == ExecutionApi.SPRING_DATA_PROCEDURE
                || ((api == ExecutionApi.MYBATIS || api == ExecutionApi.JDBI)
                        && site.language() == Language.JAVA
                        && site.java() != null
                        && site.java().executionCall() == null)) {
            return ANNOTATION; // a MyBatis or JDBI call has an executing call; their annotations have none
        }
        return helperBody ? HELPER_BODY : EXECUTED;
    }
}
