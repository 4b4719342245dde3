package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Links the method graphs of a whole project, runs the {@link LockStateAnalysis}, and puts what it
 * proves into the {@link LockModel}: the path findings, and for every session-level acquisition the
 * analysis followed, a lifecycle of {@link ReleaseGuarantee#PATHS_FOLLOWED} that replaces the guess the
 * syntax-shape analysis made, unless the lock goes to an owner the analysis cannot see (then the
 * project-wide "no unlock anywhere" verdict stays).
 */
public final class LockPaths {

    /** Verdicts of the syntax-shape analysis that a followed path replaces. */
    private static final Set<ReleaseGuarantee> REPLACEABLE = EnumSet.of(
            ReleaseGuarantee.NOT_IN_FINALLY,
            ReleaseGuarantee.TRY_STARTS_LATE,
            ReleaseGuarantee.NONE,
            ReleaseGuarantee.FINALLY,
            ReleaseGuarantee.TRY_WITH_RESOURCES,
            ReleaseGuarantee.ELSEWHERE_IN_TYPE,
            ReleaseGuarantee.UNKNOWN,
            ReleaseGuarantee.BY_HELPER);

    /** Verdicts of the syntax-shape analysis that say the release is missing or unsafe. */
    private static final Set<ReleaseGuarantee> FAILING =
            EnumSet.of(ReleaseGuarantee.NOT_IN_FINALLY, ReleaseGuarantee.TRY_STARTS_LATE, ReleaseGuarantee.NONE);

    /** The notification kind of a method, file or rule left out over a bound of the analysis. */
    public static final String METHOD_BUDGET = "method-budget";

    private LockPaths() {}

    /**
     * @return true when the site is in a loop whose iterations lock different keys (the key depends on the loop
     *     variable, {@code core.java.SiteUsageAnalyzer}): the paths count the site's holds, not its keys (the lock
     *     order and lock count rules judge such loops)
     */
    private static boolean keyVariesInLoop(LockModel model, LockSite acquisition) {
        return acquisition != null
                && model.usage(acquisition).loop() != null
                && model.usage(acquisition).loop().keyVaries();
    }

    /**
     * @param model         the model the front ends built
     * @param flows         every method graph of the project
     * @param notifications receives a {@code method-budget} warning for every method the analysis gave up
     *                      on, naming the bound it exceeded
     * @param bounds        receives the run's size once, when there is a run
     * @param checkpoint    called now and then while the paths are followed; it throws to stop the run (the
     *                      wall-clock safety limit), and the exception passes out of this method
     * @param autoCommitOff the configuration that turns auto-commit off for the main pool's connections, or
     *                      null: connections borrowed from a pool then start inside a transaction
     * @return the model with path findings and the replaced lifecycles
     */
    public static LockModel apply(
            LockModel model,
            List<MethodFlow> flows,
            List<Notification> notifications,
            Consumer<LockStateAnalysis.Bounds> bounds,
            Runnable checkpoint,
            AutoCommitSetting autoCommitOff) {
        if (flows.isEmpty()) {
            return model;
        }
        Map<String, LockSite> byId = new HashMap<>();
        model.sites().forEach(s -> byId.put(s.id(), s));
        Set<String> keyPerIteration = new HashSet<>();
        model.sites().stream().filter(x -> keyVariesInLoop(model, x)).forEach(x -> keyPerIteration.add(x.id()));
        LockStateAnalysis analysis = new LockStateAnalysis(flows, byId, checkpoint, autoCommitOff, keyPerIteration);
        LockStateAnalysis.Result result = analysis.run();
        bounds.accept(result.bounds());
        for (LockStateAnalysis.LeftOut l : result.leftOut()) {
            notifications.add(new Notification(
                    Severity.WARNING,
                    METHOD_BUDGET,
                    "the lock-state analysis left out " + l.method() + ": " + l.budget()
                            + "; findings that need its paths are not reported",
                    l.region()));
        }
        List<LockLifecycle> replaced = new ArrayList<>();
        for (String id : result.covered()) {
            LockSite site = byId.get(id);
            if (site == null
                    || site.function().level() != LockLevel.SESSION
                    || !site.function().operation().isAcquisition()) {
                continue;
            }
            LockLifecycle old = model.lifecycle(site);
            boolean leaks = result.findings().stream().anyMatch(f -> f.acquisition() == site && f.isLeak());
            if (old != null
                    && (!REPLACEABLE.contains(old.guarantee()) || (!leaks && !FAILING.contains(old.guarantee())))) {
                continue; // a specific verdict the paths do not contradict stays, with its detail
            }
            if (!leaks && result.handedOver().contains(id) && old != null && old.guarantee() == ReleaseGuarantee.NONE) {
                continue; // an owner releases it, or nothing does: the project-wide "no unlock anywhere" stands
            }
            replaced.add(new LockLifecycle(
                    site,
                    ReleaseGuarantee.PATHS_FOLLOWED,
                    null,
                    leaks
                            ? "see the path findings"
                            : "released, ended with its session, or handed over on every path"));
        }
        Set<String> decided = new HashSet<>();
        replaced.forEach(l -> decided.add(l.acquisition().id()));
        List<PathFinding> kept = result.findings().stream()
                .filter(f -> !f.isLeak() || decided.contains(f.acquisition().id()))
                .toList(); // a specific verdict of the shape analysis (a handle never closed) is not said twice
        return model.withPaths(kept, replaced, result.inCallersTransaction());
    }
}
