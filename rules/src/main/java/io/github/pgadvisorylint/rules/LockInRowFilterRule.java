package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code lock-in-row-filter}: an advisory-lock acquisition in a {@code WHERE}, {@code JOIN ... ON} or
 * {@code HAVING} predicate of a query block that reads rows, with no LIMIT (those are
 * {@code lock-in-limit-query}'s). The planner orders predicates by estimated cost, not by the SQL text
 * (RULES.md F8), so the lock may be taken on rows a later predicate rejects. Silent when the statement
 * limits its rows in a subquery or CTE (the safe form), and for a primary-key lookup
 * ({@code WHERE id = ?}, {@link RowSources#isKeyLookup}).
 */
public final class LockInRowFilterRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public LockInRowFilterRule() {
        // precision: a fact of one query's syntax: the planner orders predicates
        super(
                "lock-in-row-filter",
                Severity.WARNING,
                Precision.HIGH,
                "Advisory lock in a WHERE, JOIN or HAVING predicate can lock rows the query does not return.",
                "PostgreSQL evaluates the predicates of a WHERE, JOIN ... ON or HAVING clause in the order its planner "
                        + "chooses by estimated cost, not in the order written. A lock function there may run for rows "
                        + "that another predicate then rejects, and those locks stay held without the caller knowing "
                        + "their keys; a re-evaluated predicate can lock one row twice while the caller unlocks once.",
                List.of("correctness", "concurrency", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        for (LockSite site : context.model().sqlAcquisitions()) {
            SqlContext sql = site.sql();
            String where = switch (sql.clause()) {
                case WHERE -> "the WHERE clause";
                case JOIN_CONDITION -> "a JOIN condition";
                case HAVING -> "the HAVING clause";
                default -> null;
            };
            if (where == null
                    || !sql.readsRows()
                    || sql.isLimited()
                    || RowSources.limitedSource(sql)
                    || RowSources.isKeyLookup(sql)) {
                continue;
            }
            List<RelatedLocation> related = new ArrayList<>();
            if (site.declarationRegion() != null) {
                related.add(
                        new RelatedLocation(site.declarationRegion(), "the SQL with the lock call is declared here"));
            }
            context.report(
                    Severity.WARNING,
                    site,
                    site.display() + " is evaluated in " + where + " of a query that "
                            + "reads rows: PostgreSQL orders predicates by estimated cost, not as written, so it may take the "
                            + "lock on rows another predicate then rejects, and those locks stay held. Select the rows first "
                            + "(a subquery or CTE with the other conditions, and LIMIT), then lock in the outer query.",
                    related);
        }
    }
}
