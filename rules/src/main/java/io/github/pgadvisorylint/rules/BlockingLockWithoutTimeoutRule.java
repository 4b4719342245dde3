package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.model.SiteUsage;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code blocking-lock-without-timeout}: a blocking {@code pg_advisory_lock*} or
 * {@code pg_advisory_xact_lock*} with no {@code lock_timeout} or {@code statement_timeout} in force
 * (RULES.md; F12: {@code lock_timeout} cancels a waiting advisory-lock call with SQLSTATE 55P03).
 * Timeouts seen: {@link SiteUsage#timeout()} ({@code SET [LOCAL]} earlier in the SQL, script or
 * method, {@code setQueryTimeout}, {@code @Transactional(timeout)}, a function's {@code SET} clause)
 * and the project's connection settings ({@code options=-c lock_timeout=...}). Note severity: a
 * design choice more than a bug. Calls of lock helpers are skipped (reported at the helper's SQL);
 * SQL constants executed elsewhere are skipped (the executing code is not known).
 *
 * <p>Off by default: on 20 public repositories it fired on nearly every blocking call (16 notes, 1 of
 * them useful). Whether an unbounded wait is a risk depends on what waits (a request thread, or a
 * dedicated worker or migration that must run alone), which the code does not say; as an audit, switched
 * on with {@code rules: {blocking-lock-without-timeout: on}}, it lists every wait with no timeout.
 */
public final class BlockingLockWithoutTimeoutRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public BlockingLockWithoutTimeoutRule() {
        // precision: a timeout may come from the role, the database or the pool, which the code does not show
        super(
                "blocking-lock-without-timeout",
                Severity.NOTE,
                Precision.LOW,
                "Blocking advisory lock with no lock_timeout or statement_timeout in force.",
                "pg_advisory_lock and pg_advisory_xact_lock wait as long as another session holds the key. With no "
                        + "lock_timeout or statement_timeout in force, a holder that hangs (a stuck job, a forgotten "
                        + "session lock on a pooled connection) makes every waiter hang too, each holding a connection.",
                List.of("reliability", "concurrency", "postgresql", "advisory-lock"),
                false);
    }

    @Override
    public void check(RuleContext context) {
        for (LockSite site : context.model().acquisitions()) {
            if (!context.model().connectionTimeouts(site.region().path()).isEmpty()) {
                continue; // every connection of its module (or project) gets a timeout from configuration
            }
            SiteRole role = context.model().role(site);
            if (role == SiteRole.HELPER_CALL
                    || role == SiteRole.DECLARATION
                    || site.function().operation() != LockOperation.ACQUIRE) {
                continue;
            }
            SiteUsage usage = context.model().usage(site);
            if (usage.timeout() != null) {
                continue;
            }
            List<RelatedLocation> related = new ArrayList<>();
            if (site.declarationRegion() != null) {
                related.add(
                        new RelatedLocation(site.declarationRegion(), "the SQL with the lock call is declared here"));
            }
            context.report(
                    Severity.NOTE,
                    site,
                    site.display() + " waits for as long as another session holds the "
                            + "key, and no lock_timeout or statement_timeout is in force here: a holder that hangs makes this "
                            + "call hang with it. Run SET LOCAL lock_timeout = '5s' first (the wait then fails with SQLSTATE "
                            + "55P03), set a query timeout, or use "
                            + site.function().sqlName().replace("pg_advisory_", "pg_try_advisory_")
                            + " and handle false.",
                    related);
        }
    }
}
