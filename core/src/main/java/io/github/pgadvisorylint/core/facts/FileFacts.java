package io.github.pgadvisorylint.core.facts;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.flow.MethodFlow;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockOrderEdge;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.LoopOrder;
import io.github.pgadvisorylint.core.model.SiteHazards;
import io.github.pgadvisorylint.core.model.SiteUsage;
import java.util.List;
import java.util.Map;

/**
 * What a front end extracted from one file; the syntax tree is gone by the time this exists.
 *
 * @param path          the file's path relative to the scan root
 * @param sites         lock sites in source order
 * @param lifecycles    one lifecycle per acquisition site
 * @param notifications problems met in the file
 * @param suppressions  in-source suppressions of the file
 * @param helpers       the lock helpers the file declares (Java only)
 * @param orderEdges    acquisitions taken while another is held, per method (Java only)
 * @param loops         the loop each acquisition inside one runs in, by site id (Java only)
 * @param usages        what the code around each site does with it, by {@link LockSite#id()}
 * @param flows         the control-flow graphs of the file's methods, lowered to lock events (Java only;
 *                      no syntax tree), which the project-wide lock-state analysis links
 * @param hazards       what the code around each site does that defeats the lock, by
 *                      {@link LockSite#id()} (Java only; sites without any are left out)
 */
public record FileFacts(
        String path,
        List<LockSite> sites,
        List<LockLifecycle> lifecycles,
        List<Notification> notifications,
        List<Suppression> suppressions,
        List<HelperSummary> helpers,
        List<LockOrderEdge> orderEdges,
        Map<String, LoopOrder> loops,
        Map<String, SiteUsage> usages,
        List<MethodFlow> flows,
        Map<String, SiteHazards> hazards) {

    /** Copies the lists; a missing hazards map (a cache written without one) is empty. */
    public FileFacts {
        sites = List.copyOf(sites);
        lifecycles = List.copyOf(lifecycles);
        notifications = List.copyOf(notifications);
        suppressions = List.copyOf(suppressions);
        helpers = List.copyOf(helpers);
        orderEdges = List.copyOf(orderEdges);
        loops = Map.copyOf(loops);
        usages = Map.copyOf(usages);
        flows = flows == null ? List.of() : List.copyOf(flows);
        hazards = hazards == null ? Map.of() : Map.copyOf(hazards);
    }

    /** Facts of a Java file without hazard facts. */
    public FileFacts(
            String path,
            List<LockSite> sites,
            List<LockLifecycle> lifecycles,
            List<Notification> notifications,
            List<Suppression> suppressions,
            List<HelperSummary> helpers,
            List<LockOrderEdge> orderEdges,
            Map<String, LoopOrder> loops,
            Map<String, SiteUsage> usages,
            List<MethodFlow> flows) {
        this(path, sites, lifecycles, notifications, suppressions, helpers, orderEdges, loops, usages, flows, Map.of());
    }

    /** Facts of a Java file without method graphs nor hazard facts. */
    public FileFacts(
            String path,
            List<LockSite> sites,
            List<LockLifecycle> lifecycles,
            List<Notification> notifications,
            List<Suppression> suppressions,
            List<HelperSummary> helpers,
            List<LockOrderEdge> orderEdges,
            Map<String, LoopOrder> loops,
            Map<String, SiteUsage> usages) {
        this(
                path,
                sites,
                lifecycles,
                notifications,
                suppressions,
                helpers,
                orderEdges,
                loops,
                usages,
                List.of(),
                Map.of());
    }

    /** Facts of a file with helpers but no lock-order or usage facts. */
    public FileFacts(
            String path,
            List<LockSite> sites,
            List<LockLifecycle> lifecycles,
            List<Notification> notifications,
            List<Suppression> suppressions,
            List<HelperSummary> helpers) {
        this(path, sites, lifecycles, notifications, suppressions, helpers, List.of(), Map.of(), Map.of());
    }

    /** Facts of a SQL file: sites, lifecycles and usages. */
    public FileFacts(
            String path,
            List<LockSite> sites,
            List<LockLifecycle> lifecycles,
            List<Notification> notifications,
            List<Suppression> suppressions,
            List<HelperSummary> helpers,
            Map<String, SiteUsage> usages) {
        this(path, sites, lifecycles, notifications, suppressions, helpers, List.of(), Map.of(), usages);
    }

    /** Facts of a file that declares no lock helper. */
    public FileFacts(
            String path,
            List<LockSite> sites,
            List<LockLifecycle> lifecycles,
            List<Notification> notifications,
            List<Suppression> suppressions) {
        this(path, sites, lifecycles, notifications, suppressions, List.of(), List.of(), Map.of(), Map.of());
    }

    /**
     * @param path          the file
     * @param notifications what went wrong
     * @return facts with no lock sites
     */
    public static FileFacts failed(String path, List<Notification> notifications) {
        return new FileFacts(path, List.of(), List.of(), notifications, List.of());
    }
}
