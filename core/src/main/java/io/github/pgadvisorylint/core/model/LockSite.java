package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * One call of an advisory-lock function: what it calls, with which key, where, and in what SQL and
 * host context. Immutable.
 *
 * @param id                a unique, stable id within one analysis ({@code path#index})
 * @param function          the function called
 * @param key               its key
 * @param region            the primary region: the function's name inside the SQL text, mapped to the
 *                          file; or the executing call when the SQL is a constant declared elsewhere
 * @param declarationRegion the function's name inside the constant's declaration when the SQL came
 *                          through a named constant; for a call of a lock helper, the helper's own SQL
 *                          site; else null
 * @param language          the language of the file holding {@link #region}
 * @param api               how the SQL is executed
 * @param sql               the SQL context
 * @param java              the Java context; null for SQL files
 * @param execution         the transaction and connection context
 */
public record LockSite(
        String id,
        AdvisoryFunction function,
        LockKey key,
        SourceRegion region,
        SourceRegion declarationRegion,
        Language language,
        ExecutionApi api,
        SqlContext sql,
        JavaContext java,
        ExecutionContext execution) {

    /** Checks that the required fields are present. */
    public LockSite {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(execution, "execution");
    }

    /** A site whose transaction and connection context is not known. */
    public LockSite(
            String id,
            AdvisoryFunction function,
            LockKey key,
            SourceRegion region,
            SourceRegion declarationRegion,
            Language language,
            ExecutionApi api,
            SqlContext sql,
            JavaContext java) {
        this(id, function, key, region, declarationRegion, language, api, sql, java, ExecutionContext.UNKNOWN);
    }

    /** @return the file path of the primary region, relative to the scan root */
    public String path() {
        return region.path();
    }

    /**
     * @param other another site
     * @return true when both are forms of one statement: one call whose SQL text, built from flags, can be
     *     either (exclusive or shared, try or not, one key or two); same region and same declaration. Two
     *     forms are one lock operation, never two in a row (the operations of one helper call have
     *     different declarations)
     */
    public boolean sameStatement(LockSite other) {
        return region.equals(other.region()) && Objects.equals(declarationRegion, other.declarationRegion());
    }

    /** @return true when this site is a call of a lock helper, not the SQL that takes the lock */
    public boolean viaHelper() {
        return api == ExecutionApi.LOCK_HELPER;
    }

    /** @return a short display of the call, e.g. {@code pg_try_advisory_lock(9001)} */
    public String display() {
        String call = function.sqlName() + (key.space() == KeySpace.NONE ? "()" : key.display());
        return viaHelper() && java != null && java.executionCall() != null
                ? java.executionCall() + " (" + call + ")"
                : call;
    }
}
