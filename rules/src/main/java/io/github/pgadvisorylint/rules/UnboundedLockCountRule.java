package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.LoopContext;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code unbounded-lock-count}: advisory locks taken per row of a table, or per element of a collection
 * the code does not bound, in one session or transaction. Every lock held takes a slot of the shared
 * lock table; when it is full every session of the cluster fails with "out of shared memory" (RULES.md
 * F11). Two shapes: a key with a per-row column in a query that reads rows without LIMIT (silent over
 * a limited subquery, a VALUES list, or a primary-key lookup); an acquisition in a Java loop
 * ({@link LoopContext#accumulatesLocks()}: unbounded, key varying per iteration, no release per
 * iteration, not a try-lock loop that stops at the first success). The loop shape also fires at calls
 * of lock helpers (the loop is the caller's).
 */
public final class UnboundedLockCountRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public UnboundedLockCountRule() {
        // precision: whether the rows or the collection can be large is not in the code
        super(
                "unbounded-lock-count",
                Severity.WARNING,
                Precision.MEDIUM,
                "Advisory locks taken per row or per collection element with no bound on their number.",
                "Every advisory lock held takes a slot in PostgreSQL's shared lock table, sized by "
                        + "max_locks_per_transaction x (max_connections + max_prepared_transactions); about 12,900 on "
                        + "default settings. A statement that locks every row it reads, or a loop that locks every "
                        + "element of a collection and releases nothing until the end, can fill it: then no session of "
                        + "the cluster can take any lock, not even for a plain SELECT (out of shared memory).",
                List.of("reliability", "performance", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        LoopResults perLoop = new LoopResults(context.model());
        for (LockSite site : context.model().acquisitions()) {
            List<RelatedLocation> related = new ArrayList<>();
            if (context.model().role(site) != SiteRole.HELPER_CALL
                    && perRow(site.sql())
                    && site.key().hasColumnPart()
                    && !RowSources.pinsKeyColumns(site)) {
                if (site.declarationRegion() != null) {
                    related.add(new RelatedLocation(
                            site.declarationRegion(), "the SQL with the lock call is declared here"));
                }
                context.report(
                        Severity.WARNING,
                        site,
                        site.display() + " takes one lock per row the query reads, with "
                                + "no LIMIT: " + holds(site)
                                + " every one of them, and a large table fills the shared lock table "
                                + "(out of shared memory for every session of the cluster). Limit the rows in a subquery, or "
                                + "lock one key that stands for the whole set.",
                        related);
                continue;
            }
            LoopContext loop = context.model().usage(site).loop();
            if (loop != null && loop.accumulatesLocks() && !context.model().endsWithItsStatement(site)) {
                perLoop.add(site);
            }
        }
        // one result per loop, at its first lock: the others of the iteration are related locations
        for (List<LockSite> sites : perLoop.groups()) {
            LockSite site = sites.get(0);
            LoopContext loop = context.model().usage(site).loop();
            List<RelatedLocation> related = new ArrayList<>();
            related.add(new RelatedLocation(loop.region(), "the loop: nothing bounds its iterations"));
            related.addAll(LoopResults.othersOf(sites));
            String each = sites.size() == 1 ? " one lock per element" : " " + sites.size() + " locks per element";
            context.report(
                    Severity.WARNING,
                    site,
                    site.display() + " is taken once per iteration of "
                            + loop.description() + " and nothing is released before the loop ends: " + holds(site)
                            + each + ", and a large collection fills the shared lock table (out of shared "
                            + "memory for every session of the cluster). Release each lock in the iteration (finally), "
                            + "use a transaction per element or per bounded batch, or lock one key for the whole set.",
                    related);
        }
    }

    private static boolean perRow(SqlContext sql) {
        return sql.readsRows()
                && !sql.isLimited()
                && sql.clause() != SqlClause.FROM
                && sql.clause() != SqlClause.CALL
                && !RowSources.limitedSource(sql)
                && !RowSources.isKeyLookup(sql);
    }

    private static String holds(LockSite site) {
        return site.function().level() == LockLevel.SESSION ? "the session holds" : "the transaction holds";
    }
}
