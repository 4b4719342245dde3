package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.List;

/**
 * {@code session-unlock-before-commit}: a session-level unlock that runs while the transaction doing
 * the locked work is still open (a {@code @Transactional} method, a {@code TransactionTemplate}
 * callback, or a JDBC connection with autocommit off whose {@code commit()} comes later). A
 * session-level unlock takes effect at once (RULES.md F19): another session takes the key and reads
 * the state before the writes commit. Reported at the unlock, with the acquisition and the
 * transaction boundary as related locations and the path as its code flow; the fact is the lock-state
 * analysis' {@link PathFinding.Kind#RELEASE_BEFORE_COMMIT} (core.flow), which follows the transaction into
 * callers, callbacks and helpers.
 */
public final class SessionUnlockBeforeCommitRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public SessionUnlockBeforeCommitRule() {
        // precision: transaction boundaries inferred across methods and frameworks
        super(
                "session-unlock-before-commit",
                Severity.ERROR,
                Precision.MEDIUM,
                "Session-level advisory lock released before its transaction commits.",
                "pg_advisory_unlock takes effect immediately, even inside an open transaction. When the unlock runs "
                        + "in a @Transactional method, a TransactionTemplate callback or before commit() on a "
                        + "connection with autocommit off, another session can take the key and read the data "
                        + "before the first transaction's writes are committed and visible, which is the race the "
                        + "lock was meant to prevent.",
                List.of("correctness", "concurrency", "transactions", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        for (PathFinding f : context.model().pathFindings()) {
            if (f.kind() != PathFinding.Kind.RELEASE_BEFORE_COMMIT) {
                continue;
            }
            boolean manual = f.boundary() != null && f.boundary().kind() == PathFinding.BoundaryKind.MANUAL_COMMIT;
            String fix = manual
                    ? "Unlock after commit(), or use pg_advisory_xact_lock, which is released by the commit itself."
                    : "Use pg_advisory_xact_lock inside the transaction (released at its commit), or take and release "
                            + "the session lock outside the transaction, unlocking after it has committed.";
            reportPath(
                    context,
                    Severity.ERROR,
                    f,
                    f.release().display() + " releases the session-level lock "
                            + f.acquisition().display() + " "
                            + (f.boundary() != null ? f.note() : "while " + f.note())
                            + ": the unlock takes effect at once, so another session can take the key and read the data "
                            + "before this transaction's writes are committed." + aborted(context, f.release()) + " "
                            + fix);
        }
    }

    /**
     * The second consequence of the same unlock, when the path analysis found it (a {@code lock-without-finally-unlock}
     * finding this rule takes over, so that one change, one result): a failed statement aborts the transaction
     * first, and the unlock then fails too (F18).
     */
    private static String aborted(RuleContext context, LockSite release) {
        for (PathFinding f : context.model().pathFindings()) {
            if (f.kind() == PathFinding.Kind.ABORTED_UNLOCK
                    && context.model().releasesBeforeCommit(f.acquisition()).contains(release)) {
                return " And when a statement fails first, the transaction is aborted and this unlock fails with"
                        + " SQLSTATE 25P02: nothing is released, and the connection goes back to the pool holding the lock.";
            }
        }
        return "";
    }
}
