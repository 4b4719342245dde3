package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The project-wide lock-state analysis: a forward dataflow over each method's control-flow graph
 * ({@link MethodFlow}) in a disjunctive domain of {@link PathState}s, with calls applied through
 * {@link MethodSummary summaries} computed bottom-up and iterated to a fixpoint (recursion converges
 * because counts are capped at 2 and summaries only grow up to a bounded number of cases).
 *
 * <p>PostgreSQL facts it encodes (RULES.md): session-level locks stack (F4) and survive a ROLLBACK (F1);
 * closing an unpooled connection ends the session and its locks, closing a pooled one does not (F13); a
 * statement that fails in a manual transaction aborts it and a later unlock then fails (F18);
 * transaction-level locks are not held in the state (they end with the transaction, F2); one taken on a connection in
 * autocommit is a finding where that connection's transaction is decided.
 *
 * <p>Methods whose state set grows past {@link #MAX_STATES} at a node are left out (no facts, no
 * summary): the rules are then silent on them, never guessing.
 */
public final class LockStateAnalysis {

    /** Largest number of path states kept at one node before a method is given up as too branchy. */
    public static final int MAX_STATES = 96;
    /**
     * Largest number of path states kept at an exit or at a node reached only through an exception edge
     * (a catch, the copy of a finally on the exceptional way out). States gather there one per throwing
     * call, not one per combination of branches: a method of 1,000 lock/unlock pairs whose work can throw
     * reaches its exception handler with a different hold from each pair, and is analysed whole.
     */
    public static final int MAX_EXIT_STATES = 4_096;

    private static final int MAX_ROUNDS = 4;

    private final List<MethodFlow> flows;
    final Map<String, LockSite> sites;
    final CallGraph graph;
    /** The callers whose transaction a copy of a method runs in, by the copy's key (CallingContexts). */
    final Map<String, CallingContexts.Caller> transactionCallers;
    /** Calls on {@code this} that skip an advice's lock ({@link AspectAdvice}). */
    private final List<AspectAdvice.Bypass> bypasses;
    /** How many graphs CallingContexts added. */
    private final int copies;
    /** Keys of the methods every run of which is in a transaction (CallingContexts). */
    private final Set<String> alwaysInTransaction;

    private final Map<String, MethodSummary> summaries = new HashMap<>();
    /** Keys of the methods some analysed call resolves to. */
    final Set<String> called = new HashSet<>();
    /** Of those, the methods some call of which is followed by more work in its caller ({@link #workFollows}). */
    final Set<String> carriedOn = new HashSet<>();

    /** Node visits between two calls of {@link #checkpoint}. */
    static final int CHECKPOINT_VISITS = 1_024;

    final Runnable checkpoint;
    /** The configuration that starts pooled connections inside a transaction, or null. */
    final AutoCommitSetting autoCommitOff;
    /** Acquisitions whose key changes with each iteration of their loop (see the constructor). */
    final Set<String> keyPerIteration;
    /** Methods given up in their latest run, by key: which budget they exceeded. */
    final Map<String, String> leftOut = new TreeMap<>();

    /**
     * The outcome.
     *
     * @param findings   what the paths prove, sorted by where they are reported
     * @param covered    ids of the acquisitions taken in a method the analysis followed to the end
     * @param handedOver ids of those still held at an exit by a connection the caller or the object owns
     *                   (a parameter, a field, a returned connection): their release is someone else's
     * @param leftOut    the methods given up, sorted by where they are declared
     * @param inCallersTransaction ids of the lock sites executed only by methods every run of which is in a
     *                   transaction, their own or their callers' ({@link CallingContexts}), and of the
     *                   transaction-level ones whose every path finds a transaction open on their connection
     *                   (a pool the configuration hands out with auto-commit off among them)
     */
    public record Result(
            List<PathFinding> findings,
            Set<String> covered,
            Set<String> handedOver,
            List<LeftOut> leftOut,
            Set<String> inCallersTransaction,
            Bounds bounds) {}

    /**
     * The size of one run, for {@code --timings}.
     *
     * @param methods  method graphs of the project, copies included
     * @param copies   of those, copies made for a calling context (a bound lambda, a caller's transaction)
     * @param analysed methods that can reach a lock event, run to the fixpoint
     * @param leftOut  of those, methods given up over a budget (each also a {@code method-budget} warning)
     * @param rounds   fixpoint rounds run (at most 4, then one last run of the methods still changing)
     */
    public record Bounds(int methods, int copies, int analysed, int leftOut, int rounds) {}

    /**
     * A method the analysis gave up on: the rules say nothing that needs its paths.
     *
     * @param method the method's key, {@code Type.name/arity}
     * @param region where it is declared
     * @param budget which bound it exceeded, in words ({@code more than 96 path states at one node})
     */
    public record LeftOut(String method, SourceRegion region, String budget) {}

    /**
     * @param flows every method graph of the project
     * @param sites every lock site of the project, by id
     */
    public LockStateAnalysis(List<MethodFlow> flows, Map<String, LockSite> sites) {
        this(flows, sites, () -> {});
    }

    /**
     * @param flows      every method graph of the project
     * @param sites      every lock site of the project, by id
     * @param checkpoint run before each method's run and every {@value #CHECKPOINT_VISITS} node
     *                   visits in it; it may throw to stop the run (the
     *                   caller's wall-clock safety limit), and the exception passes out of {@link #run()}
     */
    public LockStateAnalysis(List<MethodFlow> flows, Map<String, LockSite> sites, Runnable checkpoint) {
        this(flows, sites, checkpoint, null);
    }

    /**
     * @param flows         every method graph of the project
     * @param sites         every lock site of the project, by id
     * @param checkpoint    as in {@link #LockStateAnalysis(List, Map, Runnable)}
     * @param autoCommitOff the configuration that turns auto-commit off for the main pool, or null: a connection
     *                      borrowed from a pool then starts inside a transaction (its first statement opens
     *                      one), so a failed statement aborts it (F18)
     */
    public LockStateAnalysis(
            List<MethodFlow> flows, Map<String, LockSite> sites, Runnable checkpoint, AutoCommitSetting autoCommitOff) {
        this(flows, sites, checkpoint, autoCommitOff, Set.of());
    }

    /**
     * @param flows           every method graph of the project
     * @param sites           every lock site of the project, by id
     * @param checkpoint      as in {@link #LockStateAnalysis(List, Map, Runnable)}
     * @param autoCommitOff   as in {@link #LockStateAnalysis(List, Map, Runnable, AutoCommitSetting)}
     * @param keyPerIteration ids of the acquisitions in a loop whose key changes with each iteration: the paths
     *                        count holds of a site, not of a key, and do not know that a later loop of unlocks walks
     *                        the same elements, so for these a second hold ({@link PathFinding.Kind#STACKED}) or a
     *                        normal exit that skips a release the method has ({@link PathFinding.Kind#HELD_ON_RETURN})
     *                        is not claimed
     */
    public LockStateAnalysis(
            List<MethodFlow> flows,
            Map<String, LockSite> sites,
            Runnable checkpoint,
            AutoCommitSetting autoCommitOff,
            Set<String> keyPerIteration) {
        this.keyPerIteration = Set.copyOf(keyPerIteration);
        this.checkpoint = checkpoint;
        this.autoCommitOff = autoCommitOff;
        CallingContexts.Expanded expanded = CallingContexts.expand(flows);
        this.flows = expanded.flows();
        this.transactionCallers = expanded.transactionCallers();
        this.alwaysInTransaction = expanded.alwaysInTransaction();
        this.bypasses = expanded.bypasses();
        this.copies = this.flows.size() - flows.size();
        this.sites = sites;
        this.graph = new CallGraph(this.flows);
    }

    /**
     * @return whether a call, a statement or a lock event can run after {@code call} on a normal path of
     *     {@code f} (the caller goes on to work after the callee returns), found by a walk of the graph
     */
    private static boolean workFollows(MethodFlow f, FlowNode call) {
        return f.reaches(call.next(), false, n -> {
            FlowEvent.Kind kind = f.nodes().get(n).event().kind();
            return kind == FlowEvent.Kind.CALL || kind == FlowEvent.Kind.EXECUTE || kind == FlowEvent.Kind.LOCK;
        });
    }

    /** @return the findings of every method, sorted by where they are reported, and the covered acquisitions */
    public Result run() {
        List<MethodFlow> relevant = relevant();
        for (MethodFlow f : relevant) {
            for (FlowNode n : f.nodes()) {
                if (n.event().kind() == FlowEvent.Kind.CALL) {
                    List<MethodFlow> targets = graph.resolve(n.event());
                    targets.forEach(target -> called.add(target.key()));
                    if (!targets.isEmpty() && workFollows(f, n)) {
                        targets.forEach(target -> carriedOn.add(target.key()));
                    }
                }
            }
        }
        // identity sets: a graph's record hash walks every node
        Set<MethodFlow> dirty = Collections.newSetFromMap(new IdentityHashMap<>());
        dirty.addAll(relevant);
        // each method's latest run; once no callee's summary changes after it, its findings are final
        Map<MethodFlow, MethodRun> last = new IdentityHashMap<>();
        int rounds = 0;
        for (int round = 0; round < MAX_ROUNDS && !dirty.isEmpty(); round++) {
            rounds++;
            Set<String> changedNames = new TreeSet<>();
            for (MethodFlow f : relevant) {
                if (!dirty.contains(f)) {
                    continue;
                }
                MethodRun r = new MethodRun(this, f);
                boolean done = r.execute();
                if (done) {
                    leftOut.remove(f.key());
                } else {
                    leftOut.put(f.key(), r.gaveUp);
                }
                last.put(f, done ? r : null);
                MethodSummary s = done ? r.summary() : new MethodSummary(f.key(), List.of());
                if (!s.equals(summaries.get(f.signature()))) {
                    summaries.put(f.signature(), s);
                    changedNames.add(f.name() + "/" + f.params().size());
                }
            }
            dirty.clear();
            for (MethodFlow f : relevant) {
                if (calls(f, changedNames)) {
                    dirty.add(f); // a callee's summary changed: this method's may too
                }
            }
        }
        Map<String, PathFinding> out = new TreeMap<>();
        Set<String> covered = new TreeSet<>();
        Set<String> handedOver = new TreeSet<>();
        Set<String> xactInTransaction = new TreeSet<>();
        Set<String> xactOutside = new TreeSet<>();
        for (MethodFlow f : relevant) {
            MethodRun r = last.get(f);
            if (dirty.contains(f)) {
                r = new MethodRun(this, f); // the rounds ran out while its callees still changed: once more
                if (r.execute()) {
                    leftOut.remove(f.key());
                } else {
                    leftOut.put(f.key(), r.gaveUp);
                    r = null;
                }
            }
            if (r != null) {
                r.check(out);
                covered.addAll(r.acquiredHere.keySet());
                handedOver.addAll(r.handedOver);
                xactInTransaction.addAll(r.xactInTransaction);
                xactOutside.addAll(r.xactOutside);
            }
        }
        bypassed(out);
        List<PathFinding> findings = new ArrayList<>(out.values());
        findings.sort(Comparator.comparing(PathFinding::at)
                .thenComparing(p -> p.kind().name()));
        List<LeftOut> gaveUp = new ArrayList<>();
        for (MethodFlow f : relevant) {
            String why = leftOut.get(f.key());
            if (why != null && f.region() != null) {
                gaveUp.add(new LeftOut(f.key(), f.region(), why));
            }
        }
        gaveUp.sort(Comparator.comparing(LeftOut::region).thenComparing(LeftOut::method));
        Bounds bounds = new Bounds(flows.size(), copies, relevant.size(), gaveUp.size(), rounds);
        // transaction-level locks every path of which found a transaction open on their connection (the pool's
        // configured one among them), whatever the syntax shapes said of the site
        xactInTransaction.removeAll(xactOutside);
        Set<String> inTransaction = new TreeSet<>(inCallersTransaction());
        inTransaction.addAll(xactInTransaction);
        return new Result(findings, covered, handedOver, gaveUp, Collections.unmodifiableSet(inTransaction), bounds);
    }

    /**
     * Adds a {@link PathFinding.Kind#ADVICE_BYPASSED} finding for each call on {@code this} of an advised method
     * whose advice reaches an acquisition (its own, or a callee's up to {@value #ADVICE_DEPTH} calls deep).
     */
    private void bypassed(Map<String, PathFinding> out) {
        Map<MethodFlow, LockSite> acquisitionOf = new IdentityHashMap<>();
        for (AspectAdvice.Bypass b : bypasses) {
            MethodFlow locking = null;
            LockSite acquisition = null;
            for (MethodFlow a : b.advices()) {
                if (!acquisitionOf.containsKey(a)) { // (null too: an advice that takes no lock)
                    acquisitionOf.put(a, firstAcquisition(a, 0, Collections.newSetFromMap(new IdentityHashMap<>())));
                }
                acquisition = acquisitionOf.get(a);
                if (acquisition != null) {
                    locking = a;
                    break;
                }
            }
            if (acquisition == null || b.call().region() == null) {
                continue;
            }
            String method = b.advised().name() + "()";
            String advice = CallingContexts.display(locking);
            List<PathFinding.Step> steps = List.of(
                    new PathFinding.Step(
                            b.call().region(), "calls " + method + " on this: not through the Spring proxy"),
                    new PathFinding.Step(b.advised().region(), b.annotation() + " selects this method for " + advice),
                    new PathFinding.Step(acquisition.region(), "the lock the advice takes, skipped"));
            out.putIfAbsent(
                    PathFinding.Kind.ADVICE_BYPASSED + "|" + b.call().region(),
                    new PathFinding(
                            PathFinding.Kind.ADVICE_BYPASSED,
                            acquisition,
                            null,
                            b.call().region(),
                            "the call of " + method + " on this in " + CallingContexts.display(b.caller())
                                    + " does not go through the Spring proxy, so " + advice + ", which "
                                    + b.annotation() + " selects to take the advisory lock around "
                                    + CallingContexts.display(b.advised()) + ", does not run",
                            steps));
        }
    }

    /** Calls deep an advice's acquisition is looked for. */
    private static final int ADVICE_DEPTH = 4;

    /** @return the first acquisition site {@code f} executes, itself or through the methods it calls; or null */
    private LockSite firstAcquisition(MethodFlow f, int depth, Set<MethodFlow> seen) {
        if (depth > ADVICE_DEPTH || !seen.add(f)) {
            return null;
        }
        for (FlowNode n : f.nodes()) {
            for (String id : n.event().sites()) {
                LockSite site = sites.get(id);
                if (site != null && site.function().operation().isAcquisition()) {
                    return site;
                }
            }
        }
        for (FlowNode n : f.nodes()) {
            if (n.event().kind() == FlowEvent.Kind.CALL) {
                for (MethodFlow target : graph.resolve(n.event())) {
                    LockSite found = firstAcquisition(target, depth + 1, seen);
                    if (found != null) {
                        return found;
                    }
                }
            }
        }
        return null;
    }

    /** @return ids of the lock sites that only methods always run in a transaction execute */
    private Set<String> inCallersTransaction() {
        Set<String> inside = new TreeSet<>();
        Set<String> outside = new TreeSet<>();
        for (MethodFlow f : flows) {
            // a method's own transaction is the site's execution context's to decide (self-calls, propagation)
            boolean callers = !f.modifiers().contains("transactional") || transactionCallers.containsKey(f.key());
            Set<String> into = callers && alwaysInTransaction.contains(f.key()) ? inside : outside;
            for (FlowNode n : f.nodes()) {
                into.addAll(n.event().sites());
            }
        }
        inside.removeAll(outside);
        return Collections.unmodifiableSet(inside);
    }

    /**
     * The methods whose lock state can matter: those that execute a lock site or call a lock helper, those
     * that open, close or commit a connection, and, transitively, those that call a relevant method by name
     * and arity; and the methods those call that run statements, end a transaction or are accessors of a kept
     * connection. Every other method has an empty summary and is not run.
     */
    private List<MethodFlow> relevant() {
        Set<String> names = new TreeSet<>();
        List<MethodFlow> out = new ArrayList<>();
        Set<MethodFlow> chosen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (MethodFlow f : flows) {
            boolean own = f.nodes().stream()
                    .anyMatch(n -> n.event().kind() == FlowEvent.Kind.LOCK
                            || (n.event().kind() == FlowEvent.Kind.CALL
                                    && !n.event().sites().isEmpty())
                            || storesParameter(f, n.event()));
            if (own) {
                chosen.add(f);
                names.add(f.name() + "/" + f.params().size());
            }
        }
        boolean grew = true;
        for (int depth = 0; grew && depth < 8; depth++) {
            grew = false;
            for (MethodFlow f : flows) {
                if (!chosen.contains(f) && calls(f, names)) {
                    chosen.add(f);
                    names.add(f.name() + "/" + f.params().size());
                    grew = true;
                }
            }
        }
        // and the methods they call that run statements, themselves or through their own callees: a failed
        // statement there aborts the transaction the caller holds its lock in (MethodSummary#executes)
        Set<MethodFlow> executing = Collections.newSetFromMap(new IdentityHashMap<>());
        for (MethodFlow f : flows) {
            if (f.nodes().stream().anyMatch(n -> n.event().kind() == FlowEvent.Kind.EXECUTE)) {
                executing.add(f);
            }
        }
        grew = true;
        for (int depth = 0; grew && depth < 4; depth++) {
            grew = false;
            for (MethodFlow f : flows) {
                if (!executing.contains(f) && callsAny(f, executing)) {
                    executing.add(f);
                    grew = true;
                }
            }
        }
        grew = true;
        for (int depth = 0; grew && depth < 4; depth++) {
            grew = false;
            for (MethodFlow f : List.copyOf(chosen)) {
                for (FlowNode n : f.nodes()) {
                    if (n.event().kind() != FlowEvent.Kind.CALL) {
                        continue;
                    }
                    for (MethodFlow target : graph.resolve(n.event())) {
                        if ((executing.contains(target) || controlsConnection(target)) && chosen.add(target)) {
                            grew = true;
                        }
                    }
                }
            }
        }
        for (MethodFlow f : flows) {
            if (chosen.contains(f)) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * @return true for a method that ends or opens a transaction ({@code db.commit()}), the {@code close()} of an
     *     object that closes a connection it keeps ({@code db.close()}), or a method without
     *     parameters that opens a connection or returns a field of its object: the accessor of a connection the
     *     object keeps ({@code db.connection()}), whose summary names that field
     */
    private static boolean controlsConnection(MethodFlow f) {
        return f.nodes().stream()
                .anyMatch(n -> n.event().kind() == FlowEvent.Kind.END
                        || n.event().kind() == FlowEvent.Kind.BEGIN
                        || (f.name().equals("close")
                                && f.params().isEmpty()
                                && n.event().kind() == FlowEvent.Kind.CLOSE)
                        || (f.params().isEmpty()
                                && (n.event().kind() == FlowEvent.Kind.OPEN
                                        || (n.event().kind() == FlowEvent.Kind.RETURN
                                                && n.event().target() != null
                                                && n.event().target().startsWith("this.")))));
    }

    /** @return true when a call of {@code f} resolves to one of {@code targets} */
    private boolean callsAny(MethodFlow f, Set<MethodFlow> targets) {
        for (FlowNode n : f.nodes()) {
            if (n.event().kind() == FlowEvent.Kind.CALL
                    && graph.resolve(n.event()).stream().anyMatch(targets::contains)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return true for a field assignment from a parameter ({@code this.connection = connection} in a
     *     lock object's constructor): its summary tells callers which connection the object's locks use
     */
    private static boolean storesParameter(MethodFlow f, FlowEvent e) {
        if (e.kind() != FlowEvent.Kind.ASSIGN
                || e.target() == null
                || !e.target().startsWith("this.")
                || e.path() == null) {
            return false;
        }
        int dot = e.path().indexOf('.');
        return f.params().contains(dot < 0 ? e.path() : e.path().substring(0, dot));
    }

    /** @return true when {@code f} calls a method named {@code name/arity} among {@code names} */
    static boolean calls(MethodFlow f, Set<String> names) {
        if (names.isEmpty()) {
            return false;
        }
        for (FlowNode n : f.nodes()) {
            if ((n.event().kind() == FlowEvent.Kind.CALL || n.event().kind() == FlowEvent.Kind.EXECUTE)
                    && n.event().args() != null) {
                for (String a : n.event().args()) {
                    // a lambda it hands to a call that runs it (jdbc.execute(con -> ..)): its context is this method's
                    if (a != null && a.startsWith(FlowLowering.FUNCTION)) {
                        String fn = a.substring(FlowLowering.FUNCTION.length());
                        if (names.contains(fn.substring(fn.indexOf('.') + 1))) {
                            return true;
                        }
                    }
                }
            }
            if (n.event().kind() == FlowEvent.Kind.CALL) {
                for (String c : n.event().callee()) {
                    String simple = c.substring(c.indexOf('.') + 1);
                    if (names.contains(simple)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** @return the summaries after {@link #run()}, sorted by method signature, for golden tests and debugging */
    public List<MethodSummary> summaries() {
        return new TreeMap<>(summaries).values().stream().toList();
    }

    /**
     * @param call a {@link FlowEvent.Kind#CALL} event
     * @return the summary of the method a call runs (the union of its implementations' when the class
     *     hierarchy gives several, {@link CallGraph}), or null when none is known or the name is ambiguous
     */
    MethodSummary resolve(FlowEvent call) {
        List<MethodFlow> targets = graph.resolve(call);
        if (targets.size() == 1) {
            return summaries.get(targets.get(0).signature());
        }
        List<MethodSummary> known = new ArrayList<>();
        for (MethodFlow f : targets) {
            MethodSummary s = summaries.get(f.signature());
            known.add(s == null ? new MethodSummary(f.key(), List.of()) : s);
        }
        return known.isEmpty() ? null : MethodSummary.union(String.join("|", call.callee()), known);
    }

    /** @return an access path as the code writes it: {@code c}, {@code dataSource} for {@code this.dataSource} */
    static String written(String path) {
        return path.startsWith("this.") ? path.substring("this.".length()) : path;
    }

    /** @return the first segment of an access path: {@code conn} of {@code conn.stmt}, {@code this} of a field */
    static String rootOf(String path) {
        int dot = path.indexOf('.');
        return dot < 0 ? path : path.substring(0, dot);
    }

    /**
     * @param poolOff the connections a method borrowed from pools that hand them out with auto-commit off, by identity
     * @param s       a path state
     * @param c       a connection identity
     * @return whether {@code c} is such a connection: it is in the pool's transaction
     */
    static boolean inPoolTransaction(Map<String, AutoCommitSetting> poolOff, PathState s, String c) {
        return poolOff.containsKey(c) && ConnectionKind.POOLED.equals(s.kinds().get(c));
    }
}
