package io.github.pgadvisorylint.core.keys;

import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.ReleaseMismatch;
import io.github.pgadvisorylint.core.model.ReleaseMismatch.Kind;
import io.github.pgadvisorylint.core.model.ReleaseMismatch.Scope;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.model.TransactionState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Matches every release of a model with the acquisitions written beside it, by key, key space, mode and level
 * ({@link ReleaseMismatch}): the facts of the written keys, true on every path. Sites are grouped by file, type
 * and method ({@code JavaContext}) or by script, in source order; a method that only releases is compared with its
 * class's acquisitions. Calls of lock helpers take part with the keys of their arguments. What depends on the path
 * (a failed try-lock, another connection, holds stacked on one path) is {@code core.flow}'s.
 *
 * <p>Facts: PostgreSQL docs "Advisory Lock Functions" (RULES.md F2 no transaction-level unlock, F4 session locks
 * stack, F5 {@code pg_advisory_unlock_all} is per session, F6 the two key spaces, F7 modes).
 */
public final class ReleaseMatching {

    /** At most this many of the project's acquisitions are named by an {@link Kind#UNLOCK_ALL_POOLED} fact. */
    private static final int MAX_PROJECT_HOLDS = 3;

    private ReleaseMatching() {}

    /**
     * @param model a model with its usage, roles and calling contexts (after the lock paths)
     * @return the mismatches, by method in the order of the model's sites, then by release; never null
     */
    public static List<ReleaseMismatch> of(LockModel model) {
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
        List<ReleaseMismatch> out = new ArrayList<>();
        for (Map.Entry<String, List<LockSite>> e : methods.entrySet()) {
            List<LockSite> group = e.getValue();
            String typeKey = e.getKey().substring(0, e.getKey().lastIndexOf('|'));
            List<LockSite> acquisitions = acquisitions(group);
            boolean ownLocks = !acquisitions.isEmpty();
            List<LockSite> typeAcquisitions = acquisitions(types.get(typeKey));
            List<LockSite> reported = new ArrayList<>();
            for (LockSite r : group) {
                if (r.function().operation() == LockOperation.RELEASE) {
                    List<LockSite> against = ownLocks ? acquisitions : r.java() != null ? typeAcquisitions : List.of();
                    mismatch(r, against, ownLocks ? Scope.METHOD : Scope.CLASS).ifPresent(m -> {
                        out.add(m);
                        reported.add(r);
                    });
                } else if (r.function().operation() == LockOperation.RELEASE_ALL) {
                    unlockAll(model, r, group, ownLocks, typeAcquisitions).ifPresent(out::add);
                }
            }
            counts(model, group, reported, out);
        }
        return List.copyOf(out);
    }

    private static List<LockSite> acquisitions(List<LockSite> sites) {
        return sites.stream()
                .filter(s -> s.function().operation().isAcquisition())
                .toList();
    }

    private static List<LockSite> session(List<LockSite> sites) {
        return sites.stream()
                .filter(s -> s.function().level() == LockLevel.SESSION)
                .toList();
    }

    /** The first way release {@code r} fails to match {@code acquisitions}, or empty when one may match. */
    static Optional<ReleaseMismatch> mismatch(LockSite r, List<LockSite> acquisitions, Scope scope) {
        if (acquisitions.isEmpty()) {
            return Optional.empty();
        }
        List<LockSite> computedElsewise = new ArrayList<>();
        for (LockSite a : acquisitions) {
            if (a.key().mayEqual(r.key())
                    && a.function().level() == LockLevel.SESSION
                    && a.function().mode() == r.function().mode()) {
                if (KeyShapes.computedDifferently(a.key(), r.key()).isEmpty()) {
                    return Optional.empty(); // a lock this unlock may release
                }
                computedElsewise.add(a);
            }
        }
        if (!computedElsewise.isEmpty()) {
            KeyShapes.Difference d = KeyShapes.computedDifferently(
                            computedElsewise.get(0).key(), r.key())
                    .orElseThrow();
            return Optional.of(new ReleaseMismatch(
                    Kind.KEY_COMPUTED_DIFFERENTLY,
                    r,
                    computedElsewise,
                    scope,
                    String.valueOf(d.release()),
                    String.valueOf(d.hold()),
                    0));
        }
        List<LockSite> same =
                acquisitions.stream().filter(a -> sameKey(a.key(), r.key())).toList();
        List<LockSite> xact = same.stream()
                .filter(a -> a.function().level() == LockLevel.TRANSACTION)
                .toList();
        if (!xact.isEmpty()) {
            return Optional.of(plain(Kind.TRANSACTION_LEVEL, r, xact, scope));
        }
        List<LockSite> otherMode = session(same);
        if (!otherMode.isEmpty()) {
            return Optional.of(plain(Kind.OTHER_MODE, r, otherMode, scope));
        }
        List<LockSite> crossed = session(acquisitions).stream()
                .filter(a -> crossSpace(a.key(), r.key()))
                .toList();
        if (!crossed.isEmpty()) {
            return Optional.of(plain(Kind.OTHER_KEY_SPACE, r, crossed, scope));
        }
        if (r.key().isFullyKnown()) {
            List<LockSite> known = session(acquisitions).stream()
                    .filter(a -> a.key().space() == r.key().space())
                    .toList();
            if (!known.isEmpty() && known.stream().allMatch(a -> a.key().isFullyKnown())) {
                return Optional.of(plain(Kind.OTHER_KEY, r, known, scope));
            }
        }
        return Optional.empty();
    }

    private static ReleaseMismatch plain(Kind kind, LockSite r, List<LockSite> holds, Scope scope) {
        return new ReleaseMismatch(kind, r, holds, scope, null, null, 0);
    }

    private static Optional<ReleaseMismatch> unlockAll(
            LockModel model, LockSite r, List<LockSite> group, boolean ownLocks, List<LockSite> typeAcquisitions) {
        if (ownLocks) {
            List<LockSite> session = session(acquisitions(group));
            boolean perKeyRelease = group.stream().anyMatch(s -> s.function().operation() == LockOperation.RELEASE);
            long keys = session.stream()
                    .map(s -> s.key().space() + s.key().canonical())
                    .distinct()
                    .count();
            return keys == 1 && !perKeyRelease
                    ? Optional.of(plain(Kind.UNLOCK_ALL_ONLY_RELEASE, r, session, Scope.METHOD))
                    : Optional.empty();
        }
        List<LockSite> sessionElsewhere = session(typeAcquisitions);
        List<LockSite> sessionInProject = session(model.acquisitions()).stream()
                .filter(s -> !model.inTestSources(s))
                .toList();
        if (sessionElsewhere.isEmpty()
                && !sessionInProject.isEmpty()
                && r.java() != null
                && model.role(r) != SiteRole.HELPER_CALL
                && !model.inTestSources(r)
                && r.execution().connection() == ConnectionScope.POOLED_PER_CALL
                && r.execution().transaction() != TransactionState.IN_TRANSACTION
                && !model.inCallersTransaction(r)) {
            return Optional.of(plain(
                    Kind.UNLOCK_ALL_POOLED,
                    r,
                    sessionInProject.subList(0, Math.min(MAX_PROJECT_HOLDS, sessionInProject.size())),
                    Scope.CLASS));
        }
        if (model.usage(r).freshConnection() && !sessionElsewhere.isEmpty()) {
            return Optional.of(plain(Kind.UNLOCK_ALL_FRESH_CONNECTION, r, sessionElsewhere, Scope.CLASS));
        }
        return Optional.empty();
    }

    /** Counts per key of straight-line session sites: unlocks beyond the locks, or stacked locks not all released. */
    private static void counts(
            LockModel model, List<LockSite> group, List<LockSite> reported, List<ReleaseMismatch> out) {
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
            List<LockSite> locks = acquisitions(sites);
            // an unlock written before the method's first lock of the key releases a hold left from an earlier run
            // ("in case this session still holds it"): not a second unlock of this lock
            List<LockSite> unlocks = sites.stream()
                    .filter(s -> s.function().operation() == LockOperation.RELEASE)
                    .filter(u -> locks.stream().anyMatch(l -> l.region().compareTo(u.region()) < 0))
                    .toList();
            if (!locks.isEmpty() && unlocks.size() > locks.size()) {
                out.add(new ReleaseMismatch(
                        Kind.EXTRA_UNLOCK, unlocks.get(locks.size()), locks, Scope.METHOD, null, null, unlocks.size()));
            } else if (locks.size() >= 2 && !unlocks.isEmpty() && unlocks.size() < locks.size()) {
                out.add(new ReleaseMismatch(
                        Kind.STACKED_UNRELEASED,
                        unlocks.get(unlocks.size() - 1),
                        locks,
                        Scope.METHOD,
                        null,
                        null,
                        unlocks.size()));
            }
        }
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
}
