package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code lock-without-finally-unlock}: a session-level acquisition whose release is not guaranteed
 * on every path. Session-level locks outlive transactions (RULES.md F1) and, on a pooled connection,
 * the client's own close (F13): a skipped unlock holds the key until the backend session ends.
 */
public final class LockWithoutFinallyUnlockRule extends AbstractRule {

    /** Creates the rule with its metadata and documentation page. */
    public LockWithoutFinallyUnlockRule() {
        // precision: lock-state dataflow across methods, helpers and pooled connections
        super(
                "lock-without-finally-unlock",
                Severity.ERROR,
                Precision.MEDIUM,
                "Session-level advisory lock whose unlock is not guaranteed by finally.",
                "A session-level advisory lock (pg_advisory_lock, pg_try_advisory_lock and their _shared forms) is "
                        + "held until it is unlocked or the session ends; a ROLLBACK does not release it. When the "
                        + "unlock is not in a finally block that covers the work, or there is no unlock at all, an "
                        + "exception or early return leaves the key locked on a connection that a pool keeps alive.",
                List.of("correctness", "concurrency", "resource-leak", "postgresql", "advisory-lock"));
    }

    /** @return whether a session-level site has no release anywhere and no lifecycle that pairs one */
    private static boolean neverReleased(LockModel model, LockSite site) {
        LockLifecycle lifecycle = model.lifecycle(site);
        return site.function().level() == LockLevel.SESSION
                && lifecycle != null
                && lifecycle.guarantee() == ReleaseGuarantee.NONE
                && model.possibleReleases(site).isEmpty();
    }

    @Override
    public void check(RuleContext context) {
        LockModel model = context.model();
        Set<SourceRegion> unreleasedBodies = new HashSet<>();
        for (LockSite site : model.acquisitions()) {
            if (neverReleased(model, site) && model.role(site) != SiteRole.HELPER_CALL) {
                unreleasedBodies.add(site.region());
            }
        }
        for (LockSite site : model.acquisitions()) {
            if (site.function().level() != LockLevel.SESSION) {
                continue;
            }
            if (helperCallInTests(model, site)) {
                continue; // tests drive a lock API step by step on purpose (seen in a real leader-election suite)
            }
            LockLifecycle lifecycle = model.lifecycle(site);
            if (lifecycle == null) {
                continue;
            }
            String lead = site.display() + " takes a session-level lock";
            switch (lifecycle.guarantee()) {
                case NOT_IN_FINALLY -> {
                    if (site.api() == ExecutionApi.SQL_FILE) {
                        context.report(
                                Severity.ERROR,
                                site,
                                lead + " in a DO block or function body, but "
                                        + lifecycle.note()
                                        + ": the unlock then never runs, and the session keeps the lock "
                                        + "after the statement ends (a ROLLBACK does not release it). Wrap the work in BEGIN ... "
                                        + "EXCEPTION WHEN OTHERS THEN PERFORM " + unlockOf(site)
                                        + "; RAISE; END and unlock "
                                        + "before any RETURN, or use "
                                        + site.function().sqlName().replace("advisory_lock", "advisory_xact_lock")
                                        + ".",
                                List.of(new RelatedLocation(
                                        lifecycle.releaseRegion(), "unlock that an error would skip")));
                        break;
                    }
                    context.report(
                            Severity.ERROR,
                            site,
                            lead
                                    + ", but its unlock is not in a finally block: an exception before the unlock skips it, and "
                                    + "the lock stays held until the database session ends (a ROLLBACK does not release it). Put "
                                    + "the work in try { ... } finally { unlock }.",
                            List.of(new RelatedLocation(
                                    lifecycle.releaseRegion(), "unlock that an exception would skip")));
                }
                case TRY_STARTS_LATE ->
                    context.report(
                            Severity.ERROR,
                            site,
                            lead + ", but " + lifecycle.note()
                                    + ": if that code throws or returns, the finally never runs and the lock stays held. Start "
                                    + "the try right after the lock.",
                            List.of(new RelatedLocation(
                                    lifecycle.releaseRegion(), "unlock in a finally that starts too late")));
                case HANDLE_NOT_CLOSED ->
                    context.report(
                            Severity.ERROR,
                            site,
                            lead + ", but " + lifecycle.note()
                                    + ": the lock is released only when the handle is closed. Use it in try-with-resources.",
                            lifecycle.releaseRegion() == null
                                    ? List.of()
                                    : List.of(new RelatedLocation(
                                            lifecycle.releaseRegion(), "close outside a finally block")));
                case NONE -> {
                    if (model.possibleReleases(site).isEmpty() && !reportedAtHelper(model, site, unreleasedBodies)) {
                        // (a call of a helper whose own lock is reported for the same reason: one result, there)
                        context.report(
                                Severity.ERROR,
                                site,
                                lead + ", but no pg_advisory_unlock for key "
                                        + site.key().display()
                                        + " (nor pg_advisory_unlock_all) is found anywhere in the "
                                        + "scanned code: the lock is held until the session ends, which on a pooled "
                                        + "connection may be never. Unlock in a finally block, or use "
                                        + site.function().sqlName().replace("advisory_lock", "advisory_xact_lock")
                                        + " inside a transaction.",
                                List.of());
                    }
                }
                default -> {
                    // guaranteed, split across a type's methods, decided by the path analysis, nothing between
                    // lock and unlock (SQL), or not knowable: silent
                }
            }
        }
        for (PathFinding f : model.pathFindings()) {
            if (!f.isLeak() || helperCallInTests(model, f.acquisition()) || releasedBeforeCommit(model, f)) {
                continue;
            }
            if (model.possibleReleases(f.acquisition()).isEmpty()
                    && reportedAtHelper(model, f.acquisition(), unreleasedBodies)) {
                continue; // the helper's own lock has no unlock anywhere: one result, there (above)
            }
            boolean future = vertx(model, f.acquisition())
                    && (f.kind() == PathFinding.Kind.HELD_ON_EXCEPTION || f.kind() == PathFinding.Kind.HELD_ON_RETURN);
            boolean chain = f.acquisition().api() == ExecutionApi.R2DBC
                    && (f.kind() == PathFinding.Kind.HELD_ON_EXCEPTION || f.kind() == PathFinding.Kind.HELD_ON_RETURN);
            String fix = future
                    ? " Release it on both ways: unlock in eventually(..) (or andThen(..)) after the work, or in"
                            + " recover(..) as well as after it."
                    : chain
                            ? " Release it on every way out of the chain: unlock in onErrorResume as well as after the"
                                    + " work, in doFinally, or make the lock an inner usingWhen's resource with the"
                                    + " unlock as its cleanup."
                            : switch (f.kind()) {
                                case HELD_ON_CANCEL ->
                                    " Release it on cancellation too: unlock in doFinally, or make the lock an inner"
                                            + " usingWhen's resource with the unlock as its cleanup (Reactor runs it on"
                                            + " cancel).";
                                case POOLED_CLOSE ->
                                    f.acquisition().api() == ExecutionApi.R2DBC
                                            ? " Release it on every way out before the connection is closed: in a Reactor chain, make"
                                                    + " the lock an inner usingWhen's resource with the unlock as its cleanup, or unlock"
                                                    + " in onErrorResume as well as after the work."
                                            : " Unlock in a finally block before the connection is closed.";
                                case ABORTED_UNLOCK -> "";
                                case HELD_ON_RETURN ->
                                    " Unlock on every path: put the work in try { ... } finally { unlock }.";
                                default ->
                                    " Put the work in try { ... } finally { unlock }, starting right after the lock.";
                            };
            // the aborted-transaction note says its consequence and its fix itself
            reportPath(
                    context,
                    Severity.ERROR,
                    f,
                    f.kind() == PathFinding.Kind.ABORTED_UNLOCK
                            ? f.acquisition().display() + " takes a session-level lock, but " + f.note() + "."
                            : f.acquisition().display() + " takes a session-level lock, but " + f.note()
                                    + ": the lock stays held until the database session ends (a ROLLBACK does not"
                                    + " release it)." + fix);
        }
    }

    /**
     * An unlock stuck in an aborted transaction that is also released before that transaction commits:
     * {@code session-unlock-before-commit} reports the unlock and says both consequences (one change, taking
     * the lock outside the transaction or using pg_advisory_xact_lock, fixes both), so this rule does not.
     */
    private static boolean releasedBeforeCommit(LockModel model, PathFinding f) {
        // an unlock of the same file: a key the model cannot compare (a parameter's) may be released early
        // elsewhere, which says nothing of this lock's unlock
        return f.kind() == PathFinding.Kind.ABORTED_UNLOCK
                && model.releasesBeforeCommit(f.acquisition()).stream()
                        .anyMatch(r -> r.path().equals(f.acquisition().path()));
    }

    /**
     * @return whether the site calls a helper whose own lock has no unlock anywhere: that lock is reported, once, at the
     *     helper, not again at each call
     */
    private static boolean reportedAtHelper(LockModel model, LockSite site, Set<SourceRegion> unreleasedBodies) {
        return model.role(site) == SiteRole.HELPER_CALL && unreleasedBodies.contains(site.declarationRegion());
    }

    /**
     * @return whether the site runs its SQL through the Vert.x SQL client, itself or in the lock helper it calls
     *     (the helper's own site is written where the call's declaration points)
     */
    private static boolean vertx(LockModel model, LockSite site) {
        if (site.api() == ExecutionApi.VERTX_SQL) {
            return true;
        }
        return site.viaHelper()
                && site.declarationRegion() != null
                && model.sites().stream()
                        .anyMatch(o ->
                                o.api() == ExecutionApi.VERTX_SQL && o.region().equals(site.declarationRegion()));
    }

    /** A call of a lock API from test sources: tests take and release step by step on purpose. */
    private static boolean helperCallInTests(LockModel model, LockSite site) {
        return model.role(site) == SiteRole.HELPER_CALL && model.inTestSources(site);
    }

    /** @return the unlock call that releases the site's lock, e.g. {@code pg_advisory_unlock_shared(k)} */
    private static String unlockOf(LockSite site) {
        String name = site.function().sqlName().replace("pg_try_", "pg_").replace("advisory_lock", "advisory_unlock");
        return name + site.key().display();
    }
}
