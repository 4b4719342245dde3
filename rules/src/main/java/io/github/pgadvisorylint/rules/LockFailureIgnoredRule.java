package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.model.SiteHazards.SwallowedFailure;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.List;

/**
 * {@code lock-failure-ignored}: an acquisition whose failure (an exception, or a try-lock's
 * {@code false} turned into one) is caught by a handler that only logs or assigns a default, after
 * which the guarded work runs as if the lock were held. A blocking lock fails with
 * {@code lock_timeout} (RULES.md F12), {@code deadlock detected} (F9), a statement timeout or a
 * broken connection. Reported at the acquisition, with the catch clause and the work as related
 * locations; the fact comes from {@code LockModel#hazards}.
 */
public final class LockFailureIgnoredRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public LockFailureIgnoredRule() {
        // precision: reads what the handler does and what runs after it
        super(
                "lock-failure-ignored",
                Severity.WARNING,
                Precision.MEDIUM,
                "Advisory lock failure caught and logged, then the guarded work runs anyway.",
                "When taking an advisory lock fails (lock_timeout, deadlock detected, a statement timeout, a broken "
                        + "connection, or a try-lock's false turned into an exception) and the handler only logs it or "
                        + "sets a default, the code after the try runs the guarded work without holding the lock, "
                        + "concurrently with the session that does hold it.",
                List.of("correctness", "concurrency", "error-handling", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        for (LockSite site : context.model().acquisitions()) {
            SwallowedFailure swallowed = context.model().hazards(site).swallowedFailure();
            if (swallowed == null) {
                continue;
            }
            String failure = swallowed.falseThrown()
                    ? "the exception thrown when " + site.display() + " returns false"
                    : "a failure of " + site.display();
            context.report(
                    Severity.WARNING,
                    site,
                    "The catch clause that handles " + failure + " " + swallowed.handling()
                            + ", and the code carries on without the lock: " + swallowed.workNote()
                            + ", as if the lock were "
                            + "held, concurrently with the session that holds it. Rethrow or return from the handler, or "
                            + "keep the work inside the try after the lock so that a failure skips it.",
                    List.of(
                            new RelatedLocation(swallowed.catchClause(), "handler that swallows the failure"),
                            new RelatedLocation(swallowed.work(), "work that runs without the lock")));
        }
        // across methods (core.flow): a lock method that swallows its own failure, called from elsewhere
        for (PathFinding f : context.model().pathFindings()) {
            if (f.kind() != PathFinding.Kind.FAILURE_SWALLOWED
                    || context.model().hazards(f.acquisition()).swallowedFailure() != null) {
                continue;
            }
            reportPath(
                    context,
                    Severity.WARNING,
                    f,
                    f.acquisition().display() + " can fail (a lock timeout, a "
                            + "deadlock, a broken connection), but " + f.note()
                            + ". Rethrow the failure, or return false and "
                            + "make the callers test it.");
        }
    }
}
