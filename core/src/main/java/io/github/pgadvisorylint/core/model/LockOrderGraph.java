package io.github.pgadvisorylint.core.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The project-wide lock order: one node per key (a statically known key by its value, any other by
 * its normalised expression), one edge per ordered pair of nodes "the second is acquired while the
 * first is held", carrying every {@link LockOrderEdge} (the sites and method) that does it; and the
 * strongly connected components of the edges that can deadlock (RULES.md unordered-multi-key-lock,
 * F9). The {@code unordered-multi-key-lock} rule and the {@code graph} command both read this one graph.
 *
 * <p>A component is a set of known keys whose waiting edges form a cycle: for every edge of it some
 * other session can hold the awaited key in a mode that blocks the wait. Modes count: a
 * {@code _shared} wait is blocked only by an exclusive hold, so the strong components are computed
 * (Tarjan's algorithm) over states "key held in mode M". Edges whose second acquisition is a
 * {@code pg_try_*} call never wait and are never part of a component; edges between keys not known
 * statically are drawn but prove nothing (two methods' {@code id} need not be the same key).
 * Deterministic: nodes, edges and components come in a fixed order. Immutable.
 */
public final class LockOrderGraph {

    /**
     * One key of the graph.
     *
     * @param id    a stable identifier made of letters, digits and {@code _} (usable in DOT and Mermaid):
     *              {@code kB_700_} for the known {@code bigint} key 700, {@code x…} for an expression
     * @param label what to show: {@code Keys.CLOSE = 700}, {@code 700}, or the key's expression
     * @param known true when the key's value is known statically
     */
    public record Node(String id, String label, boolean known) {
        /** Checks that id and label are present. */
        public Node {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(label, "label");
        }
    }

    /**
     * All the acquisitions of {@code to} made while {@code from} is held.
     *
     * @param from  the key held
     * @param to    the key acquired
     * @param sites the site pairs that do it, sorted by the later site
     */
    public record Edge(Node from, Node to, List<LockOrderEdge> sites) {
        /** Copies the sites. */
        public Edge {
            sites = List.copyOf(sites);
        }

        /** @return true when at least one of the acquisitions waits (is not a try-lock) */
        public boolean waits() {
            return sites.stream().anyMatch(LockOrderEdge::waits);
        }

        /** @return true when every acquisition on both ends is {@code _shared}: such pairs never block each other */
        public boolean sharedOnly() {
            return sites.stream()
                    .allMatch(e -> e.from().function().mode() == LockMode.SHARED
                            && e.to().function().mode() == LockMode.SHARED);
        }

        /** @return the methods that take the two keys in this order, sorted */
        public Set<String> methods() {
            Set<String> m = new TreeSet<>();
            sites.forEach(e -> m.add(e.method()));
            return m;
        }
    }

    /**
     * A proven inversion: a strongly connected component of two or more known keys whose edges form a
     * cycle of waits (two or more sessions, each holding one key of it and waiting for the next).
     *
     * @param nodes the keys, sorted by id
     * @param edges the site pairs inside it, sorted by the later site, then the earlier
     * @param cycle one cycle of waits through the component: its first edge is the one that closes a
     *              cycle first when the {@code edges} are added in their order (where a finding about
     *              the component belongs), the others follow the cycle from there back to its start
     */
    public record Component(List<Node> nodes, List<LockOrderEdge> edges, List<LockOrderEdge> cycle) {
        /** Copies the lists; the cycle must have at least two edges. */
        public Component {
            nodes = List.copyOf(nodes);
            edges = List.copyOf(edges);
            cycle = List.copyOf(cycle);
            if (cycle.size() < 2) {
                throw new IllegalArgumentException("a cycle has at least two edges: " + cycle);
            }
        }

        /** @return the edge that closes the cycle: the first of {@link #cycle()} */
        public LockOrderEdge closing() {
            return cycle.get(0);
        }
    }

    /** A key held in one mode: the state that Tarjan's algorithm runs over. */
    private record Held(String node, LockMode mode) implements Comparable<Held> {
        @Override
        public int compareTo(Held o) {
            int c = node.compareTo(o.node);
            return c != 0 ? c : mode.compareTo(o.mode);
        }
    }

    /** The order in which edges are listed and a component's cycle is closed. */
    private static final Comparator<LockOrderEdge> SITE_ORDER = Comparator.comparing(
                    (LockOrderEdge e) -> e.to().region())
            .thenComparing(e -> e.from().region())
            .thenComparing(e -> e.to().id())
            .thenComparing(e -> e.from().id());

    /** No edge at all. */
    public static final LockOrderGraph EMPTY = of(List.of());

    private final List<Node> nodes;
    private final List<Edge> edges;
    private final List<Component> components;
    private final Map<LockOrderEdge, Component> componentOf;

    private LockOrderGraph(List<Node> nodes, List<Edge> edges, List<Component> components) {
        this.nodes = List.copyOf(nodes);
        this.edges = List.copyOf(edges);
        this.components = List.copyOf(components);
        // by identity: every look-up passes an edge of this graph, and a record key would hash both
        // sites whole for each of what can be a million edges
        Map<LockOrderEdge, Component> of = new IdentityHashMap<>();
        for (Component c : components) {
            c.edges().forEach(e -> of.put(e, c));
        }
        this.componentOf = of;
    }

    /**
     * Builds the graph. Pairs of acquisitions of one key (a re-entrant lock) are left out.
     *
     * @param orderEdges every lock-order edge of the project, in any order
     * @return the graph with its components
     */
    public static LockOrderGraph of(List<LockOrderEdge> orderEdges) {
        List<LockOrderEdge> sorted = new ArrayList<>(orderEdges);
        sorted.sort(SITE_ORDER);
        Map<String, Node> nodes = new TreeMap<>();
        // by the ids of both ends: the order of "from id, NUL, to id"; no per-edge key is kept
        Map<String, Map<String, List<LockOrderEdge>>> byPair = new TreeMap<>();
        List<LockOrderEdge> proven = new ArrayList<>();
        // the registered node of each site, computed once: a method holding k keys gives k² edges over
        // only 2k sites, so nothing per edge is kept but the edge itself
        IdentityHashMap<LockSite, Node> nodeOfSite = new IdentityHashMap<>();
        for (LockOrderEdge e : sorted) {
            Node from = nodeOfSite.computeIfAbsent(e.from(), s -> register(nodes, nodeOf(s)));
            Node to = nodeOfSite.computeIfAbsent(e.to(), s -> register(nodes, nodeOf(s)));
            if (from.equals(to)) {
                continue;
            }
            byPair.computeIfAbsent(from.id(), k -> new TreeMap<>())
                    .computeIfAbsent(to.id(), k -> new ArrayList<>())
                    .add(e);
            if (e.waits() && from.known() && to.known()) {
                proven.add(e);
            }
        }
        Set<String> used = new TreeSet<>();
        List<Edge> edges = new ArrayList<>();
        byPair.forEach((fromId, tos) -> tos.forEach((toId, sites) -> {
            edges.add(new Edge(nodes.get(fromId), nodes.get(toId), sites));
            used.add(fromId);
            used.add(toId);
        }));
        List<Node> usedNodes =
                nodes.values().stream().filter(n -> used.contains(n.id())).toList();
        Function<LockOrderEdge, Node[]> endsOf = e -> new Node[] {nodeOfSite.get(e.from()), nodeOfSite.get(e.to())};
        return new LockOrderGraph(usedNodes, edges, components(proven, endsOf, nodes));
    }

    /** The node already registered under the same id (its label wins), or this one. */
    private static Node register(Map<String, Node> nodes, Node node) {
        Node old = nodes.putIfAbsent(node.id(), node);
        return old == null ? node : old;
    }

    /**
     * The node of a site's key. Known keys are named by value and space; other keys by their expression
     * with whitespace collapsed and one pair of enclosing parentheses removed.
     *
     * @param site an acquisition
     * @return its node (not necessarily part of any graph)
     */
    public static Node nodeOf(LockSite site) {
        LockKey key = site.key();
        if (key.isFullyKnown()) {
            String id = "k" + key.space().name().charAt(0) + key.canonical().replaceAll("[^0-9-]+", "_");
            StringBuilder sb = new StringBuilder();
            for (KeyPart p : key.parts()) {
                if (sb.length() > 0) {
                    sb.append(", ");
                }
                String name = p.originName() == null
                        ? null
                        : p.originName()
                                .substring(p.originName()
                                                .lastIndexOf('.', p.originName().lastIndexOf('.') - 1)
                                        + 1);
                sb.append(name == null ? Long.toString(p.value()) : name + " = " + p.value());
            }
            return new Node(id, sb.toString(), true);
        }
        String label = key.display().replaceAll("\\s+", " ").replaceAll("^\\(|\\)$", "");
        return new Node(
                "x" + Integer.toHexString(label.hashCode()) + "_" + label.replaceAll("\\W+", "_"), label, false);
    }

    /** Whether a wait in mode {@code wait} is blocked by another session holding the key in mode {@code held}. */
    private static boolean blocks(LockMode held, LockMode wait) {
        return !(held == LockMode.SHARED && wait == LockMode.SHARED);
    }

    /** The states an edge leads to: the awaited key held by another session in a mode that blocks the wait. */
    private static List<Held> targets(LockOrderEdge e, Node to) {
        List<Held> out = new ArrayList<>();
        for (LockMode m : LockMode.values()) {
            if (blocks(m, e.to().function().mode())) {
                out.add(new Held(to.id(), m));
            }
        }
        return out;
    }

    private static List<Component> components(
            List<LockOrderEdge> proven, Function<LockOrderEdge, Node[]> endsOf, Map<String, Node> nodes) {
        Map<Held, Set<Held>> graph = new TreeMap<>();
        for (LockOrderEdge e : proven) {
            Node[] fromTo = endsOf.apply(e);
            Held from = new Held(fromTo[0].id(), e.from().function().mode());
            graph.computeIfAbsent(from, k -> new TreeSet<>()).addAll(targets(e, fromTo[1]));
        }
        List<Set<Held>> sccs = tarjan(graph);
        Map<Held, Integer> sccOf = new HashMap<>();
        for (int i = 0; i < sccs.size(); i++) {
            if (sccs.get(i).size() >= 2) { // one state: no edge from a key to itself exists, so no cycle
                for (Held h : sccs.get(i)) {
                    sccOf.put(h, i);
                }
            }
        }
        // one pass over the edges: an edge is inside the component of its source state when one of its
        // target states is in the same component
        Map<Integer, List<LockOrderEdge>> inside = new TreeMap<>();
        Map<Integer, Set<String>> keys = new HashMap<>();
        for (LockOrderEdge e : proven) {
            Node[] fromTo = endsOf.apply(e);
            Integer scc = sccOf.get(new Held(fromTo[0].id(), e.from().function().mode()));
            if (scc != null && targets(e, fromTo[1]).stream().anyMatch(t -> scc.equals(sccOf.get(t)))) {
                inside.computeIfAbsent(scc, k -> new ArrayList<>()).add(e);
                Set<String> k = keys.computeIfAbsent(scc, x -> new TreeSet<>());
                k.add(fromTo[0].id());
                k.add(fromTo[1].id());
            }
        }
        List<Component> out = new ArrayList<>();
        inside.forEach((scc, edges) ->
                out.add(new Component(keys.get(scc).stream().map(nodes::get).toList(), edges, closing(edges, endsOf))));
        out.sort(Comparator.comparing(Component::closing, SITE_ORDER));
        return out;
    }

    /**
     * The first edge, in site order, whose addition to the edges before it closes a cycle, followed by
     * the edges of the shortest such cycle back to its start (breadth first, deterministic). Whether a
     * prefix of the edges holds a cycle only changes once, from no to yes, as the prefix grows; so the
     * closing edge is found by a binary search over prefix lengths, each step one linear cycle check:
     * O(E log E) for E edges, where testing every prefix by a search from each new edge was O(E²).
     */
    private static List<LockOrderEdge> closing(List<LockOrderEdge> inside, Function<LockOrderEdge, Node[]> endsOf) {
        // states numbered once; each edge as its source state and its target states
        Map<Held, Integer> number = new HashMap<>();
        int[] source = new int[inside.size()];
        int[][] target = new int[inside.size()][];
        for (int k = 0; k < inside.size(); k++) {
            LockOrderEdge e = inside.get(k);
            source[k] = number.computeIfAbsent(held(e, endsOf), h -> number.size());
            List<Held> ts = targets(e, endsOf.apply(e)[1]);
            target[k] = new int[ts.size()];
            for (int t = 0; t < ts.size(); t++) {
                target[k][t] = number.computeIfAbsent(ts.get(t), h -> number.size());
            }
        }
        int states = number.size();
        int lo = 1;
        int hi = inside.size();
        if (!hasCycle(source, target, hi, states)) {
            throw new IllegalStateException("a strongly connected component without a cycle: " + inside);
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (hasCycle(source, target, mid, states)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        // the closing edge is the last of the shortest prefix with a cycle; every such cycle passes it
        int closing = lo - 1;
        List<List<Integer>> out = new ArrayList<>();
        for (int s = 0; s < states; s++) {
            out.add(new ArrayList<>());
        }
        for (int k = 0; k <= closing; k++) {
            out.get(source[k]).add(k);
        }
        int[] reachedBy = new int[states]; // the edge that first reached a state; -1 for none, -2 for a start
        Arrays.fill(reachedBy, -1);
        int[] previous = new int[states];
        Deque<Integer> todo = new ArrayDeque<>();
        for (int t : target[closing]) {
            if (reachedBy[t] == -1) {
                reachedBy[t] = -2;
                todo.add(t);
            }
        }
        while (!todo.isEmpty()) {
            int h = todo.poll();
            if (h == source[closing]) {
                List<LockOrderEdge> back = new ArrayList<>();
                for (int at = h; reachedBy[at] >= 0; at = previous[at]) {
                    back.add(inside.get(reachedBy[at]));
                }
                List<LockOrderEdge> cycle = new ArrayList<>(List.of(inside.get(closing)));
                for (int i = back.size() - 1; i >= 0; i--) {
                    cycle.add(back.get(i));
                }
                return cycle;
            }
            for (int k : out.get(h)) {
                for (int t : target[k]) {
                    if (reachedBy[t] == -1) {
                        reachedBy[t] = k;
                        previous[t] = h;
                        todo.add(t);
                    }
                }
            }
        }
        throw new IllegalStateException("the closing edge of a component is on no cycle: " + inside.get(closing));
    }

    /**
     * @return true when the first {@code n} edges hold a cycle of states (Kahn's algorithm: some state
     *     is never freed); linear in the edges
     */
    private static boolean hasCycle(int[] source, int[][] target, int n, int states) {
        int[] indegree = new int[states];
        List<List<Integer>> out = new ArrayList<>();
        for (int s = 0; s < states; s++) {
            out.add(new ArrayList<>());
        }
        for (int k = 0; k < n; k++) {
            out.get(source[k]).add(k);
            for (int t : target[k]) {
                indegree[t]++;
            }
        }
        Deque<Integer> free = new ArrayDeque<>();
        for (int s = 0; s < states; s++) {
            if (indegree[s] == 0) {
                free.add(s);
            }
        }
        int freed = 0;
        while (!free.isEmpty()) {
            int h = free.poll();
            freed++;
            for (int k : out.get(h)) {
                for (int t : target[k]) {
                    if (--indegree[t] == 0) {
                        free.add(t);
                    }
                }
            }
        }
        return freed < states;
    }

    private static Held held(LockOrderEdge e, Function<LockOrderEdge, Node[]> endsOf) {
        return new Held(endsOf.apply(e)[0].id(), e.from().function().mode());
    }

    /**
     * Tarjan's strongly connected components, iterative (no recursion depth limit), visiting states and
     * successors in sorted order so the result is deterministic.
     */
    private static List<Set<Held>> tarjan(Map<Held, Set<Held>> graph) {
        Map<Held, Integer> index = new HashMap<>();
        Map<Held, Integer> low = new HashMap<>();
        Deque<Held> stack = new ArrayDeque<>();
        Set<Held> onStack = new HashSet<>();
        List<Set<Held>> out = new ArrayList<>();
        int next = 0;
        for (Held root : graph.keySet()) {
            if (index.containsKey(root)) {
                continue;
            }
            Deque<Map.Entry<Held, Iterator<Held>>> work = new ArrayDeque<>();
            index.put(root, next);
            low.put(root, next++);
            stack.push(root);
            onStack.add(root);
            work.push(Map.entry(root, graph.getOrDefault(root, Set.of()).iterator()));
            while (!work.isEmpty()) {
                Held v = work.peek().getKey();
                Iterator<Held> it = work.peek().getValue();
                if (it.hasNext()) {
                    Held w = it.next();
                    if (!index.containsKey(w)) {
                        index.put(w, next);
                        low.put(w, next++);
                        stack.push(w);
                        onStack.add(w);
                        work.push(Map.entry(w, graph.getOrDefault(w, Set.of()).iterator()));
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    Held parent = work.peek().getKey();
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    Set<Held> scc = new TreeSet<>();
                    Held w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        scc.add(w);
                    } while (!w.equals(v));
                    out.add(scc);
                }
            }
        }
        return out;
    }

    /** @return the keys that are an end of at least one edge, sorted by id */
    public List<Node> nodes() {
        return nodes;
    }

    /** @return one edge per ordered pair of distinct keys, sorted by the ids of its ends */
    public List<Edge> edges() {
        return edges;
    }

    /** @return the proven inversions, sorted by their closing edge's site */
    public List<Component> components() {
        return components;
    }

    /**
     * @param edge a lock-order edge of this graph (the instance the graph was built from: edges are
     *     compared by identity)
     * @return the component the edge lies in, or null when it is on no cycle of waits
     */
    public Component componentOf(LockOrderEdge edge) {
        return componentOf.get(edge);
    }

    /**
     * @param edge a key-level edge of this graph
     * @return true when one of its site pairs lies in a component (a possible deadlock)
     */
    public boolean onCycle(Edge edge) {
        return edge.sites().stream().anyMatch(componentOf::containsKey);
    }
}
