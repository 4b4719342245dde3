package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.discovery.TestSources;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The one intermediate representation every rule reads: every lock site of the scanned files and
 * the lifecycle of every acquisition, sorted by location. Not changed once a caller holds it: its
 * lists and maps are unmodifiable copies, and {@link #withUsage}, {@link #withHazards} and
 * {@link #withPaths} return a new model. Those methods set the usage, timeout, hazard and path facts on
 * the new model after its constructor ran, so these fields are not {@code final}: hand a model to
 * another thread through a safe publication (an executor, a thread start or join), as the analysis
 * does for its rules.
 *
 * <p>Per site, the model says what rules would otherwise re-derive: its {@link SiteRole} (executed,
 * declared only, a lock helper's body, a helper call, an annotation), whether it lies in test sources,
 * its lifecycle and what the lock-state analysis proved about it ({@link #pathFindings(LockSite)}).
 * {@link ModelDump} renders all of it as text.
 */
public final class LockModel {

    private final List<LockSite> sites;
    private final Map<String, LockLifecycle> lifecycles;
    private final List<PoolingEvidence> poolingEvidence;
    private final PoolingSetting pooling;
    private final List<LockOrderEdge> orderEdges;
    private final LockOrderGraph orderGraph;
    private final Map<String, LoopOrder> loops;
    private final SortedSet<SourceRegion> helperBodies;
    private final Set<SourceRegion> bodies;
    private final Map<String, SiteRole> roles;
    /** Helper-call sites by the region of the helper's own site they name ({@link LockSite#declarationRegion()}). */
    private final Map<SourceRegion, List<LockSite>> helperCallsByBody;

    private final Set<String> testSources;
    private final List<LockSite> acquisitions;
    private final List<LockSite> sqlAcquisitions;
    private final List<LockSite> keySites;
    private Map<String, SiteUsage> usages = Map.of();
    private List<TimeoutEvidence> connectionTimeouts = List.of();
    private Map<String, SiteHazards> hazards = Map.of();
    private List<PathFinding> pathFindings = List.of();
    private Map<String, List<PathFinding>> pathFindingsBySite = Map.of();
    private Set<String> inCallersTransaction = Set.of();
    /** Where the lock-state paths found a transaction-level lock taken in autocommit ({@link #start}). */
    private Set<String> xactInAutocommitAt = Set.of();

    private MigrationFacts migrations = MigrationFacts.NONE;
    /** By site id: the data source URL the site's own connection is opened with, where the code names it. */
    private Map<String, DataSourceUrl> dataSources = Map.of();

    private List<ReleaseMismatch> releaseMismatches = List.of();

    private EvidenceScopes evidenceScopes = EvidenceScopes.PROJECT;

    /**
     * @param sites      every lock site found; copied and sorted by region
     * @param lifecycles one lifecycle per acquisition; keyed by {@link LockSite#id()}
     */
    public LockModel(List<LockSite> sites, List<LockLifecycle> lifecycles) {
        this(sites, lifecycles, List.of(), PoolingSetting.AUTO);
    }

    /**
     * @param sites           every lock site found; copied and sorted by region
     * @param lifecycles      one lifecycle per acquisition
     * @param poolingEvidence configuration evidence of a connection pooler's mode
     * @param pooling         the user's pooling setting
     */
    public LockModel(
            List<LockSite> sites,
            List<LockLifecycle> lifecycles,
            List<PoolingEvidence> poolingEvidence,
            PoolingSetting pooling) {
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
    public LockModel(
            List<LockSite> sites,
            List<LockLifecycle> lifecycles,
            List<PoolingEvidence> poolingEvidence,
            PoolingSetting pooling,
            List<LockOrderEdge> orderEdges,
            Map<String, LoopOrder> loops) {
        this(sites, lifecycles, poolingEvidence, pooling, orderEdges, loops, List.of());
    }

    /**
     * @param sites           every lock site found; copied and sorted by region
     * @param lifecycles      one lifecycle per acquisition; keyed by {@link LockSite#id()}
     * @param poolingEvidence configuration evidence of a connection pooler's mode; copied and sorted
     * @param pooling         the user's pooling setting
     * @param orderEdges      every acquisition taken while another is held; sorted here, and the
     *                        {@link #orderGraph()} built from them
     * @param loops           the loop around each acquisition in one, keyed by {@link LockSite#id()}
     * @param helperBodies    the regions of the lock helpers' own SQL sites (the helper registry's
     *                        operations); a site there is a {@link SiteRole#HELPER_BODY}, as is every site
     *                        a helper call names as its {@link LockSite#declarationRegion()}
     */
    public LockModel(
            List<LockSite> sites,
            List<LockLifecycle> lifecycles,
            List<PoolingEvidence> poolingEvidence,
            PoolingSetting pooling,
            List<LockOrderEdge> orderEdges,
            Map<String, LoopOrder> loops,
            Collection<SourceRegion> helperBodies) {
        this(sites, lifecycles, poolingEvidence, pooling, orderEdges, null, loops, helperBodies);
    }

    /** The constructor behind the others; {@code graph} is the graph of {@code orderEdges} (already sorted), or null. */
    private LockModel(
            List<LockSite> sites,
            List<LockLifecycle> lifecycles,
            List<PoolingEvidence> poolingEvidence,
            PoolingSetting pooling,
            List<LockOrderEdge> orderEdges,
            LockOrderGraph graph,
            Map<String, LoopOrder> loops,
            Collection<SourceRegion> helperBodies) {
        if (graph == null) {
            List<LockOrderEdge> edges = new ArrayList<>(orderEdges);
            edges.sort(Comparator.comparing((LockOrderEdge e) -> e.to().region())
                    .thenComparing(e -> e.from().region()));
            this.orderEdges = List.copyOf(edges);
            this.orderGraph = LockOrderGraph.of(this.orderEdges);
        } else {
            // a copy: the edges are this model's, sorted, and their graph is built once
            this.orderEdges = orderEdges;
            this.orderGraph = graph;
        }
        this.loops = new TreeMap<>(loops);
        List<PoolingEvidence> evidence = new ArrayList<>(poolingEvidence);
        evidence.sort(Comparator.naturalOrder());
        this.poolingEvidence = List.copyOf(evidence);
        this.pooling = Objects.requireNonNull(pooling, "pooling");
        List<LockSite> sorted = new ArrayList<>(sites);
        sorted.sort(Comparator.comparing(LockSite::region).thenComparing(LockSite::id));
        this.sites = List.copyOf(sorted);
        Map<String, LockLifecycle> byId = new TreeMap<>();
        for (LockLifecycle l : lifecycles) {
            byId.put(l.acquisition().id(), l);
        }
        this.lifecycles = byId;
        this.helperBodies = Collections.unmodifiableSortedSet(new TreeSet<>(helperBodies));
        Set<SourceRegion> bodies = new HashSet<>(helperBodies);
        for (LockSite s : this.sites) {
            if (s.api() == ExecutionApi.LOCK_HELPER && s.declarationRegion() != null) {
                bodies.add(s.declarationRegion()); // the helper's own SQL site
            }
        }
        Map<String, SiteRole> r = new HashMap<>();
        Set<String> tests = new HashSet<>();
        for (LockSite s : this.sites) {
            r.put(s.id(), SiteRole.of(s, bodies.contains(s.region())));
            if (TestSources.isTestSource(s.path())) {
                tests.add(s.id());
            }
        }
        this.bodies = Set.copyOf(bodies);
        this.roles = Map.copyOf(r);
        Map<SourceRegion, List<LockSite>> calls = new HashMap<>();
        for (LockSite s : this.sites) { // sorted by region: each list is too
            if (s.declarationRegion() != null && r.get(s.id()) == SiteRole.HELPER_CALL) {
                calls.computeIfAbsent(s.declarationRegion(), k -> new ArrayList<>())
                        .add(s);
            }
        }
        calls.replaceAll((k, v) -> List.copyOf(v));
        this.helperCallsByBody = Map.copyOf(calls);
        this.testSources = Set.copyOf(tests);
        this.acquisitions = this.sites.stream()
                .filter(s -> s.function().operation().isAcquisition())
                .toList();
        this.sqlAcquisitions = acquisitions.stream()
                .filter(s -> roles.get(s.id()) != SiteRole.HELPER_CALL)
                .toList();
        Set<KeyPart> direct = new HashSet<>();
        for (LockSite s : this.sites) {
            if (roles.get(s.id()) != SiteRole.HELPER_CALL) {
                direct.addAll(s.key().parts());
            }
        }
        this.keySites = this.sites.stream()
                .filter(s -> roles.get(s.id()) != SiteRole.HELPER_CALL
                        || s.key().parts().stream().anyMatch(p -> !direct.contains(p)))
                .toList();
    }

    /**
     * @param site a lock site of this model
     * @return what the site stands for: executed here, declared only, a lock helper's body, a helper
     *     call, or an annotation run by its method's callers (decided the same way for a site that is
     *     not one of this model's)
     */
    public SiteRole role(LockSite site) {
        SiteRole role = roles.get(site.id());
        return role != null ? role : SiteRole.of(site, bodies.contains(site.region()));
    }

    /**
     * The calls of a lock helper whose body holds this site: the helper-call sites declared at its
     * region ({@link LockSite#declarationRegion()}), each with its caller's execution context.
     *
     * @param body a site of this model, normally {@link SiteRole#HELPER_BODY}
     * @return those calls, sorted by region; empty for a site no helper call names
     */
    public List<LockSite> helperCalls(LockSite body) {
        return helperCallsByBody.getOrDefault(body.region(), List.of());
    }

    /**
     * @param site a lock site of this model
     * @return true when it lies in test sources ({@link TestSources#DIRECTORIES}): code that
     *     drives locks step by step or spells out keys next to a mock
     */
    public boolean inTestSources(LockSite site) {
        return roles.containsKey(site.id()) ? testSources.contains(site.id()) : TestSources.isTestSource(site.path());
    }

    /** @return the regions of the lock helpers' own SQL sites given to this model, sorted */
    public SortedSet<SourceRegion> helperBodies() {
        return helperBodies;
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
    public List<PoolingEvidence> poolingEvidence() {
        return poolingEvidence;
    }

    /**
     * @param source a source file's path, relative to the scan root
     * @return the pooling evidence that speaks for it ({@link EvidenceScopes}), sorted by region
     */
    public List<PoolingEvidence> poolingEvidence(String source) {
        return poolingEvidence.stream()
                .filter(e -> evidenceScopes.applies(e.region(), source))
                .toList();
    }

    /**
     * @param scopes the module each configuration file speaks for
     * @return a copy of this model with those scopes and every other fact of this one
     */
    public LockModel withEvidenceScopes(EvidenceScopes scopes) {
        LockModel copy = copy(List.copyOf(lifecycles.values()));
        copy.evidenceScopes = Objects.requireNonNull(scopes, "scopes");
        return copy;
    }

    /** @return the module each configuration file speaks for; {@link EvidenceScopes#PROJECT} by default */
    public EvidenceScopes evidenceScopes() {
        return evidenceScopes;
    }

    /** @return the user's pooling setting; {@code AUTO} means the evidence decides */
    public PoolingSetting pooling() {
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
        return keySites;
    }

    /** @return the acquisitions among {@link #keySites()}, sorted */
    public List<LockSite> keyAcquisitions() {
        return keySites().stream()
                .filter(s -> s.function().operation().isAcquisition())
                .toList();
    }

    /** @return the acquisitions ({@code ACQUIRE} and {@code TRY_ACQUIRE}), sorted */
    public List<LockSite> acquisitions() {
        return acquisitions;
    }

    /**
     * @return the acquisitions whose SQL is written where they stand, sorted: every role but
     *     {@link SiteRole#HELPER_CALL}, so rules that judge the SQL or its connection report once, at the
     *     helper's own SQL
     */
    public List<LockSite> sqlAcquisitions() {
        return sqlAcquisitions;
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
     * The releases of an acquisition that run while the transaction doing the locked work is still open
     * (F19): the releases of the {@link PathFinding.Kind#RELEASE_BEFORE_COMMIT} paths of this acquisition. What {@code session-unlock-before-commit} reports, and what takes over the
     * aborted-transaction case of {@code lock-without-finally-unlock} for the same unlock (one change fixes
     * both).
     *
     * @param acquisition an acquiring site
     * @return those releases, sorted by region; empty when none
     */
    public List<LockSite> releasesBeforeCommit(LockSite acquisition) {
        Map<String, LockSite> found = new TreeMap<>();
        for (PathFinding f : pathFindings(acquisition)) {
            if (f.kind() == PathFinding.Kind.RELEASE_BEFORE_COMMIT
                    && f.release() != null
                    && f.acquisition() != null
                    && f.acquisition().id().equals(acquisition.id())) {
                found.put(f.release().id(), f.release());
            }
        }
        return found.values().stream()
                .sorted(Comparator.comparing(LockSite::region))
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
        LockModel copy = copy(List.copyOf(lifecycles.values()));
        copy.usages = Map.copyOf(siteUsages);
        List<TimeoutEvidence> t = new ArrayList<>(connectionSettings);
        t.sort(Comparator.comparing(TimeoutEvidence::region, Comparator.nullsLast(Comparator.naturalOrder())));
        copy.connectionTimeouts = List.copyOf(t);
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
        LockModel copy = copy(List.copyOf(lifecycles.values()));
        copy.hazards = Map.copyOf(siteHazards);
        return copy;
    }

    /**
     * @param site a site of this model
     * @return true when every run of the site is inside a transaction, its method's own or, through every
     *     call the scanned code makes of that method, its callers' (the lock-state analysis' calling contexts);
     *     for a transaction-level lock also when every path finds a transaction open on its connection (one a
     *     pool hands out with auto-commit off, by the project's configuration)
     */
    public boolean inCallersTransaction(LockSite site) {
        return inCallersTransaction.contains(site.id());
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
        return withPaths(findings, replaced, inCallersTransaction);
    }

    /**
     * @param findings             what the lock-state analysis proved along paths (core.flow)
     * @param replaced             lifecycles that replace those of the same acquisitions
     * @param inCallersTransaction ids of the sites that run inside a transaction on every call, their method's
     *                             own or its callers' (core.flow.CallingContexts)
     * @return a copy of this model with those facts
     */
    public LockModel withPaths(
            List<PathFinding> findings, List<LockLifecycle> replaced, Set<String> inCallersTransaction) {
        Map<String, LockLifecycle> merged = new TreeMap<>(lifecycles);
        for (LockLifecycle l : replaced) {
            merged.put(l.acquisition().id(), l);
        }
        LockModel copy = copy(List.copyOf(merged.values()));
        copy.pathFindings = List.copyOf(findings);
        Map<String, List<PathFinding>> bySite = new HashMap<>();
        for (PathFinding f : copy.pathFindings) {
            Set<String> ids = new TreeSet<>();
            if (f.acquisition() != null) {
                ids.add(f.acquisition().id());
            }
            if (f.release() != null) {
                ids.add(f.release().id());
            }
            ids.forEach(id -> bySite.computeIfAbsent(id, x -> new ArrayList<>()).add(f));
        }
        bySite.replaceAll((id, list) -> List.copyOf(list));
        copy.pathFindingsBySite = Map.copyOf(bySite);
        copy.inCallersTransaction = Set.copyOf(inCallersTransaction);
        Set<String> xactAt = new HashSet<>();
        for (PathFinding f : copy.pathFindings) {
            if (f.kind() == PathFinding.Kind.XACT_IN_AUTOCOMMIT) {
                xactAt.add(start(f.at()));
            }
        }
        copy.xactInAutocommitAt = Set.copyOf(xactAt);
        return copy;
    }

    /** A copy with other lifecycles and every other fact of this model. */
    private LockModel copy(List<LockLifecycle> newLifecycles) {
        LockModel copy = new LockModel(
                sites, newLifecycles, poolingEvidence, pooling, orderEdges, orderGraph, loops, helperBodies);
        copy.usages = usages;
        copy.connectionTimeouts = connectionTimeouts;
        copy.pathFindings = pathFindings;
        copy.pathFindingsBySite = pathFindingsBySite;
        copy.inCallersTransaction = inCallersTransaction;
        copy.xactInAutocommitAt = xactInAutocommitAt;
        copy.hazards = hazards;
        copy.migrations = migrations;
        copy.evidenceScopes = evidenceScopes;
        copy.dataSources = dataSources;
        copy.releaseMismatches = releaseMismatches;
        return copy;
    }

    /**
     * @param bySite by site id, the data source URL each site's own connection is opened with
     * @return a copy of this model with those and every other fact of this one
     */
    public LockModel withDataSources(Map<String, DataSourceUrl> bySite) {
        LockModel copy = copy(List.copyOf(lifecycles.values()));
        copy.dataSources = Map.copyOf(bySite);
        return copy;
    }

    /**
     * @param site a lock site of this model
     * @return the data source URL its own connection is opened with (a {@code DriverManager} URL in the code, or the
     *     configured value of the key the code reads it from), or null when the code does not say
     */
    public DataSourceUrl dataSource(LockSite site) {
        return dataSources.get(site.id());
    }

    /**
     * @param facts the project's migrations: concurrent index builds and the files that run migrations (F21)
     * @return a copy of this model with those facts and every other fact of this one
     */
    public LockModel withMigrations(MigrationFacts facts) {
        LockModel copy = copy(List.copyOf(lifecycles.values()));
        copy.migrations = Objects.requireNonNull(facts, "facts");
        return copy;
    }

    /** @return the project's migrations; {@link MigrationFacts#NONE} when none were scanned */
    public MigrationFacts migrations() {
        return migrations;
    }

    /**
     * @param mismatches the releases that cannot release what their method or class holds, by the written keys
     *                   ({@code core.keys.ReleaseMatching})
     * @return a copy of this model with those facts and every other fact of this one
     */
    public LockModel withReleaseMismatches(List<ReleaseMismatch> mismatches) {
        LockModel copy = copy(List.copyOf(lifecycles.values()));
        copy.releaseMismatches = List.copyOf(mismatches);
        return copy;
    }

    /** @return the releases that cannot release what their method or class holds; empty until matched */
    public List<ReleaseMismatch> releaseMismatches() {
        return releaseMismatches;
    }

    /**
     * @param site a lock site of this model
     * @return true for a transaction-level lock that runs in autocommit, by its own execution context (unless the
     *     lock-state paths found a transaction open on every path) or by a {@code XACT_IN_AUTOCOMMIT} path finding
     *     at it: it ends with its own statement (F2), so it is never held together with a later lock and never
     *     accumulates in a loop
     */
    public boolean endsWithItsStatement(LockSite site) {
        if (site.function().level() != LockLevel.TRANSACTION) {
            return false;
        }
        if (site.execution().transaction() == TransactionState.AUTOCOMMIT && !inCallersTransaction(site)) {
            return true;
        }
        return xactInAutocommitAt.contains(start(site.region()));
    }

    /** @return a region's start, {@code path:line:column}: where a path finding at a site is reported */
    private static String start(SourceRegion r) {
        return r.path() + ":" + r.startLine() + ":" + r.startColumn();
    }

    /** @return what the lock-state analysis proved along paths, sorted by where each is reported */
    public List<PathFinding> pathFindings() {
        return pathFindings;
    }

    /**
     * @param site a lock site of this model
     * @return the path findings whose acquisition or release is this site, in the order of
     *     {@link #pathFindings()}; empty when there are none
     */
    public List<PathFinding> pathFindings(LockSite site) {
        return pathFindingsBySite.getOrDefault(site.id(), List.of());
    }

    /** @return a deterministic text rendering of this model ({@link ModelDump#render(LockModel)}) */
    public String render() {
        return ModelDump.render(this);
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

    /**
     * @param source a source file's path, relative to the scan root
     * @return the connection timeouts that speak for it ({@link EvidenceScopes}), sorted
     */
    public List<TimeoutEvidence> connectionTimeouts(String source) {
        return connectionTimeouts.stream()
                .filter(t -> evidenceScopes.applies(t.region(), source))
                .toList();
    }
}
