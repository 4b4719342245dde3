package io.github.pgadvisorylint.core.model;

import java.util.Objects;

/**
 * What the code around one lock site does with it, beyond its SQL: how the call's boolean is used,
 * the loop it runs in, the timeout in force, and its place in the method's control flow. Computed by
 * the Java front end ({@code core.java.SiteUsageAnalyzer}) and the SQL file front end; read through
 * {@link LockModel#usage(LockSite)}.
 *
 * @param result          how the returned boolean reaches a decision (try-locks and unlocks)
 * @param resultNote      a short explanation for messages, e.g. {@code rs.next() is tested, never rs.getBoolean(1)}; never null
 * @param loop            the innermost loop around the site, or null
 * @param timeout         the lock or statement timeout in force where the site runs, or null
 * @param straightLine    true when nothing conditional lies between the site and its method's body
 *                        (only {@code try} and {@code finally} blocks): it runs whenever the method
 *                        runs to that point, so counting the method's locks and unlocks is meaningful
 * @param freshConnection true when the site runs on a connection this method just took from a pool
 *                        or driver ({@code getConnection()}), or on a template that borrows one per call
 */
public record SiteUsage(
        ResultUse result,
        String resultNote,
        LoopContext loop,
        TimeoutEvidence timeout,
        boolean straightLine,
        boolean freshConnection) {

    /** Nothing known. */
    public static final SiteUsage UNKNOWN = new SiteUsage(ResultUse.UNKNOWN, "", null, null, false, false);

    /** Checks that the required fields are present. */
    public SiteUsage {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(resultNote, "resultNote");
    }

    /** @return this usage with the given result */
    public SiteUsage withResult(ResultUse use, String note) {
        return new SiteUsage(use, note, loop, timeout, straightLine, freshConnection);
    }

    /** @return this usage with the given timeout evidence, unless one is already known */
    public SiteUsage withTimeoutIfAbsent(TimeoutEvidence evidence) {
        return timeout != null || evidence == null
                ? this
                : new SiteUsage(result, resultNote, loop, evidence, straightLine, freshConnection);
    }
}
