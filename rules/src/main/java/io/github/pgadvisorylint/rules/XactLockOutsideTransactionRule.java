package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.model.TransactionBoundary;
import io.github.pgadvisorylint.core.model.TransactionState;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code xact-lock-outside-transaction}: a transaction-level lock taken in autocommit, or in a
 * transaction that ends before the guarded work. It is released when its transaction ends: in
 * autocommit, as soon as the statement that took it finishes (RULES.md F3, verified on PostgreSQL 15).
 */
public final class XactLockOutsideTransactionRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public XactLockOutsideTransactionRule() {
        // precision: autocommit and transaction context inferred across methods and frameworks
        super(
                "xact-lock-outside-transaction",
                Severity.ERROR,
                Precision.MEDIUM,
                "Transaction-level advisory lock taken outside a transaction protects nothing.",
                "pg_advisory_xact_lock and pg_try_advisory_xact_lock are held until the end of the current "
                        + "transaction. In autocommit every statement is its own transaction, so the lock is released "
                        + "before the next statement runs; the same holds when the transaction that took it commits "
                        + "before the guarded work.",
                List.of("correctness", "concurrency", "transactions", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        for (LockSite site : context.model().acquisitions()) {
            // a lock helper's call is judged only where the call decided the transaction: a repository
            // @Query method or a boundary that holds only the lock joins its caller's transaction
            if (site.function().level() != LockLevel.TRANSACTION
                    || (context.model().role(site) == SiteRole.HELPER_CALL
                            && site.execution().boundary() != TransactionBoundary.FROM_CALL)) {
                continue;
            }
            TransactionState state = site.execution().transaction();
            List<RelatedLocation> related = site.execution().transactionRegion() == null
                    ? List.of()
                    : List.of(new RelatedLocation(
                            site.execution().transactionRegion(),
                            site.execution().transactionEvidence()));
            if (state == TransactionState.AUTOCOMMIT && !context.model().inCallersTransaction(site)) {
                // (the lock-state paths can know better: every caller in a transaction, or a pool whose
                // configuration turns auto-commit off)
                context.report(
                        Severity.ERROR,
                        site,
                        site.display() + " takes a transaction-level lock in autocommit ("
                                + site.execution().transactionEvidence()
                                + "): it is released as soon as this statement ends, "
                                + "so the work after it runs unprotected. Run the lock and the work in one transaction.",
                        related);
            } else if (state == TransactionState.ENDS_BEFORE_WORK
                    && !doesItsOwnWork(site)
                    && !(site.execution().boundary() == TransactionBoundary.NEW_UNLESS_CALLER
                            && !context.model().helperCalls(site).isEmpty())) {
                // (a template callback whose callers decide: when it has calls, they are judged, each where it is)
                context.report(
                        Severity.ERROR,
                        site,
                        site.display() + " takes a transaction-level lock in a transaction "
                                + "that ends right after it ("
                                + site.execution().transactionEvidence()
                                + "), releasing the lock before the work that follows. Do the work inside the same transaction.",
                        related);
            }
        }
        // the lock-state analysis: a lock whose connection's transaction its caller decides (a helper given a
        // connection the caller opened and left in autocommit), judged at the call
        for (PathFinding f : context.model().pathFindings()) {
            if (f.kind() == PathFinding.Kind.XACT_IN_AUTOCOMMIT) {
                reportPath(
                        context,
                        Severity.ERROR,
                        f,
                        f.acquisition().display() + " takes a transaction-level lock in autocommit: " + f.note()
                                + ". Call setAutoCommit(false) before it and commit after the work, so the lock"
                                + " and the work share one transaction.");
            } else if (f.kind() == PathFinding.Kind.XACT_ENDS_BEFORE_WORK) {
                reportPath(
                        context,
                        Severity.ERROR,
                        f,
                        f.acquisition().display() + " takes a transaction-level lock, but " + f.note()
                                + ". Commit after the work, so the lock and the work share one transaction, or take"
                                + " a session-level lock released in finally after the work.");
            }
        }
    }

    /**
     * @return true when the lock's own statement writes ({@code DELETE ... WHERE pg_try_advisory_xact_lock(id)},
     *     an {@code UPDATE}, {@code INSERT} or {@code MERGE}, also under a {@code WITH}): the work is that statement,
     *     which the transaction holds the lock for, so a transaction ending after it releases nothing too early
     */
    private static boolean doesItsOwnWork(LockSite site) {
        if (site.sql() == null || site.sql().statementText() == null) {
            return false;
        }
        String text = site.sql().statementText().strip().toUpperCase(Locale.ROOT);
        if (text.startsWith("WITH")) {
            return WRITES.matcher(text).find();
        }
        return text.startsWith("DELETE")
                || text.startsWith("UPDATE")
                || text.startsWith("INSERT")
                || text.startsWith("MERGE");
    }

    /** A data-modifying statement inside a {@code WITH} query. */
    private static final Pattern WRITES =
            Pattern.compile("\\b(DELETE\\s+FROM|UPDATE\\s+\\S+\\s+SET|INSERT\\s+INTO|MERGE\\s+INTO)\\b");
}
