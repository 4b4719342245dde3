package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockMode;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.model.ReleaseMismatch;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code unlock-mismatch}: a release that does not match the lock it is meant to release. The rule pairs nothing
 * itself; it reports two facts of the model, at the release, with the acquisitions as related locations:
 * <ul>
 *   <li>the lock paths' ({@code core.flow}) {@link PathFinding.Kind#STACKED} holds,
 *       {@link PathFinding.Kind#RELEASE_WITHOUT_HOLD} (a release on the path where the try-lock failed) and
 *       {@link PathFinding.Kind#RELEASE_ON_OTHER_CONNECTION};</li>
 *   <li>the written keys' {@link ReleaseMismatch}es ({@code core.keys.ReleaseMatching}): a transaction-level lock
 *       unlocked (F2), the other mode (F7), the other key space (F6), another known key, a key computed from other
 *       inputs, more unlocks than locks or stacked locks not all released in straight-line code (F4), and
 *       {@code pg_advisory_unlock_all()} where it releases the wrong session's locks or more than its one lock
 *       (F5).</li>
 * </ul>
 */
public final class UnlockMismatchRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public UnlockMismatchRule() {
        // precision: lock-state dataflow pairing each unlock with the locks held on its path
        super(
                "unlock-mismatch",
                Severity.ERROR,
                Precision.MEDIUM,
                "An advisory unlock that does not match the lock it is meant to release.",
                "pg_advisory_unlock releases one hold of one session-level lock of exactly that key, key space and "
                        + "mode. Unlocking another key, the other key space, the other mode or a transaction-level lock "
                        + "returns false and leaves the real lock held; session locks stack, so a key locked twice needs "
                        + "two unlocks; pg_advisory_unlock_all() drops every session lock of the connection, and only of "
                        + "that connection.",
                List.of("correctness", "concurrency", "resource-leak", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        for (PathFinding f : context.model().pathFindings()) {
            switch (f.kind()) {
                case STACKED ->
                    reportPath(
                            context,
                            Severity.ERROR,
                            f,
                            f.acquisition().display()
                                    + " takes a session-level lock, but " + f.note()
                                    + " (F4). Take it once per unlock, or unlock as "
                                    + "many times as it was taken.");
                case RELEASE_WITHOUT_HOLD, RELEASE_ON_OTHER_CONNECTION ->
                    reportPath(
                            context,
                            Severity.ERROR,
                            f,
                            f.release().display() + " does not match the lock it is meant to release: " + f.note()
                                    + ".");
                default -> {}
            }
        }
        for (ReleaseMismatch m : context.model().releaseMismatches()) {
            report(context, m);
        }
    }

    private static void report(RuleContext context, ReleaseMismatch m) {
        LockSite r = m.release();
        LockSite a = m.holds().get(0);
        String where = m.scope() == ReleaseMismatch.Scope.METHOD ? "this method" : "this class";
        switch (m.kind()) {
            case KEY_COMPUTED_DIFFERENTLY ->
                report(
                        context,
                        m,
                        r.display() + " computes its key with " + m.releaseComputation() + ", but " + where
                                + " locks " + a.key().display() + ", computed with " + m.holdComputation()
                                + ": whenever the inputs differ the two keys differ, so the unlock returns false and the"
                                + " lock stays held until the session ends. Compute the key once, in one method, and use"
                                + " it for the lock and the unlock.",
                        "the lock whose key is computed from other inputs");
            case TRANSACTION_LEVEL ->
                report(
                        context,
                        m,
                        r.display() + " tries to release a lock that " + where + " took at transaction level "
                                + "with " + a.function().sqlName()
                                + ": transaction-level locks cannot be released early "
                                + "(there is no pg_advisory_xact_unlock); this call returns false with a WARNING and the"
                                + " lock stays held until COMMIT or ROLLBACK. Drop the unlock, or take a session-level"
                                + " lock if it must end early.",
                        "the transaction-level lock");
            case OTHER_MODE ->
                report(
                        context,
                        m,
                        r.display() + " releases a " + mode(r) + " lock, but " + where + " took key "
                                + r.key().display() + " in " + mode(a) + " mode with "
                                + a.function().sqlName() + ": the unlock returns "
                                + "false with a WARNING and the " + mode(a) + " lock stays held. Use "
                                + (a.function().mode() == LockMode.SHARED
                                        ? "pg_advisory_unlock_shared"
                                        : "pg_advisory_unlock")
                                + ".",
                        "the " + mode(a) + " lock");
            case OTHER_KEY_SPACE ->
                report(
                        context,
                        m,
                        r.display() + " releases key " + r.key().display() + " in the "
                                + space(r.key()) + " key space, but " + where + " locked "
                                + a.key().display() + " in the "
                                + space(a.key())
                                + " key space: the two spaces never overlap, so the unlock returns false and the lock "
                                + "stays held. Use the same arguments in the lock and the unlock.",
                        "the lock in the other key space");
            case OTHER_KEY ->
                report(
                        context,
                        m,
                        r.display() + " releases key " + r.key().display() + ", but " + where
                                + " locks "
                                + m.holds().stream()
                                        .map(h -> h.key().display())
                                        .distinct()
                                        .reduce((x, y) -> x + ", " + y)
                                        .orElse("")
                                + ": the unlock returns false and the lock that was taken stays held. Unlock the key"
                                + " that was locked (one named constant for both).",
                        "the lock this unlock was probably meant for");
            case EXTRA_UNLOCK ->
                report(
                        context,
                        m,
                        r.display() + " is unlock number " + (m.holds().size() + 1) + " of a key "
                                + "this method locks " + times(m.holds().size())
                                + ": the extra unlock returns false with a WARNING "
                                + "(or releases a hold that a caller took). Unlock once per lock, in one finally block.",
                        "the lock");
            case STACKED_UNRELEASED ->
                report(
                        context,
                        m,
                        "key " + r.key().display() + " is locked "
                                + times(m.holds().size())
                                + " in this method but unlocked " + times(m.releases())
                                + ": session-level locks stack, so "
                                + "after the last unlock the session still holds the key. Unlock once per lock, or"
                                + " lock once.",
                        "a lock of this key");
            case UNLOCK_ALL_ONLY_RELEASE ->
                report(
                        context,
                        m,
                        "pg_advisory_unlock_all() is the only release of the one lock "
                                + a.display()
                                + " written next to it: it drops every session-level advisory lock of "
                                + "the connection, including locks that callers or other code sharing the connection"
                                + " still rely on. Release the key with pg_advisory_unlock"
                                + a.key().display() + ".",
                        "the one lock it releases");
            case UNLOCK_ALL_POOLED ->
                report(
                        context,
                        m,
                        "pg_advisory_unlock_all() runs through " + r.java().executionCall()
                                + ", outside a transaction: "
                                + r.execution().connectionEvidence() + ", so it releases the locks of whatever pooled "
                                + "connection is free, not of the sessions that took the project's locks: those stay"
                                + " held, and a lock another caller leaked onto that connection is dropped. Release"
                                + " each lock on the connection that took it.",
                        "a session-level lock taken on its own connection");
            case UNLOCK_ALL_FRESH_CONNECTION ->
                report(
                        context,
                        m,
                        "pg_advisory_unlock_all() runs on a connection this code has just "
                                + "borrowed, not on the session that took the lock: it releases only the current"
                                + " session's locks, so the lock taken elsewhere stays held. Unlock on the connection"
                                + " that locked, or let that session end.",
                        "a session-level lock taken on another connection");
        }
    }

    private static String times(int n) {
        return n == 1 ? "once" : n == 2 ? "twice" : n + " times";
    }

    private static void report(RuleContext context, ReleaseMismatch m, String message, String what) {
        List<RelatedLocation> rel = new ArrayList<>();
        for (LockSite a : m.holds().subList(0, Math.min(3, m.holds().size()))) {
            rel.add(new RelatedLocation(a.region(), what));
        }
        context.report(Severity.ERROR, m.release(), message, rel);
    }

    private static String mode(LockSite s) {
        return s.function().mode() == LockMode.SHARED ? "shared" : "exclusive";
    }

    private static String space(LockKey k) {
        return k.space() == KeySpace.BIGINT ? "one-bigint" : "two-int";
    }
}
