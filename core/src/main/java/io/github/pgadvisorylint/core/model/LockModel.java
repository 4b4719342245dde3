package io.github.pgadvisorylint.core.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one intermediate representation every rule reads: every lock site of the scanned files and
 * the lifecycle of every acquisition, sorted by location. Immutable.
 */
public final class LockModel {

    private final List<LockSite> sites;
    private final Map<String, LockLifecycle> lifecycles;
    private final List<io.github.pgadvisorylint.core.config.PoolingEvidence> poolingEvidence;
    private final io.github.pgadvisorylint.core.config.PoolingSetting pooling;
    private final List<LockOrderEdge> orderEdges;
    private final LockOrderGraph orderGraph;
    private final Map<String, LoopOrder> loops;
    private Map<String, SiteUsage> usages = Map.of();
    private List<TimeoutEvidence> connectionTimeouts = List.of();
    private Map<String, SiteHazards> hazards = Map.of();
    private List<PathFinding> pathFindings = List.of();

    /**
     * @param sites      every lock site found; copied and sorted by region
     * @param lifecycles one lifecycle per acquisition; keyed by {@link LockSite#id()}
     */
    public LockModel(List<LockSite> sites, List<LockLifecycle> lifecycles) {
        this(sites, lifecycles, List.of(), io.github.pgadvisorylint.core.config.PoolingSetting.AUTO);
    }

    /**
     * @param sites           every lock site found; copied and sorted by region
     * @param lifecycles      one lifecycle per acquisition
     * @param poolingEvidence configuration evidence of a connection pooler's mode
     * @param pooling         the user's pooling setting
     */
    public LockModel(List<LockSite> sites, List<LockLifecycle> lifecycles,
                     List<io.github.pgadvisorylint.core.config.PoolingEvidence> poolingEvidence,
                     io.github.pgadvisorylint.core.config.PoolingSetting pooling) {
        this(sites, lifecycles, poolingEvidence, pooling, List.of(), Map.of());
    }

    /**
     * @param sites           every lock site found; copied and sorted by region
     * @param lifecycles      one lifecycle per acquisition; keyed by {@link LockSite#id()}
     * @param poolingEvidence configuration evidence of a connection pooler's mode; copied and sorted
     * @param pooling         the user's pooling setting
     * @param orderEdges      every acquisition taken while another is held; sorted here, and the
     *                        {@link #orderGraph()} built from them
     * @param loops           the loop around each acquisition in one, keyed by {@link LockSite#id()}
     */
    public LockModel(List<LockSite> sites, List<LockLifecycle> lifecycles,
                     List<io.github.pgadvisorylint.core.config.PoolingEvidence> poolingEvidence,
                     io.github.pgadvisorylint.core.config.PoolingSetting pooling,
                     List<LockOrderEdge> orderEdges, Map<String, LoopOrder> loops) {
        List<LockOrderEdge> edges = new ArrayList<>(orderEdges);
        edges.sort(Comparator.comparing((LockOrderEdge e) -> e.to().region()).thenComparing(e -> e.from().region()));
        this.orderEdges = List.copyOf(edges);
        this.orderGraph = LockOrderGraph.of(this.orderEdges);
        this.loops = new TreeMap<>(loops);
        List<io.github.pgadvisorylint.core.config.PoolingEvidence> evidence = new ArrayList<>(poolingEvidence);
        evidence.sort(Comparator.naturalOrder());
        this.poolingEvidence = List.copyOf(evidence);
        this.pooling = java.util.Objects.requireNonNull(pooling, "pooling");
        List<LockSite> sorted = new ArrayList<>(sites);
        sorted.sort(Comparator.comparing(LockSite::region).thenComparing(LockSite::id));
        this.sites = List.copyOf(sorted);
        Map<String, LockLifecycle> byId = new TreeMap<>();
        for (LockLifecycle l : lifecycles) {
            byId.put(l.acquisition().id(), l);
        }
        this.lifecycles = byId;
    }

    /** @return every lock-order edge (an acquisition while another is held), sorted by the later site */
    public List<LockOrderEdge> orderEdges() {
        return orderEdges;
    }

    /**
     * @return the project-wide lock-order graph built from {@link #orderEdges()}: keys, edges and the
     *     strongly connected components that prove a possible deadlock (RULES.md F9)
     */
    public LockOrderGraph orderGraph() {
        return orderGraph;
    }

    /**
     * @param site a lock site of this model
     * @return the loop it runs in, or null when it is not in a loop
     */
    public LoopOrder loop(LockSite site) {
        return loops.get(site.id());
    }

    /** @return configuration evidence of a connection pooler's mode, sorted by region */
    public List<io.github.pgadvisorylint.core.config.PoolingEvidence> poolingEvidence() {
        return poolingEvidence;
    }

    /** @return the user's pooling setting; {@code AUTO} means the evidence decides */
    public io.github.pgadvisorylint.core.config.PoolingSetting pooling() {
        return pooling;
    }

    /** @return every lock site, sorted by path, line and column */
    public List<LockSite> sites() {
        return sites;
    }

    /**
     * Sites whose key is written where they stand: every SQL site, and calls of lock helpers whose key
     * comes at least partly from the call's arguments. A helper call whose key is entirely fixed inside
     * the helper repeats the helper's own site, which key rules already see.
     *
     * @return those sites, sorted
     */
    public List<LockSite> keySites() {
        java.util.Set<KeyPart> direct = new java.util.HashSet<>();
        for (LockSite s : sites) {
            if (!s.viaHelper()) {
                direct.addAll(s.key().parts());
            }
        }
        return sites.stream().filter(s -> !s.viaHelper() || s.key().parts().stream().anyMatch(p -> !direct.contains(p)))
                .toList();
    }

    /** @return the acquisitions among {@link #keySites()}, sorted */
    public List<LockSite> keyAcquisitions() {
        return keySites().stream().filter(s -> s.function().operation().isAcquisition()).toList();
    }

    /** @return the acquisitions ({@code ACQUIRE} and {@code TRY_ACQUIRE}), sorted */
    public List<LockSite> acquisitions() {
        return sites.stream().filter(s -> s.function().operation().isAcquisition()).toList();
    }

    /**
     * @return the acquisitions at the code that runs their SQL, sorted: calls of lock helpers are left
     *     out, so rules that judge the SQL or its connection report once, at the helper's own SQL
     */
    public List<LockSite> sqlAcquisitions() {
        return sites.stream().filter(s -> s.function().operation().isAcquisition() && !s.viaHelper()).toList();
    }

    /** @return the releases ({@code RELEASE} and {@code RELEASE_ALL}), sorted */
    public List<LockSite> releases() {
        return sites.stream().filter(s -> s.function().operation().isRelease()).toList();
    }

    /**
     * @param acquisition an acquiring site of this model
     * @return its lifecycle, or null when the site is not an acquisition of this model
     */
    public LockLifecycle lifecycle(LockSite acquisition) {
        return lifecycles.get(acquisition.id());
    }

    /**
     * Releases anywhere in the model that could release the given session-level acquisition: an
     * unlock whose key may equal it (of either mode: a mode mismatch is a different bug), or
     * {@code pg_advisory_unlock_all()}.
     *
     * @param acquisition an acquiring site
     * @return matching release sites, sorted; empty when none
     */
    public List<LockSite> possibleReleases(LockSite acquisition) {
        return releases().stream()
                .filter(r -> r.function().operation() == LockOperation.RELEASE_ALL
                        || r.key().mayEqual(acquisition.key()))
                .toList();
    }

    /**
     * Attaches what the front ends found around each site (RULES.md try-lock-result-ignored,
     * unbounded-lock-count, blocking-lock-without-timeout, unlock-mismatch) and the timeouts the
     * project's connection configuration sets.
     *
     * @param siteUsages         usage per {@link LockSite#id()}; sites not in it get {@link SiteUsage#UNKNOWN}
     * @param connectionSettings timeouts from configuration (JDBC URL {@code options}, data-source
     *                           properties, connection-init SQL), sorted by region
     * @return a copy of this model with those facts
     */
    public LockModel withUsage(Map<String, SiteUsage> siteUsages, List<TimeoutEvidence> connectionSettings) {
        LockModel copy = new LockModel(sites, List.copyOf(lifecycles.values()), poolingEvidence, pooling, orderEdges, loops);
        copy.usages = Map.copyOf(siteUsages);
        List<TimeoutEvidence> t = new ArrayList<>(connectionSettings);
        t.sort(Comparator.comparing(TimeoutEvidence::region, Comparator.nullsLast(Comparator.naturalOrder())));
        copy.connectionTimeouts = List.copyOf(t);
        copy.hazards = hazards;
        copy.pathFindings = pathFindings;
        return copy;
    }

    /**
     * Attaches what {@code core.java.LockHazardAnalyzer} found around each site (RULES.md
     * session-unlock-before-commit, lock-failure-ignored).
     *
     * @param siteHazards hazards per {@link LockSite#id()}; sites not in it get {@link SiteHazards#NONE}
     * @return a copy of this model with those facts and every other fact of this one
     */
    public LockModel withHazards(Map<String, SiteHazards> siteHazards) {
        LockModel copy = new LockModel(sites, List.copyOf(lifecycles.values()), poolingEvidence, pooling, orderEdges, loops);
        copy.usages = usages;
        copy.connectionTimeouts = connectionTimeouts;
        copy.pathFindings = pathFindings;
        copy.hazards = Map.copyOf(siteHazards);
        return copy;
    }

    /**
     * @param site a site of this model
     * @return what the code around it does that defeats the lock; {@link SiteHazards#NONE} when nothing
     */
    public SiteHazards hazards(LockSite site) {
        return hazards.getOrDefault(site.id(), SiteHazards.NONE);
    }

    /**
     * @param findings what the lock-state analysis proved along paths (core.flow)
     * @param replaced lifecycles that replace those of the same acquisitions
     * @return a copy of this model with those facts
     */
    public LockModel withPaths(List<PathFinding> findings, List<LockLifecycle> replaced) {
        Map<String, LockLifecycle> merged = new TreeMap<>(lifecycles);
        for (LockLifecycle l : replaced) {
            merged.put(l.acquisition().id(), l);
        }
        LockModel copy = new LockModel(sites, List.copyOf(merged.values()), poolingEvidence, pooling, orderEdges, loops);
        copy.usages = usages;
        copy.connectionTimeouts = connectionTimeouts;
        copy.pathFindings = List.copyOf(findings);
        copy.hazards = hazards;
        return copy;
    }

    /** @return what the lock-state analysis proved along paths, sorted by where each is reported */
    public List<PathFinding> pathFindings() {
        return pathFindings;
    }

    /**
     * @param site a site of this model
     * @return what the code around it does with it; {@link SiteUsage#UNKNOWN} when nothing was found
     */
    public SiteUsage usage(LockSite site) {
        return usages.getOrDefault(site.id(), SiteUsage.UNKNOWN);
    }

    /** @return lock or statement timeouts set for every connection by the project's configuration, sorted */
    public List<TimeoutEvidence> connectionTimeouts() {
        return connectionTimeouts;
    }
}
