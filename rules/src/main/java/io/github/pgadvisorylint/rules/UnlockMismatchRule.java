package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.keys.KeyShapes;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockMode;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.model.TransactionState;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code unlock-mismatch}: a release that does not match the acquisitions of its method (or, for a
 * method that only releases, of its class). Sites are grouped by file, type and method
 * ({@code JavaContext}) or by script, in source order. Reported at the release:
 * <ul>
 *   <li>{@code pg_advisory_unlock*} of a key only locked at transaction level (F2: no early release);</li>
 *   <li>exclusive unlock of a key only locked shared, or the reverse (F7: returns false, WARNING);</li>
 *   <li>the other key space: {@code lock(k)} / {@code unlock(0, k)} (F6);</li>
 *   <li>a known key the method (class) never locks, while it locks other known keys;</li>
 *   <li>a key computed by the same function as every lock's it could release, from a different number of
 *       inputs ({@link KeyShapes}: {@code lockId(db)} against {@code lockId(db, schema)});</li>
 *   <li>counts of straight-line SQL sites of main code (no branch, loop, catch or lambda around them; not
 *       calls of lock helpers, which keep their own state; not test sources): more unlocks than locks of a
 *       key, or a key locked twice or more and unlocked fewer times (F4: session locks stack);</li>
 *   <li>{@code pg_advisory_unlock_all()} as the only release of the one key a method locks, or run on a
 *       connection just taken from a pool in a class that locks elsewhere (F5: it releases only the
 *       current session's locks, all of them).</li>
 * </ul>
 * Calls of lock helpers take part with the keys of their arguments and are reported at the call.
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
        LockModel model = context.model();
        Map<String, List<LockSite>> methods = new LinkedHashMap<>();
        Map<String, List<LockSite>> types = new LinkedHashMap<>();
        for (LockSite s : model.sites()) {
            if (model.role(s).declaredOnly()) {
                continue; // the SQL runs in its callers' methods, not in the one around it
            }
            String type = s.path() + "|" + (s.java() == null ? "" : s.java().typeName());
            methods.computeIfAbsent(
                            type + "|" + (s.java() == null ? "" : s.java().methodName()), k -> new ArrayList<>())
                    .add(s);
            types.computeIfAbsent(type, k -> new ArrayList<>()).add(s);
        }
        for (Map.Entry<String, List<LockSite>> e : methods.entrySet()) {
            List<LockSite> group = e.getValue();
            String typeKey = e.getKey().substring(0, e.getKey().lastIndexOf('|'));
            List<LockSite> acquisitions = group.stream()
                    .filter(s -> s.function().operation().isAcquisition())
                    .toList();
            boolean ownLocks = !acquisitions.isEmpty();
            List<LockSite> typeAcquisitions = types.get(typeKey).stream()
                    .filter(s -> s.function().operation().isAcquisition())
                    .toList();
            List<LockSite> reported = new ArrayList<>();
            for (LockSite r : group) {
                if (r.function().operation() == LockOperation.RELEASE) {
                    List<LockSite> against = ownLocks ? acquisitions : r.java() != null ? typeAcquisitions : List.of();
                    if (mismatch(context, r, against, ownLocks ? "this method" : "this class")) {
                        reported.add(r);
                    }
                } else if (r.function().operation() == LockOperation.RELEASE_ALL) {
                    unlockAll(context, model, r, group, ownLocks, typeAcquisitions);
                }
            }
            counts(context, model, group, reported);
        }
    }

    private static boolean mismatch(RuleContext context, LockSite r, List<LockSite> acquisitions, String where) {
        if (acquisitions.isEmpty()) {
            return false;
        }
        List<LockSite> computedElsewise = new ArrayList<>();
        for (LockSite a : acquisitions) {
            if (a.key().mayEqual(r.key())
                    && a.function().level() == LockLevel.SESSION
                    && a.function().mode() == r.function().mode()) {
                if (KeyShapes.computedDifferently(a.key(), r.key()).isEmpty()) {
                    return false; // a lock this unlock may release
                }
                computedElsewise.add(a);
            }
        }
        if (!computedElsewise.isEmpty()) {
            KeyShapes.Difference d = KeyShapes.computedDifferently(
                            computedElsewise.get(0).key(), r.key())
                    .orElseThrow();
            LockSite a = computedElsewise.get(0);
            report(
                    context,
                    r,
                    computedElsewise,
                    r.display() + " computes its key with " + d.release() + ", but " + where + " locks "
                            + a.key().display() + ", computed with " + d.hold()
                            + ": whenever the inputs differ the two keys differ, so the unlock returns false and the"
                            + " lock stays held until the session ends. Compute the key once, in one method, and use it"
                            + " for the lock and the unlock.",
                    "the lock whose key is computed from other inputs");
            return true;
        }
        List<LockSite> same =
                acquisitions.stream().filter(a -> sameKey(a.key(), r.key())).toList();
        List<LockSite> xact = same.stream()
                .filter(a -> a.function().level() == LockLevel.TRANSACTION)
                .toList();
        if (!xact.isEmpty()) {
            report(
                    context,
                    r,
                    xact,
                    r.display() + " tries to release a lock that " + where + " took at transaction level "
                            + "with " + xact.get(0).function().sqlName()
                            + ": transaction-level locks cannot be released early "
                            + "(there is no pg_advisory_xact_unlock); this call returns false with a WARNING and the lock stays "
                            + "held until COMMIT or ROLLBACK. Drop the unlock, or take a session-level lock if it must end early.",
                    "the transaction-level lock");
            return true;
        }
        List<LockSite> otherMode = same.stream()
                .filter(a -> a.function().level() == LockLevel.SESSION)
                .toList();
        if (!otherMode.isEmpty()) {
            LockSite a = otherMode.get(0);
            report(
                    context,
                    r,
                    otherMode,
                    r.display() + " releases a " + mode(r) + " lock, but " + where + " took key "
                            + r.key().display() + " in " + mode(a) + " mode with "
                            + a.function().sqlName() + ": the unlock returns "
                            + "false with a WARNING and the " + mode(a) + " lock stays held. Use "
                            + (a.function().mode() == LockMode.SHARED
                                    ? "pg_advisory_unlock_shared"
                                    : "pg_advisory_unlock")
                            + ".",
                    "the " + mode(a) + " lock");
            return true;
        }
        List<LockSite> crossed = acquisitions.stream()
                .filter(a -> a.function().level() == LockLevel.SESSION && crossSpace(a.key(), r.key()))
                .toList();
        if (!crossed.isEmpty()) {
            LockSite a = crossed.get(0);
            report(
                    context,
                    r,
                    crossed,
                    r.display() + " releases key " + r.key().display() + " in the "
                            + space(r.key()) + " key space, but " + where + " locked "
                            + a.key().display() + " in the "
                            + space(a.key())
                            + " key space: the two spaces never overlap, so the unlock returns false and the lock "
                            + "stays held. Use the same arguments in the lock and the unlock.",
                    "the lock in the other key space");
            return true;
        }
        if (r.key().isFullyKnown()) {
            List<LockSite> known = acquisitions.stream()
                    .filter(a -> a.function().level() == LockLevel.SESSION
                            && a.key().space() == r.key().space())
                    .toList();
            if (!known.isEmpty() && known.stream().allMatch(a -> a.key().isFullyKnown())) {
                report(
                        context,
                        r,
                        known,
                        r.display() + " releases key " + r.key().display() + ", but " + where
                                + " locks "
                                + known.stream()
                                        .map(a -> a.key().display())
                                        .distinct()
                                        .reduce((x, y) -> x + ", " + y)
                                        .orElse("")
                                + ": the unlock returns false and the lock that was taken stays held. Unlock the key that was locked"
                                + " (one named constant for both).",
                        "the lock this unlock was probably meant for");
                return true;
            }
        }
        return false;
    }

    private static void unlockAll(
            RuleContext context,
            LockModel model,
            LockSite r,
            List<LockSite> group,
            boolean ownLocks,
            List<LockSite> typeAcquisitions) {
        if (ownLocks) {
            List<LockSite> session = group.stream()
                    .filter(s -> s.function().operation().isAcquisition()
                            && s.function().level() == LockLevel.SESSION)
                    .toList();
            boolean perKeyRelease = group.stream().anyMatch(s -> s.function().operation() == LockOperation.RELEASE);
            long keys = session.stream()
                    .map(s -> s.key().space() + s.key().canonical())
                    .distinct()
                    .count();
            if (keys == 1 && !perKeyRelease) {
                report(
                        context,
                        r,
                        session,
                        "pg_advisory_unlock_all() is the only release of the one lock "
                                + session.get(0).display()
                                + " written next to it: it drops every session-level advisory lock of "
                                + "the connection, including locks that callers or other code sharing the connection still rely "
                                + "on. Release the key with pg_advisory_unlock"
                                + session.get(0).key().display() + ".",
                        "the one lock it releases");
            }
            return;
        }
        List<LockSite> sessionElsewhere = typeAcquisitions.stream()
                .filter(s -> s.function().level() == LockLevel.SESSION)
                .toList();
        List<LockSite> sessionInProject = model.acquisitions().stream()
                .filter(s -> s.function().level() == LockLevel.SESSION && !model.inTestSources(s))
                .toList();
        if (sessionElsewhere.isEmpty()
                && !sessionInProject.isEmpty()
                && r.java() != null
                && model.role(r) != SiteRole.HELPER_CALL
                && !model.inTestSources(r)
                && r.execution().connection() == ConnectionScope.POOLED_PER_CALL
                && r.execution().transaction() != TransactionState.IN_TRANSACTION
                && !model.inCallersTransaction(r)) {
            report(
                    context,
                    r,
                    sessionInProject.subList(0, Math.min(3, sessionInProject.size())),
                    "pg_advisory_unlock_all() runs through " + r.java().executionCall() + ", outside a transaction: "
                            + r.execution().connectionEvidence() + ", so it releases the locks of whatever pooled "
                            + "connection is free, not of the sessions that took the project's locks: those stay held, "
                            + "and a lock another caller leaked onto that connection is dropped. Release each lock on the "
                            + "connection that took it.",
                    "a session-level lock taken on its own connection");
            return;
        }
        if (model.usage(r).freshConnection() && !sessionElsewhere.isEmpty()) {
            report(
                    context,
                    r,
                    sessionElsewhere,
                    "pg_advisory_unlock_all() runs on a connection this code has just "
                            + "borrowed, not on the session that took the lock: it releases only the current session's locks, "
                            + "so the lock taken elsewhere stays held. Unlock on the connection that locked, or let that session end.",
                    "a session-level lock taken on another connection");
        }
    }

    /** Counts per key of straight-line session sites: unlocks beyond the locks, or stacked locks not all released. */
    private static void counts(RuleContext context, LockModel model, List<LockSite> group, List<LockSite> reported) {
        Map<String, List<LockSite>> byKey = new LinkedHashMap<>();
        for (LockSite s : group) {
            LockOperation op = s.function().operation();
            // helpers keep their own state (a release that is a no-op when nothing is held, one object per
            // connection), and tests unlock twice on purpose to see false: count plain SQL sites of main code
            if (op == LockOperation.RELEASE_ALL
                    || s.function().level() != LockLevel.SESSION
                    || reported.contains(s)
                    || model.role(s) == SiteRole.HELPER_CALL
                    || model.inTestSources(s)) {
                continue;
            }
            byKey.computeIfAbsent(
                            s.key().space() + s.key().canonical() + s.function().mode(), k -> new ArrayList<>())
                    .add(s);
        }
        for (List<LockSite> sites : byKey.values()) {
            if (!sites.stream().allMatch(s -> model.usage(s).straightLine())) {
                continue;
            }
            List<LockSite> locks = sites.stream()
                    .filter(s -> s.function().operation().isAcquisition())
                    .toList();
            // an unlock written before the method's first lock of the key releases a hold left from an earlier run
            // ("in case this session still holds it"): not a second unlock of this lock
            List<LockSite> unlocks = sites.stream()
                    .filter(s -> s.function().operation() == LockOperation.RELEASE)
                    .filter(u -> locks.stream().anyMatch(l -> l.region().compareTo(u.region()) < 0))
                    .toList();
            if (!locks.isEmpty() && unlocks.size() > locks.size()) {
                LockSite extra = unlocks.get(locks.size());
                report(
                        context,
                        extra,
                        locks,
                        extra.display() + " is unlock number " + (locks.size() + 1) + " of a key "
                                + "this method locks " + times(locks.size())
                                + ": the extra unlock returns false with a WARNING "
                                + "(or releases a hold that a caller took). Unlock once per lock, in one finally block.",
                        "the lock");
            } else if (locks.size() >= 2 && !unlocks.isEmpty() && unlocks.size() < locks.size()) {
                LockSite last = unlocks.get(unlocks.size() - 1);
                report(
                        context,
                        last,
                        locks,
                        "key " + last.key().display() + " is locked " + times(locks.size())
                                + " in this method but unlocked " + times(unlocks.size())
                                + ": session-level locks stack, so "
                                + "after the last unlock the session still holds the key. Unlock once per lock, or lock once.",
                        "a lock of this key");
            }
        }
    }

    private static String times(int n) {
        return n == 1 ? "once" : n == 2 ? "twice" : n + " times";
    }

    private static void report(RuleContext context, LockSite r, List<LockSite> related, String message, String what) {
        List<RelatedLocation> rel = new ArrayList<>();
        for (LockSite a : related.subList(0, Math.min(3, related.size()))) {
            rel.add(new RelatedLocation(a.region(), what));
        }
        context.report(Severity.ERROR, r, message, rel);
    }

    /** Same key written the same way: every part equal in canonical form. */
    private static boolean sameKey(LockKey a, LockKey b) {
        return a.space() == b.space() && a.canonical().equals(b.canonical());
    }

    /** {@code (k)} against {@code (x, k)} or {@code (k, x)}: one value in both key spaces. */
    private static boolean crossSpace(LockKey a, LockKey b) {
        if (a.space() == b.space() || a.space() == KeySpace.NONE || b.space() == KeySpace.NONE) {
            return false;
        }
        LockKey one = a.space() == KeySpace.BIGINT ? a : b;
        LockKey two = a.space() == KeySpace.BIGINT ? b : a;
        String k = one.parts().get(0).canonical();
        for (KeyPart p : two.parts()) {
            if (p.canonical().equals(k)) {
                return true;
            }
        }
        return false;
    }

    private static String mode(LockSite s) {
        return s.function().mode() == LockMode.SHARED ? "shared" : "exclusive";
    }

    private static String space(LockKey k) {
        return k.space() == KeySpace.BIGINT ? "one-bigint" : "two-int";
    }
}
