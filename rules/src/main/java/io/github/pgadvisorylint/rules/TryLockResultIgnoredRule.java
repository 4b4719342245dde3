package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.model.ResultUse;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.model.SiteUsage;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code try-lock-result-ignored}: the boolean of {@code pg_try_advisory_*} is not what decides whether
 * the guarded work runs (RULES.md; F14: {@code Statement.execute} says only that a result set exists;
 * F16: {@code pg_try_*} and the unlocks return {@code boolean}). Error for try-locks whose result is
 * never read, replaced by {@code execute}'s flag or by row existence, or read without deciding; a
 * dropped unlock boolean is {@link UnlockResultIgnoredRule}'s.
 * Facts from {@link io.github.pgadvisorylint.core.model.SiteUsage#result()}; calls of lock helpers are
 * skipped (the helper's own SQL is judged, once) unless core judged the call itself: a repository
 * method whose return value is the lock's boolean.
 */
public final class TryLockResultIgnoredRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public TryLockResultIgnoredRule() {
        // precision: how the call's result is read, in the method that runs it
        super(
                "try-lock-result-ignored",
                Severity.ERROR,
                Precision.HIGH,
                "The boolean of pg_try_advisory_lock does not decide whether the guarded work runs.",
                "pg_try_advisory_lock and its variants return false at once when another session holds the key. "
                        + "When the code never reads that value, reads Statement.execute's flag instead (true for any "
                        + "query), tests only that a row came back (one always does), or reads the value without "
                        + "testing it, the work runs whether or not the lock was granted: no mutual exclusion.",
                List.of("correctness", "concurrency", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        Set<LockSite> reported = usages(context);
        for (PathFinding f : context.model().pathFindings()) {
            if (f.kind() == PathFinding.Kind.WORK_WITHOUT_HOLD && !reported.contains(f.acquisition())) {
                reportPath(
                        context,
                        Severity.ERROR,
                        f,
                        f.acquisition().display() + " returns false when another session holds the key, and "
                                + f.note() + ". Skip the work (return, throw) when the try-lock did not succeed,"
                                + " or wait with a blocking lock and lock_timeout.");
            }
        }
    }

    /** The checks of each site's result use; returns the try-locks reported, whose paths need no second finding. */
    private static Set<LockSite> usages(RuleContext context) {
        Set<LockSite> reported = new HashSet<>();
        for (LockSite site : context.model().sites()) {
            SiteUsage usage = context.model().usage(site);
            boolean helperCall = context.model().role(site) == SiteRole.HELPER_CALL;
            if (helperCall && usage.result() == ResultUse.UNKNOWN) {
                continue; // judged once, at the helper's own SQL
            }
            LockOperation op = site.function().operation();
            List<RelatedLocation> related = new ArrayList<>();
            if (site.declarationRegion() != null) {
                related.add(
                        new RelatedLocation(site.declarationRegion(), "the SQL with the lock call is declared here"));
            }
            if (op == LockOperation.TRY_ACQUIRE) {
                String why = switch (usage.result()) {
                    case NEVER_READ -> "its result is never read (" + usage.resultNote() + ")";
                    case EXECUTE_FLAG -> "the code decides on " + usage.resultNote();
                    case ROW_EXISTENCE -> usage.resultNote();
                    case READ_NOT_DECIDING -> usage.resultNote() + ", so it does not decide whether the work runs";
                    default -> null;
                };
                if (why != null) {
                    String example =
                            helperCall && site.java() != null && site.java().executionCall() != null
                                    ? "if (" + site.java().executionCall() + "(...)) { ... }"
                                    : "if (rs.next() && rs.getBoolean(1)) { ... } or "
                                            + "Boolean.TRUE.equals(jdbc.queryForObject(sql, Boolean.class, key))";
                    context.report(
                            Severity.ERROR,
                            site,
                            site.display() + " returns false when another session holds "
                                    + "the key, but " + why
                                    + ": the guarded work runs either way. Read the boolean and skip the "
                                    + "work when it is false, e.g. " + example + ".",
                            related);
                    reported.add(site);
                }
            }
        }
        return reported;
    }
}
