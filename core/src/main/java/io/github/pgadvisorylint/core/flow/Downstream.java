package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What can still be observed after each node of one method graph: the names some later event mentions,
 * the variables read before they are written again (live variables), and the releases that may still run. {@link LockStateAnalysis} drops from a path state the facts no
 * later node can read (the fixed boolean of a variable nobody reads again, the failed try-lock whose key
 * no later release takes), so paths that differ only there become one state: independent lock/unlock
 * pairs in one method cost work linear in their number instead of doubling the states at each pair.
 *
 * <p>Both sets are over-approximations computed by one backward fixpoint over the normal and
 * exceptional successors (a node reaches itself through a loop): a name counts from the first mention
 * backwards, read or written (a superset of the live variables of a classic liveness analysis), and a
 * release counts when it is a {@link FlowEvent.Kind#LOCK} event's release site, a lock-helper call's
 * release site, or a release of the callee's {@link MethodSummary}. Dropping only what no later node can
 * observe keeps every finding of the unpruned analysis.
 */
final class Downstream {

    private final Map<String, Integer> nameIndex = new HashMap<>();
    private final Map<String, Integer> releaseIndex = new HashMap<>();
    private final List<String> releaseIds = new ArrayList<>();
    private final BitSet[] names;
    private final BitSet[] releases;
    private final boolean[] reachesThrow;
    /** Per node: the roots read at or after it before any write of them (classic live variables, live-in). */
    private final BitSet[] live;
    /** The names a lambda value ({@code $fn:..}) passed at a node captures: it reads them wherever it runs. */
    private final Function<String, Set<String>> captured;

    private Downstream(int nodes, Function<String, Set<String>> captured) {
        this.captured = captured;
        names = new BitSet[nodes];
        releases = new BitSet[nodes];
        reachesThrow = new boolean[nodes];
        live = new BitSet[nodes];
    }

    /**
     * @param flow      the method graph
     * @param summaries the summary a call event resolves to, or null (the summaries of this round)
     * @param sites     every lock site of the project, by id
     * @param captured  the names a lambda value ({@code $fn:..}) captures, which an event passing it reads
     * @return the sets for every node of {@code flow}
     */
    static Downstream of(
            MethodFlow flow,
            Function<FlowEvent, MethodSummary> summaries,
            Map<String, LockSite> sites,
            Function<String, Set<String>> captured) {
        List<FlowNode> nodes = flow.nodes();
        Downstream d = new Downstream(nodes.size(), captured);
        List<List<Integer>> preds = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            preds.add(new ArrayList<>());
        }
        BitSet[] uses = new BitSet[nodes.size()];
        int[] defs = new int[nodes.size()];
        for (FlowNode n : nodes) {
            uses[n.id()] = d.used(n.event());
            defs[n.id()] = d.defined(n.event());
            d.live[n.id()] = (BitSet) uses[n.id()].clone();
            d.names[n.id()] = d.mentioned(n.event());
            d.releases[n.id()] = d.released(n.event(), summaries, sites);
            for (int s : n.next()) {
                preds.get(s).add(n.id());
            }
            for (int s : n.onException()) {
                preds.get(s).add(n.id());
            }
        }
        if (nodes.size() > MethodFlow.EXCEPTIONAL_EXIT) {
            d.reachesThrow[MethodFlow.EXCEPTIONAL_EXIT] = true;
        }
        Deque<Integer> work = new ArrayDeque<>();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            work.add(i);
        }
        while (!work.isEmpty()) {
            int n = work.poll();
            for (int p : preds.get(n)) {
                boolean changed = false;
                if (!contains(d.names[p], d.names[n])) {
                    d.names[p].or(d.names[n]);
                    changed = true;
                }
                if (!contains(d.releases[p], d.releases[n])) {
                    d.releases[p].or(d.releases[n]);
                    changed = true;
                }
                if (d.reachesThrow[n] && !d.reachesThrow[p]) {
                    d.reachesThrow[p] = true;
                    changed = true;
                }
                BitSet through = (BitSet) d.live[n].clone(); // live-out of p, less what p writes
                if (defs[p] >= 0) {
                    through.clear(defs[p]);
                }
                if (!contains(d.live[p], through)) {
                    d.live[p].or(through);
                    changed = true;
                }
                if (changed) {
                    work.add(p);
                }
            }
        }
        return d;
    }

    private static boolean contains(BitSet outer, BitSet inner) {
        BitSet missing = (BitSet) inner.clone();
        missing.andNot(outer);
        return missing.isEmpty();
    }

    /**
     * @param node a node id
     * @param root the root of a variable or access path ({@code got}, {@code $t3})
     * @return true when an event at or after the node mentions that root
     */
    boolean mentions(int node, String root) {
        Integer i = nameIndex.get(root);
        return i != null && names[node].get(i);
    }

    /**
     * @param node    a node id
     * @param matches whether a release site can release the lock in question
     * @param sites   every lock site of the project, by id (an unknown id counts as a match)
     * @return true when a release at or after the node may match
     */
    boolean mayRelease(int node, Predicate<LockSite> matches, Map<String, LockSite> sites) {
        BitSet b = releases[node];
        for (int i = b.nextSetBit(0); i >= 0; i = b.nextSetBit(i + 1)) {
            LockSite r = sites.get(releaseIds.get(i));
            if (r == null || matches.test(r)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param node a node id
     * @param root the root of a local variable ({@code locked})
     * @return true when the node, or a node after it, reads the variable before anything writes it again
     */
    boolean live(int node, String root) {
        Integer i = nameIndex.get(root);
        return i != null && live[node].get(i);
    }

    /** @return true when the method's exceptional exit is reachable from the node */
    boolean reachesThrow(int node) {
        return reachesThrow[node];
    }

    private BitSet mentioned(FlowEvent e) {
        BitSet b = new BitSet();
        mention(b, e.target());
        mention(b, e.path());
        for (String a : e.args()) {
            mention(b, a);
        }
        return b;
    }

    /**
     * The roots the event reads: its receiver or source path, its arguments, and the variable it tests or returns.
     */
    private BitSet used(FlowEvent e) {
        BitSet b = new BitSet();
        mention(b, e.path());
        for (String a : e.args()) {
            mention(b, a);
        }
        if (e.kind() == FlowEvent.Kind.BRANCH || e.kind() == FlowEvent.Kind.RETURN) {
            mention(b, e.target());
        } else if (e.target() != null && e.target().contains(".")) {
            mention(b, e.target()); // a write of a field of x reads x
        }
        return b;
    }

    /** @return the index of the local the event writes whole ({@code x = ..}, a call's result), or -1 */
    private int defined(FlowEvent e) {
        if (e.kind() == FlowEvent.Kind.BRANCH
                || e.kind() == FlowEvent.Kind.RETURN
                || e.target() == null
                || e.target().contains(".")
                || e.target().startsWith("$const:")) {
            return -1;
        }
        return nameIndex.computeIfAbsent(LockStateAnalysis.rootOf(e.target()), k -> nameIndex.size());
    }

    private void mention(BitSet b, String path) {
        if (path == null || path.startsWith("$const:")) {
            return;
        }
        if (path.startsWith(FlowLowering.FUNCTION)) {
            for (String name : captured.apply(path)) {
                b.set(nameIndex.computeIfAbsent(name, k -> nameIndex.size()));
            }
        }
        String p = path.startsWith("$nonnull:") ? path.substring("$nonnull:".length()) : path;
        p = p.startsWith("$next:") ? p.substring("$next:".length()) : p;
        b.set(nameIndex.computeIfAbsent(LockStateAnalysis.rootOf(p), k -> nameIndex.size()));
    }

    private BitSet released(FlowEvent e, Function<FlowEvent, MethodSummary> summaries, Map<String, LockSite> sites) {
        BitSet b = new BitSet();
        boolean ownSite = false;
        if (e.kind() == FlowEvent.Kind.LOCK || e.kind() == FlowEvent.Kind.CALL) {
            for (String id : e.sites()) {
                LockSite s = sites.get(id);
                if (s == null || s.function().operation() == LockOperation.RELEASE) {
                    b.set(release(id));
                    ownSite = true;
                }
            }
        }
        // a release helper's call has a site of its own, with the caller's key: the analysis matches that one
        if (e.kind() == FlowEvent.Kind.CALL && !ownSite) {
            MethodSummary summary = summaries.apply(e);
            if (summary != null) {
                for (MethodSummary.Case c : summary.cases()) {
                    for (PathState.Release r : c.releases()) {
                        b.set(release(r.release()));
                    }
                }
            }
        }
        return b;
    }

    private int release(String id) {
        return releaseIndex.computeIfAbsent(id, k -> {
            releaseIds.add(k);
            return releaseIds.size() - 1;
        });
    }
}
