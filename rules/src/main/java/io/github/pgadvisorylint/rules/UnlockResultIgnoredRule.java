package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.ResultUse;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.List;

/**
 * {@code unlock-result-ignored}: {@code pg_advisory_unlock} returns false when this session did not hold
 * the lock (F16), and the statement that runs it drops that boolean ({@code execute(...)}, a
 * {@code queryForObject(...)} whose value is not read). Off by default, a note: on correct code the
 * boolean is always true, so dropping it loses nothing; the rule is for teams that want a lost lock to
 * show up in their logs. Facts from {@link io.github.pgadvisorylint.core.model.SiteUsage#result()}
 * ({@link ResultUse#DISCARDED}).
 */
public final class UnlockResultIgnoredRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page; off by default. */
    public UnlockResultIgnoredRule() {
        // precision: how the unlock's result is read, in the method that runs it
        super(
                "unlock-result-ignored",
                Severity.NOTE,
                Precision.HIGH,
                "The boolean of pg_advisory_unlock is dropped, so a lock that was not held goes unnoticed.",
                "pg_advisory_unlock returns false, with a warning in the server log only, when this session did not "
                        + "hold the lock: it was never taken, was taken on another connection, or was released twice. "
                        + "Code that drops the boolean never learns that the section it thought exclusive was not.",
                List.of("reliability", "postgresql", "advisory-lock"),
                false);
    }

    @Override
    public void check(RuleContext context) {
        for (LockSite site : context.model().sites()) {
            if (site.function().operation() != LockOperation.RELEASE
                    || context.model().usage(site).result() != ResultUse.DISCARDED) {
                continue;
            }
            List<RelatedLocation> related = site.declarationRegion() == null
                    ? List.of()
                    : List.of(
                            new RelatedLocation(site.declarationRegion(), "the SQL with the unlock is declared here"));
            context.report(
                    Severity.NOTE,
                    site,
                    site.display() + " returns false when this session did not hold the lock, but "
                            + context.model().usage(site).resultNote()
                            + ": a false here means exclusivity was already lost (the lock was never taken, taken"
                            + " on another connection, or released twice). Read the boolean and log or fail when it"
                            + " is false.",
                    related);
        }
    }
}
