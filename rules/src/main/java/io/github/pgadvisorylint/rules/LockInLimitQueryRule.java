package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code lock-in-limit-query}: an advisory-lock acquisition evaluated in a query block that reads
 * rows under a LIMIT, OFFSET or FETCH, so PostgreSQL may lock more rows than it returns (RULES.md
 * F8; PostgreSQL docs "Advisory Locks", the {@code LIMIT} caution in section 13.3.5). Error when the
 * call filters, orders, groups or de-duplicates rows; warning when it is only in the select list.
 */
public final class LockInLimitQueryRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public LockInLimitQueryRule() {
        // precision: a fact of one query's syntax, measured on PostgreSQL 15 (F8)
        super(
                "lock-in-limit-query",
                Severity.ERROR,
                Precision.HIGH,
                "Advisory lock taken in a query with LIMIT can lock more rows than it returns.",
                "An advisory-lock function evaluated in a query block with LIMIT, OFFSET or FETCH FIRST that reads "
                        + "rows may be called for rows the LIMIT later discards: with the call in WHERE, or feeding "
                        + "ORDER BY, DISTINCT, GROUP BY or a UNION arm, PostgreSQL 15 took 100 to 10,000 locks for a "
                        + "LIMIT 1 query. The locks stay held and nobody knows to release them.",
                List.of("correctness", "concurrency", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        for (LockSite site : context.model().sqlAcquisitions()) {
            SqlContext sql = site.sql();
            if (!sql.isLimited()
                    || !sql.readsRows()
                    || sql.clause() == SqlClause.FROM
                    || sql.clause() == SqlClause.CALL
                    || (sql.clause() == SqlClause.WHERE && RowSources.lockAloneOverLimitedSubquery(sql))) {
                continue;
            }
            boolean decides = switch (sql.clause()) {
                case WHERE, JOIN_CONDITION, HAVING, ORDER_BY, GROUP_BY -> true;
                default -> sql.feedsRowChoice();
            };
            String limit = sql.limitKeyword().toUpperCase(Locale.ROOT);
            String message;
            if (decides) {
                message = site.display() + " is evaluated " + where(sql) + " of a query with " + limit
                        + ": PostgreSQL may call it for every row it reads before the " + limit
                        + " applies (a sort, filter or aggregate sits between the scan and the limit), and each call "
                        + "takes a lock the query never returns. Select and limit the rows in a subquery, and lock in "
                        + "the outer query.";
            } else {
                message = site.display() + " is in the select list of a query with " + limit
                        + " that reads rows: PostgreSQL 15 happens to call it only for returned rows, but no version "
                        + "promises that. Select and limit the rows in a subquery, and lock in the outer query.";
            }
            List<RelatedLocation> related = new ArrayList<>();
            if (site.declarationRegion() != null) {
                related.add(
                        new RelatedLocation(site.declarationRegion(), "the SQL with the lock call is declared here"));
            }
            context.report(decides ? Severity.ERROR : Severity.WARNING, site, message, related);
        }
    }

    private static String where(SqlContext sql) {
        return switch (sql.clause()) {
            case WHERE -> "in the WHERE clause";
            case JOIN_CONDITION -> "in a JOIN condition";
            case HAVING -> "in the HAVING clause";
            case ORDER_BY -> "in the ORDER BY";
            case GROUP_BY -> "in the GROUP BY";
            default -> "in the select list of a DISTINCT, GROUP BY, ordered or UNION query block";
        };
    }
}
