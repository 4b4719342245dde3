package io.github.pgadvisorylint.core.flow;

import static io.github.pgadvisorylint.core.flow.LockStateAnalysis.CHECKPOINT_VISITS;
import static io.github.pgadvisorylint.core.flow.LockStateAnalysis.MAX_EXIT_STATES;
import static io.github.pgadvisorylint.core.flow.LockStateAnalysis.MAX_STATES;
import static io.github.pgadvisorylint.core.flow.LockStateAnalysis.rootOf;
import static io.github.pgadvisorylint.core.flow.LockStateAnalysis.written;

import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.flow.PathState.Hold;
import io.github.pgadvisorylint.core.flow.PathState.Release;
import io.github.pgadvisorylint.core.flow.PathState.Transaction;
import io.github.pgadvisorylint.core.flow.PathState.Work;
import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.TransactionState;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of the intraprocedural lock-state dataflow over one method graph: the work list and the transfer
 * functions of each event ({@code LOCK}, {@code CALL} with the callee's {@link MethodSummary}, {@code END}, ...)
 * over sets of {@link PathState}s. {@link LockStateAnalysis} runs it per method and round; the states at the exits
 * go to {@link SummaryBuilder} (the method's effect for its callers) and to {@link ExitJudgement} (its findings).
 * Not thread-safe: one run belongs to one task.
 */
final class MethodRun {
    /** The interprocedural analysis this run belongs to: summaries of callees, sites, configuration. */
    private final LockStateAnalysis analysis;

    private final Map<String, LockSite> sites;
    private final Set<String> called;
    private final Set<String> carriedOn;
    private final Map<String, CallingContexts.Caller> transactionCallers;
    private final AutoCommitSetting autoCommitOff;
    private final Set<String> keyPerIteration;

    /**
     * Acquisitions whose hold only an exception out of a callee carries into this method (the callee locks, can
     * throw before its unlock, and never returns holding the lock), with the callee's name: ExitJudgement reports
     * them where the callee takes the lock.
     */
    private final Map<String, String> leakedByCallee = new TreeMap<>();

    /**
     * Transaction-level locks taken here on a connection this method opened, in its own manual transaction
     * ({@code setAutoCommit(false)}): by node, the connection identity and the site; {@link #xactEndsBeforeWork}
     * reads them.
     */
    private final Map<Integer, Map<String, LockSite>> xactInManual = new TreeMap<>();

    /**
     * The JDBC APIs whose statements run when the code reaches them: in a reactive chain the work between a lock and
     * a commit can be a publisher the chain subscribes to ({@code .then(work)}), which is no node of the graph.
     */
    private static final Set<ExecutionApi> BLOCKING_JDBC = EnumSet.of(
            ExecutionApi.JDBC_STATEMENT, ExecutionApi.JDBC_PREPARED_STATEMENT, ExecutionApi.JDBC_CALLABLE_STATEMENT);

    /** Whether some path of this method releases a lock: then its own design, not a callee's, decides a leak. */
    private boolean releasesHere;

    private final Runnable checkpoint;
    private final CallGraph graph;

    /** Which receivers only log (core.api). */
    private static final ApiCatalog API = ApiCatalog.standard();
    /** Number of path states at a node from which paths with the same holds are joined. */
    private static final int JOIN_AT = 16;
    /** Most node visits of one run: a method that needs more is left out (a {@code method-budget} warning). */
    private static final int MAX_VISITS = 40_000;
    /** The transaction a framework opens around a method and commits after it, as worked on by the object's connections. */
    private static final String FRAMEWORK_TRANSACTION = "$framework";

    /** An exit state's mark: it returns {@code null} ({@link FlowLowering#NULL}). */
    static final String RETURNS_NULL = "$returnNull";

    /** Prefix of a name that holds {@link FlowLowering#NULL} on this path ({@code $isnull:x}). */
    private static final String IS_NULL = "$isnull:";

    /** An exit state's mark: it returns an object, not a constant. */
    static final String RETURNS_OBJECT = "$returnObject";
    /** The start of a site context's {@code @Transactional} evidence: {@code @Transactional(NESTED) on method run()}. */
    private static final Pattern TRANSACTIONAL_EVIDENCE =
            Pattern.compile("@(Transactional|TransactionAttribute|Stateless|Stateful|Singleton|MessageDriven)"
                    + "(\\([A-Z_]+\\))? on (method \\w+\\(\\)|class \\w+)");

    final MethodFlow flow;
    final List<Set<PathState>> in = new ArrayList<>();
    /** Acquisition id to the node that took it in this method. */
    final Map<String, Integer> acquiredHere = new TreeMap<>();
    /** Acquisition id to the nodes that released it in this method. */
    final Map<String, Set<Integer>> releasedAt = new TreeMap<>();

    final Map<String, PathFinding> releaseFindings = new TreeMap<>();
    /** Transaction-level locks in autocommit, by kind, acquisition and region. */
    final Map<String, PathFinding> xactFindings = new TreeMap<>();
    /** Per work node id: the try-locks held, and failed, by the states that reached it. */
    final Map<Integer, Set<String>> heldAtWork = new TreeMap<>();

    final Map<Integer, Set<String>> failedAtWork = new TreeMap<>();
    /**
     * Per work node id: the try-locks whose tested success, and tested failure, reached it with no work before it
     * on the way ({@link PathState.Attempt}).
     */
    final Map<Integer, Set<String>> firstWorkHeld = new TreeMap<>();

    final Map<Integer, Set<String>> firstWorkFailed = new TreeMap<>();
    final List<PathFinding> workFindings = new ArrayList<>();
    final Set<String> handedOver = new TreeSet<>();
    /** Transaction-level sites run here on a connection with a transaction open, and without one. */
    final Set<String> xactInTransaction = new TreeSet<>();

    final Set<String> xactOutside = new TreeSet<>();
    /** What later nodes can still observe: facts nobody reads again are dropped from the states. */
    final Downstream downstream;
    /** Failed try-locks dropped from states on a way to the exceptional exit: still in the summary. */
    final Set<String> failedBeforeThrow = new TreeSet<>();
    /** The caller's connections (relative paths) this method runs a statement on: {@link MethodSummary#executes()}. */
    final Set<String> executes = new TreeSet<>();

    /** The caller's connections (relative paths) whose transaction this method, or a callee, ends. */
    final Set<String> ends = new TreeSet<>();

    /** The caller's connections (relative paths) reached through the accessor of a connection an object keeps. */
    final Set<MethodSummary.Kept> kept = new TreeSet<>();
    /** {@code path|acquisitionId}: transaction-level locks on the caller's connections (MethodSummary). */
    final Set<Hold> xactLocks = new TreeSet<>();
    /** Why {@link #execute} gave up, or null. */
    String gaveUp;
    /**
     * The connections this method borrowed from a pool that hands them out with auto-commit off, by identity
     * ({@code @7}), with the setting that says so: the code's own pool's, or the project's main pool's.
     */
    final Map<String, AutoCommitSetting> poolOff = new TreeMap<>();
    /** Per exit node and node reached only through an exception edge, its states by projection. */
    final Map<Integer, Map<List<Object>, PathState>> exitIndex = new HashMap<>();

    /**
     * @param analysis the interprocedural analysis (its callee summaries as they stand now)
     * @param flow     the method to run
     */
    MethodRun(LockStateAnalysis analysis, MethodFlow flow) {
        this.analysis = analysis;
        this.sites = analysis.sites;
        this.called = analysis.called;
        this.carriedOn = analysis.carriedOn;
        this.transactionCallers = analysis.transactionCallers;
        this.autoCommitOff = analysis.autoCommitOff;
        this.keyPerIteration = analysis.keyPerIteration;
        this.checkpoint = analysis.checkpoint;
        this.graph = analysis.graph;
        this.flow = flow;
        for (int i = 0; i < flow.nodes().size(); i++) {
            in.add(new LinkedHashSet<>());
            pending.add(new ArrayList<>());
        }
        this.downstream = Downstream.of(flow, analysis::resolve, sites, graph::capturedNames);
        this.normal = normallyReachable(flow);
        this.queued = new boolean[flow.nodes().size()];
        this.correlated = correlatedConditions();
    }

    /**
     * Conditions tested at two or more nodes of this method, none of them in a loop ({@code if (props.isLockEnabled())
     * lock..} and, in the finally, {@code if (props.isLockEnabled()) unlock..}): a path learns the answer at the first
     * test and keeps it until something assigns the condition's root, so the lock and its unlock agree. Keys are
     * {@link #conditionKey}'s.
     */
    final Set<String> correlated;

    /**
     * @return the key a branch's condition is remembered by in {@link PathState#bools()}: {@code $cond:} and the
     *     property test or the tested variable's path; null for a temporary
     */
    static String conditionKey(FlowEvent e) {
        if (e.kind() != FlowEvent.Kind.BRANCH) {
            return null;
        }
        if (e.path() != null) {
            return COND + e.path();
        }
        return e.target() == null || e.target().startsWith("$") ? null : COND + e.target();
    }

    /** The prefix of a remembered condition's key. */
    static final String COND = "$cond:";

    private Set<String> correlatedConditions() {
        Map<String, Integer> tests = new HashMap<>();
        for (FlowNode n : flow.nodes()) {
            String k = conditionKey(n.event());
            if (k != null) {
                tests.merge(k, 1, Integer::sum);
            }
        }
        if (tests.values().stream().allMatch(count -> count < 2)) {
            return Set.of();
        }
        Set<String> out = new HashSet<>();
        Set<String> looped = new HashSet<>();
        for (FlowNode n : flow.nodes()) {
            String k = conditionKey(n.event());
            if (k != null && tests.get(k) >= 2 && !looped.contains(k)) {
                if (inLoop(n.id())) {
                    looped.add(k);
                    out.remove(k);
                } else {
                    out.add(k);
                }
            }
        }
        return out;
    }

    /** Suffix of the key that says a lock query's one row was read ({@code rs.next()} returned true once). */
    private static final String ROW_READ = ".$rowRead";

    /** The nodes {@link #inLoop} has been asked about, and of those the ones on a cycle. */
    private final BitSet loopAsked = new BitSet();

    private final BitSet loopYes = new BitSet();

    /**
     * @return true when node {@code id} can reach itself: a loop's test, whose answer may change each round (a
     *     {@code while (rs.next())} over a lock query's one row is true once, then false); remembered per node
     */
    /**
     * @return whether the release at {@code release} runs in a loop of its own that never leads back to where
     *     {@code acquisition} was tried: it iterates what earlier rounds took ({@code for (k : taken) unlock(k)}),
     *     not the attempt that just failed
     */
    private boolean releasesInOwnLoop(int release, String acquisition) {
        if (!inLoop(release)) {
            return false;
        }
        Integer at = acquiredHere.get(acquisition);
        // asked for every state reaching a release in a loop: one walk per release and acquisition
        return at == null
                || ownLoop.computeIfAbsent(
                        release + "|" + at, k -> !flow.reaches(List.of(release), true, n -> n == at));
    }

    /** {@link #releasesInOwnLoop}'s answers, by release node and acquisition node. */
    private final Map<String, Boolean> ownLoop = new HashMap<>();

    private boolean inLoop(int id) {
        if (!loopAsked.get(id)) {
            loopAsked.set(id);
            BitSet seen = new BitSet();
            Deque<Integer> work = new ArrayDeque<>();
            FlowNode start = flow.nodes().get(id);
            work.addAll(start.next());
            work.addAll(start.onException());
            while (!work.isEmpty()) {
                int n = work.poll();
                if (n == id) {
                    loopYes.set(id);
                    break;
                }
                if (!seen.get(n)) {
                    seen.set(n);
                    work.addAll(flow.nodes().get(n).next());
                    work.addAll(flow.nodes().get(n).onException());
                }
            }
        }
        return loopYes.get(id);
    }

    /** Per node, the states that arrived since it was last processed: only they are transferred. */
    final List<List<PathState>> pending = new ArrayList<>();
    /** Per node, whether it is reached from the entry without an exception edge. */
    final boolean[] normal;
    /** Per node, whether it is on the work list now. */
    final boolean[] queued;

    private void enqueue(Deque<Integer> work, int node) {
        if (!queued[node]) {
            queued[node] = true;
            work.add(node);
        }
    }

    /**
     * Nodes reached only through an exception edge (a catch or the copy of a finally on the
     * exceptional way out) gather one state per throwing call before them: their states grow with the
     * number of calls, not with the branches, so they are bounded like the exits.
     */
    private static boolean[] normallyReachable(MethodFlow flow) {
        boolean[] seen = new boolean[flow.nodes().size()];
        Deque<Integer> todo = new ArrayDeque<>();
        seen[MethodFlow.ENTRY] = true;
        todo.add(MethodFlow.ENTRY);
        while (!todo.isEmpty()) {
            for (int next : flow.nodes().get(todo.poll()).next()) {
                if (!seen[next]) {
                    seen[next] = true;
                    todo.add(next);
                }
            }
        }
        return seen;
    }

    boolean execute() {
        checkpoint.run();
        Deque<Integer> work = new ArrayDeque<>();
        PathState entry = PathState.ENTRY;
        if (flow.modifiers().contains(CallingContexts.HANDLE_PARAMETER)
                && !flow.params().isEmpty()) {
            PathState.Mutable m = entry.edit();
            m.tx.put(flow.params().get(0), Transaction.MANUAL); // the framework's transaction, on the handle it passes
            entry = m.done();
        }
        in.get(MethodFlow.ENTRY).add(entry);
        pending.get(MethodFlow.ENTRY).add(entry);
        enqueue(work, MethodFlow.ENTRY);
        int visits = 0;
        while (!work.isEmpty()) {
            if (++visits % CHECKPOINT_VISITS == 0) {
                checkpoint.run();
            }
            if (visits > MAX_VISITS) {
                gaveUp = "more than " + MAX_VISITS + " node visits";
                return false;
            }
            int n = work.poll();
            queued[n] = false;
            FlowNode node = flow.nodes().get(n);
            // a transfer depends on the node and the state alone: states processed before gave their
            // results already, so only the new ones are transferred (linear in the states, not quadratic)
            List<PathState> fresh = List.copyOf(pending.get(n));
            pending.get(n).clear();
            for (PathState s : fresh) {
                if (!in.get(n).contains(s)) {
                    continue; // joined into another state since it arrived; that one is pending too
                }
                boolean doesWork = isWork(node) && !accessorCall(node);
                if (doesWork) {
                    outcomesAtWork(node, s);
                }
                boolean firstWork = !s.attempts().isEmpty() && endsAttempts(node);
                if (firstWork) {
                    attemptsAtWork(node, s);
                }
                Out o = new Out(node.next().size());
                transfer(node, s, o);
                if (!s.attempts().isEmpty()) {
                    attemptsAfter(node, s, o, firstWork);
                }
                if (doesWork) {
                    o.normal.replaceAll(
                            l -> l.stream().map(t -> worked(t, node)).toList());
                }
                for (int i = 0; i < node.next().size(); i++) {
                    for (PathState t : o.normal.get(i)) {
                        if (!propagate(node.next().get(i), t, work)) {
                            return false;
                        }
                    }
                }
                // cleanup code in a finally is taken to run; only an unlock that cannot (F18) throws here
                boolean quiet = node.inFinally() && o.normal.stream().anyMatch(l -> !l.isEmpty());
                for (Integer e : quiet ? List.<Integer>of() : node.onException()) {
                    for (PathState t : o.thrown) {
                        if (!t.worked().isEmpty()) {
                            PathState.Mutable m = t.edit();
                            m.worked.clear(); // an exception path's transaction rolls back: no write is left
                            // pending
                            t = m.done();
                        }
                        if (t.attempts().stream().anyMatch(a -> !a.held())) {
                            // what a handler runs after the try-lock failed is error handling, not the guarded work
                            PathState.Mutable m = t.edit();
                            m.attempts.removeIf(a -> !a.held());
                            t = m.done();
                        }
                        if (!propagate(e, t, work)) {
                            return false;
                        }
                    }
                }
            }
        }
        return true;
    }

    /**
     * Drops what no node from {@code target} on can observe: the fixed boolean of a local name no later
     * event mentions, and a failed try-lock no later release can match. Independent lock/unlock pairs
     * then leave equal states behind, which the node's set keeps once.
     */
    private PathState prune(PathState s, int target) {
        PathState.Mutable m = null;
        for (String k : s.bools().keySet()) {
            String r = rootOf(
                    k.startsWith(COND)
                            ? k.substring(COND.length())
                            : k.startsWith(IS_NULL) ? k.substring(IS_NULL.length()) : k);
            if (!k.startsWith("$return")
                    && !k.startsWith(FlowLowering.CANCELLED)
                    && !r.equals("this")
                    && !flow.params().contains(r)
                    && !downstream.mentions(target, r)) {
                m = m == null ? s.edit() : m;
                m.bools.remove(k);
            }
        }
        for (Hold k : s.owners().keySet()) {
            if (!s.held().containsKey(k)) {
                m = m == null ? s.edit() : m;
                m.owners.remove(k); // the hold is gone: who it was taken through no longer matters
            }
        }
        Set<String> referenced = null;
        for (String k : s.alias().keySet()) {
            String r = rootOf(k);
            if (!r.equals("this")
                    && !flow.params().contains(r)
                    && !s.escaped().contains(r)
                    && !downstream.mentions(target, r)) {
                referenced = referenced == null ? referencedRoots(s) : referenced;
                if (!referenced.contains(r)) {
                    m = m == null ? s.edit() : m;
                    m.alias.remove(k); // a local nobody reads again and nothing refers to: it no longer matters
                }
            }
        }
        for (String f : s.failed()) {
            LockSite acquisition = sites.get(f);
            if (acquisition != null && !downstream.mayRelease(target, r -> sameLock(acquisition, r), sites)) {
                m = m == null ? s.edit() : m;
                m.failed.remove(f);
                if (downstream.reachesThrow(target)) {
                    failedBeforeThrow.add(f);
                }
            }
        }
        return m == null ? s : m.done();
    }

    /**
     * The roots of the names a state's facts refer to: alias targets (a field of a lock object can name
     * a local), the connections of holds, kinds, closes and transactions, owners and the returned
     * connection. An alias whose name is among them is still read through them.
     */
    private static Set<String> referencedRoots(PathState s) {
        Set<String> out = new HashSet<>();
        s.alias().values().forEach(v -> out.add(rootOf(v)));
        s.held().keySet().forEach(k -> out.add(rootOf(k.connection())));
        s.kinds().keySet().forEach(k -> out.add(rootOf(k)));
        s.closed().keySet().forEach(k -> out.add(rootOf(k)));
        s.tx().keySet().forEach(k -> out.add(rootOf(k)));
        s.owners().forEach((k, v) -> {
            out.add(rootOf(k.connection()));
            out.add(rootOf(v));
        });
        if (s.returned() != null) {
            out.add(rootOf(s.returned()));
        }
        return out;
    }

    private boolean propagate(int target, PathState unpruned, Deque<Integer> work) {
        PathState s = prune(unpruned, target);
        Set<PathState> set = in.get(target);
        if (set.contains(s)) {
            return true;
        }
        if (target == MethodFlow.EXIT || target == MethodFlow.EXCEPTIONAL_EXIT) {
            return arrive(target, s, set, null);
        }
        if (!normal[target]) {
            return arrive(target, s, set, work);
        }
        if (set.size() >= JOIN_AT) {
            List<Object> key = s.projection();
            for (PathState g : set) {
                if (g.projection().equals(key)) {
                    PathState m = g.meet(s);
                    if (m.equals(g)) {
                        return true;
                    }
                    set.remove(g);
                    set.add(m);
                    pending.get(target).add(m);
                    enqueue(work, target);
                    return true;
                }
            }
        }
        set.add(s);
        pending.get(target).add(s);
        if (set.size() > MAX_STATES) {
            gaveUp = "more than " + MAX_STATES + " path states at one node";
            return false;
        }
        enqueue(work, target);
        return true;
    }

    /**
     * Adds a state to an exit or to a node reached only through an exception edge: from {@link #JOIN_AT}
     * states on, joined with the state of the same {@link PathState#projection()} when there is one
     * (found through an index, not a walk of the set), bounded by {@link LockStateAnalysis#MAX_EXIT_STATES}, and queued on {@code work} unless that is null
     * (an exit has no successor).
     */
    private boolean arrive(int target, PathState s, Set<PathState> set, Deque<Integer> work) {
        Map<List<Object>, PathState> index = exitIndex.computeIfAbsent(target, k -> new HashMap<>());
        List<Object> key = s.projection();
        // as on the normal flow, paths are joined only from JOIN_AT states on: below, each keeps what
        // it knows about names
        PathState g = set.size() >= JOIN_AT ? index.get(key) : null;
        PathState added;
        if (g != null) {
            PathState m = g.meet(s);
            if (m.equals(g) || set.contains(m)) {
                return true;
            }
            set.remove(g);
            set.add(m);
            index.put(key, m);
            added = m;
        } else {
            set.add(s);
            index.putIfAbsent(key, s);
            added = s;
            if (set.size() > MAX_EXIT_STATES) {
                gaveUp = "more than " + MAX_EXIT_STATES + " path states at one node"
                        + (target == MethodFlow.EXIT || target == MethodFlow.EXCEPTIONAL_EXIT
                                ? " (the method's exit)"
                                : " after an exception");
                return false;
            }
        }
        if (work != null) {
            pending.get(target).add(added);
            enqueue(work, target);
        }
        return true;
    }

    private static PathFinding workWithoutHold(LockSite site, FlowNode node) {
        return new PathFinding(
                PathFinding.Kind.WORK_WITHOUT_HOLD,
                site,
                null,
                site.region(),
                "the work here runs both when " + site.display() + " returned true and when it returned"
                        + " false: the result is tested, but on the false path the code goes on into the"
                        + " same work without the lock",
                List.of(new PathFinding.Step(node.region(), "this work also runs when the try-lock failed")));
    }

    /**
     * @return true for a call of the accessor of a connection an object keeps ({@code db.connection()}): every exit
     *     returns the field, and it runs no statement; handing the session out does no work under the lock.
     *     Remembered per node: the callees' summaries do not change during one run
     */
    private boolean accessorCall(FlowNode node) {
        if (node.event().kind() != FlowEvent.Kind.CALL) {
            return false;
        }
        if (!accessorAsked.get(node.id())) {
            accessorAsked.set(node.id());
            MethodSummary summary = analysis.resolve(node.event());
            if (summary != null
                    && !summary.cases().isEmpty()
                    && summary.executes().isEmpty()
                    && summary.cases().stream().allMatch(c -> c.returnsField() != null)) {
                accessorYes.set(node.id());
            }
        }
        return accessorYes.get(node.id());
    }

    /** The call nodes {@link #accessorCall} has been asked about, and of those the accessor calls. */
    private final BitSet accessorAsked = new BitSet();

    private final BitSet accessorYes = new BitSet();

    /**
     * Work: a statement, or a call of a method, that can fail (a call with no callee is a chain's possible error
     * signal, not work).
     */
    private static boolean isWork(FlowNode node) {
        FlowEvent e = node.event();
        return (e.kind() == FlowEvent.Kind.EXECUTE
                        || (e.kind() == FlowEvent.Kind.CALL && !e.callee().isEmpty()))
                && !node.onException().isEmpty();
    }

    /**
     * The attempts of the states a node's transfer made: gone after a first work ({@link #endsAttempts}) or once a
     * tested result is turned into another value ({@code State st = got ? HELD : BUSY}: that value decides later,
     * and the states do not follow it); tested, on its variable, at a branch on a boolean the path fixed.
     */
    private static void attemptsAfter(FlowNode node, PathState s, Out o, boolean firstWork) {
        if (firstWork) {
            o.normal.replaceAll(l -> l.stream().map(MethodRun::withoutAttempts).toList());
            o.thrown.replaceAll(MethodRun::withoutAttempts);
        } else if (valueChoice(node, s)) {
            o.normal.replaceAll(l -> l.stream().map(MethodRun::withoutAttempts).toList());
        } else if (node.event().kind() == FlowEvent.Kind.BRANCH
                && node.event().target() != null
                && s.bools().containsKey(node.event().target())) {
            String on = node.event().target();
            o.normal.replaceAll(l -> l.stream().map(t -> tested(t, on)).toList());
        }
    }

    /**
     * Whether the node is work that ends the window of {@link PathState#attempts()}: {@link #isWork work} other than
     * logging, a sleep (a polling loop's pause) or cleanup in a {@code finally}; and a commit or rollback, which ends
     * a transaction-level try-lock's hold.
     */
    private static boolean endsAttempts(FlowNode node) {
        FlowEvent e = node.event();
        if (e.kind() == FlowEvent.Kind.END) {
            return true;
        }
        return isWork(node)
                && !node.inFinally()
                && !logging(e)
                && e.callee().stream().noneMatch(c -> c.endsWith(".sleep/1") || c.endsWith(".sleep/2"));
    }

    /**
     * Notes the tested try-lock outcomes that reach a first work node ({@link #endsAttempts}), for
     * {@link #workWithoutHold}.
     */
    private void attemptsAtWork(FlowNode node, PathState s) {
        if (node.event().kind() == FlowEvent.Kind.END) {
            return; // a commit or rollback is not the protected work
        }
        for (PathState.Attempt a : s.attempts()) {
            // a later attempt failed, an earlier one still holds the session lock: held
            boolean stillHeld = !a.held() && s.holds(a.acquisition());
            if (a.tested() && !stillHeld && !decidesLater(node, s)) {
                (a.held() ? firstWorkHeld : firstWorkFailed)
                        .computeIfAbsent(node.id(), x -> new TreeSet<>())
                        .add(a.acquisition());
            }
        }
    }

    /**
     * Whether a boolean the path fixed (the result, or a copy) is still read here or later, before anything writes it
     * again: the code decides with it further on ({@code heartbeat.record(leader); if (leader) ...}), so the node need
     * not be the guarded work.
     */
    private boolean decidesLater(FlowNode node, PathState s) {
        for (String k : s.bools().keySet()) {
            if (!k.startsWith("$return") && downstream.live(node.id(), rootOf(k))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A conditional expression's value ({@code c ? a : b}, lowered to an assignment of a temporary on each branch)
     * that is not a boolean the path fixed.
     */
    private static boolean valueChoice(FlowNode node, PathState s) {
        FlowEvent e = node.event();
        return e.kind() == FlowEvent.Kind.ASSIGN
                && e.target() != null
                && e.target().startsWith("$")
                && s.attempts().stream().anyMatch(PathState.Attempt::tested)
                && (e.path() == null
                        || !(e.path().equals("$const:true")
                                || e.path().equals("$const:false")
                                || s.bools().containsKey(e.path())));
    }

    private static PathState withoutAttempts(PathState s) {
        if (s.attempts().isEmpty()) {
            return s;
        }
        PathState.Mutable m = s.edit();
        m.attempts.clear();
        return m.done();
    }

    /** @return the state with its attempts tested, last, on the branch variable {@code on} */
    private static PathState tested(PathState s, String on) {
        if (s.attempts().stream().allMatch(a -> on.equals(a.testedOn()))) {
            return s;
        }
        PathState.Mutable m = s.edit();
        m.attempts.clear();
        for (PathState.Attempt a : s.attempts()) {
            m.attempts.add(new PathState.Attempt(a.acquisition(), a.held(), on));
        }
        return m.done();
    }

    /** A new attempt of the try-lock on the state: it replaces the path's earlier attempt of the same site. */
    private static void attempt(PathState.Mutable m, String id, boolean held) {
        m.attempts.removeIf(a -> a.acquisition().equals(id));
        m.attempts.add(new PathState.Attempt(id, held, null));
    }

    /**
     * Notes, at a node doing work, which try-locks arriving states hold and which they failed: work
     * reached both holding a try-lock and after it returned false runs with and without the lock.
     */
    private void outcomesAtWork(FlowNode node, PathState s) {
        Set<String> held = new TreeSet<>();
        for (Hold k : s.held().keySet()) {
            held.add(k.acquisition());
        }
        if (!held.isEmpty()) {
            heldAtWork.computeIfAbsent(node.id(), x -> new TreeSet<>()).addAll(held);
        }
        for (String f : s.failed()) {
            // a later attempt failed, an earlier one still holds: held; a try-lock whose query threw reaches only
            // error handling (a catch), which the work's own failure reaches too: not work done without the lock
            // (nor is what a catch runs when code after the refused try-lock threw: error handling)
            if (!held.contains(f) && !s.threw().contains(f) && !node.inCatch()) {
                failedAtWork.computeIfAbsent(node.id(), x -> new TreeSet<>()).add(f);
            }
        }
    }

    /**
     * Work both under a try-lock and after the same try-lock returned false: the result was tested (a
     * wait for a deadline, a log line) but the work runs either way. One finding per try-lock, at its
     * first such node.
     */
    private void workWithoutHold() {
        Set<String> reported = new TreeSet<>();
        workWithoutHold(failedAtWork, heldAtWork, reported, true);
        // the first work after a tested attempt, reached both after it succeeded and after it failed: for try-locks
        // no release follows (a transaction-level one, a leaked session one), whose failures the states do not keep
        workWithoutHold(firstWorkFailed, firstWorkHeld, reported, false);
    }

    /**
     * @param failedAt per work node id, the try-locks a failed state reached it with
     * @param heldAt   per work node id, the try-locks a holding state reached it with
     * @param reported the try-locks reported already (one finding each), added to
     * @param guardedLater true to skip a node after which the code still does work only while holding the try-lock:
     *     the result decides further on ({@code metrics.ran(job); if (got) { work(); }}), so the node is not the work
     *     it guards
     */
    private void workWithoutHold(
            Map<Integer, Set<String>> failedAt,
            Map<Integer, Set<String>> heldAt,
            Set<String> reported,
            boolean guardedLater) {
        for (Map.Entry<Integer, Set<String>> e : failedAt.entrySet()) {
            Set<String> held = heldAt.getOrDefault(e.getKey(), Set.of());
            FlowNode node = flow.nodes().get(e.getKey());
            for (String f : e.getValue()) {
                LockSite site = sites.get(f);
                if (site == null
                        || !held.contains(f)
                        || site.function().operation() != LockOperation.TRY_ACQUIRE
                        || Integer.valueOf(node.id()).equals(acquiredHere.get(f))
                        || node.inFinally() // cleanup runs on every path by design
                        || node.inCatch() // so does error handling, whatever threw
                        || releasedAt.getOrDefault(f, Set.of()).contains(node.id())
                        || logging(node.event())
                        || returnsResult(f)
                        || node.region() == null
                        || (guardedLater && heldOnlyWorkAfter(node, f, failedAt, heldAt))
                        || !reported.add(f)) {
                    continue;
                }
                workFindings.add(workWithoutHold(site, node));
            }
        }
    }

    /**
     * @return whether work reached only while holding try-lock {@code f} (not after it failed; not cleanup in a
     *     {@code finally}, not its release, not logging) follows {@code from} in the graph
     */
    private boolean heldOnlyWorkAfter(
            FlowNode from, String f, Map<Integer, Set<String>> failedAt, Map<Integer, Set<String>> heldAt) {
        Set<Integer> seen = new HashSet<>();
        Deque<Integer> queue = new ArrayDeque<>(from.next());
        while (!queue.isEmpty()) {
            int id = queue.poll();
            if (!seen.add(id)) {
                continue;
            }
            FlowNode n = flow.nodes().get(id);
            if (heldAt.getOrDefault(id, Set.of()).contains(f)
                    && !failedAt.getOrDefault(id, Set.of()).contains(f)
                    && !n.inFinally()
                    && !releasedAt.getOrDefault(f, Set.of()).contains(id)
                    && !logging(n.event())) {
                return true;
            }
            queue.addAll(n.next());
        }
        return false;
    }

    /**
     * A call of a logger ({@code log.warn(..)}, {@code LOGGER.info(..)}): a record that the try-lock
     * failed is not work done without it.
     */
    private static boolean logging(FlowEvent e) {
        return e.kind() == FlowEvent.Kind.CALL && e.path() != null && API.isLoggerReceiver(e.path());
    }

    /**
     * Whether the method returns the try-lock's boolean (or a copy of it): a lock helper whose caller
     * decides what runs without the lock, so what it does between the attempt and its return is not
     * the protected work.
     */
    private boolean returnsResult(String acquisition) {
        // asked once per node that does work with and without the hold: the answer is the method's
        return returnsResult.computeIfAbsent(acquisition, this::returnsResultOnce);
    }

    /** Per try-lock site id: whether the method returns its result ({@link #returnsResult}). */
    private final Map<String, Boolean> returnsResult = new HashMap<>();

    private boolean returnsResultOnce(String acquisition) {
        Integer at = acquiredHere.get(acquisition);
        if (at == null || flow.nodes().get(at).event().target() == null) {
            return false;
        }
        Set<String> names = new HashSet<>();
        names.add(flow.nodes().get(at).event().target());
        boolean grew = true;
        while (grew) {
            grew = false;
            for (FlowNode n : flow.nodes()) {
                FlowEvent e = n.event();
                if (e.kind() == FlowEvent.Kind.ASSIGN
                        && e.path() != null
                        && e.target() != null
                        && names.contains(e.path())) {
                    grew |= names.add(e.target());
                }
            }
        }
        for (FlowNode n : flow.nodes()) {
            if (n.event().kind() == FlowEvent.Kind.RETURN
                    && names.contains(n.event().target())) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return the state of connection {@code c}'s next transaction after a commit or rollback: the pool's
     *     when the configuration turns auto-commit off for pooled connections or the transaction was one already (a
     *     kept connection with auto-commit off, aborted or not), else a manual one
     */
    private Transaction reopened(PathState s, String c) {
        return inPoolTransaction(s, c) || Transaction.POOL.equals(s.tx().get(c)) || keptWithAutoCommitOff(c)
                ? Transaction.POOL
                : Transaction.MANUAL;
    }

    /**
     * @return whether {@code c} is a connection an object keeps whose accessor turned auto-commit off ({@link #kept}
     *     records it when the path first reaches it, before any transaction on it can abort)
     */
    private boolean keptWithAutoCommitOff(String c) {
        String rel = relative(c);
        return rel != null
                && kept.stream()
                        .anyMatch(k -> k.autoCommitOff() && k.connection().equals(rel));
    }

    /** @return whether {@code c} is a connection this method borrowed from a pool configured with auto-commit off */
    private boolean inPoolTransaction(PathState s, String c) {
        return LockStateAnalysis.inPoolTransaction(poolOff, s, c);
    }

    /**
     * Marks the holds on connections in an open manual transaction as having had work done under them (not
     * in a transaction only the pool's configuration opens: whether the code commits there is not known).
     */
    private PathState worked(PathState s, FlowNode node) {
        if (AspectAdvice.proceedsToOwnTransaction(node.event(), flow, analysis.graph)) {
            return s; // the advised method's own transaction commits before proceed() returns: nothing stays open
        }
        if (node.event().writesNothing()) {
            return s; // a read, or a REQUIRES_NEW callback committed before it returns: no write left pending
        }
        PathState.Mutable m = null;
        Set<String> touched = touchedTransactions(s, node);
        for (Hold k : s.held().keySet()) {
            String id = k.acquisition();
            if (Integer.valueOf(node.id()).equals(acquiredHere.get(id))) {
                continue;
            }
            if (Transaction.MANUAL.equals(s.tx().get(k.connection()))
                    && !s.worked().contains(Work.own(id))) {
                if (m == null) {
                    m = s.edit();
                }
                m.worked.add(Work.own(id));
            }
            for (String x : touched) {
                if (!x.equals(k.connection()) && !s.worked().contains(new Work(id, x))) {
                    if (m == null) {
                        m = s.edit();
                    }
                    m.worked.add(new Work(id, x)); // work the lock guards, in another connection's open transaction
                }
            }
        }
        return m == null ? s : m.done();
    }

    /**
     * @return the connections in an open manual transaction that the node runs a statement on or hands to a
     *     call: a statement's own connection, a call's receiver and connection arguments
     */
    private Set<String> touchedTransactions(PathState s, FlowNode node) {
        Set<String> out = new TreeSet<>();
        FlowEvent e = node.event();
        List<String> paths = new ArrayList<>();
        paths.add(e.path());
        if (e.kind() == FlowEvent.Kind.CALL && e.args() != null) {
            paths.addAll(e.args());
        }
        for (String p : paths) {
            String c = p == null ? null : s.resolve(p);
            if (c != null && Transaction.MANUAL.equals(s.tx().get(c))) {
                out.add(c);
            } else if (c != null && rootOf(c).equals("this") && runsSql(e) && inFrameworkTransaction()) {
                out.add(FRAMEWORK_TRANSACTION); // the object's template or session joins that transaction
            }
        }
        if (AspectAdvice.proceedsToWork(e, flow, analysis.graph) && inFrameworkTransaction()) {
            out.add(FRAMEWORK_TRANSACTION); // the advised method's statements, in the transaction around the advice
        }
        if (boundLambdaWorksOnItsObject(e) && inFrameworkTransaction()) {
            out.add(FRAMEWORK_TRANSACTION); // the caller's lambda, run here, works on its object's template or session
        }
        return out;
    }

    /**
     * @return whether the event runs a caller's lambda bound to a parameter of this method ({@code work.get()} with
     *     {@code () -> jdbc.update(..)}) whose statements run on its own object's connections (its template or
     *     session), which join the transaction the caller's method runs in
     */
    private boolean boundLambdaWorksOnItsObject(FlowEvent e) {
        if (e.kind() != FlowEvent.Kind.CALL
                || e.callee() == null
                || e.callee().isEmpty()
                || !e.callee().get(0).contains("$lambda")) {
            return false;
        }
        MethodSummary callee = analysis.resolve(e);
        return callee != null && callee.executes().stream().anyMatch(p -> p.equals("#this") || p.startsWith("#this."));
    }

    /**
     * @return whether the event runs SQL itself: a statement, or a call the catalog says executes SQL
     *     ({@code jdbc.update}); a call of another bean's method is not (it may run in a transaction of its own)
     */
    private static boolean runsSql(FlowEvent e) {
        if (e.kind() == FlowEvent.Kind.EXECUTE) {
            return true;
        }
        if (e.kind() != FlowEvent.Kind.CALL || e.callee() == null || e.callee().isEmpty()) {
            return false;
        }
        String key = e.callee().get(e.callee().size() - 1);
        String name = key.substring(key.indexOf('.') + 1, key.lastIndexOf('/'));
        return API.is(Role.EXECUTES_SQL, name);
    }

    /**
     * @return whether this run is inside a transaction a framework opens around it and commits after it returns:
     *     a copy run in its caller's or callback's transaction, or a method Spring or JTA runs in one
     */
    private boolean inFrameworkTransaction() {
        return !flow.modifiers().contains("readOnly")
                && (transactionCallers.containsKey(flow.key())
                        || flow.modifiers().contains("transactional"));
    }

    /**
     * @return whether the lock {@code id} guarded work in the open transaction of another connection than its own
     *     that a commit of this method makes visible after {@code release}: a session lock on one connection
     *     serializing writes made on a second (a transaction rolled back, closed or committed before, never is)
     */
    private boolean workedInOtherTransaction(PathState s, String id, FlowNode release) {
        for (Work w : s.worked()) {
            if (w.acquisition().equals(id) && !w.isOwn()) {
                String x = w.connection();
                if (x.equals(FRAMEWORK_TRANSACTION)
                        ? frameworkCommitsAfter(s, id)
                        : Transaction.MANUAL.equals(s.tx().get(x))
                                && (commitFollows(s, x, release) || frameworksHandle(x))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return whether {@code c} is the connection a framework passes this callback inside the transaction it commits
     *     after the callback returns ({@link CallingContexts#HANDLE_PARAMETER}: JDBI's handle, a Spring
     *     {@code ConnectionCallback}'s connection in a transaction)
     */
    private boolean frameworksHandle(String c) {
        return flow.modifiers().contains(CallingContexts.HANDLE_PARAMETER)
                && !flow.params().isEmpty()
                && c.equals(flow.params().get(0));
    }

    /**
     * @return whether the framework's transaction, which commits after this method returns, makes work visible
     *     after the release of hold {@code id}: only for a lock on a connection of its own (one the method opened
     *     or was given), whose site the lock's own context puts in that transaction too (a self-call that
     *     bypasses the proxy does not), while the object's connections do the work
     */
    private boolean frameworkCommitsAfter(PathState s, String id) {
        LockSite site = sites.get(id);
        for (Hold k : s.held().keySet()) {
            if (k.acquisition().equals(id) && rootOf(k.connection()).equals("this")) {
                return false; // the lock is the transaction's own: the own-connection case decides
            }
        }
        return site != null
                && (transactionCallers.containsKey(flow.key())
                        || site.execution().transaction() == TransactionState.IN_TRANSACTION);
    }

    /** @return whether a {@code commit()} of connection {@code x} can run after {@code from} on a normal path */
    private boolean commitFollows(PathState s, String x, FlowNode from) {
        return flow.reaches(from.next(), false, n -> {
            FlowEvent e = flow.nodes().get(n).event();
            return e.kind() == FlowEvent.Kind.END && !e.negated() && x.equals(s.resolve(e.path()));
        });
    }

    /** In a method Spring runs in a transaction, a connection of the object's joins that transaction. */
    private void joinTransaction(PathState.Mutable m, String c, String acquisition, boolean ownSite) {
        if (!rootOf(c).equals("this")) {
            return;
        }
        LockSite site = sites.get(acquisition);
        // the site's own transaction context (core.java.SpringTransactions: proxies, self-calls, propagation)
        // decides where it has one, unless this copy runs in its caller's transaction (CallingContexts)
        boolean inTransaction = transactionCallers.containsKey(flow.key())
                || ((ownSite && site != null && site.execution().transaction() != TransactionState.UNKNOWN)
                        ? site.execution().transaction() == TransactionState.IN_TRANSACTION
                        : flow.modifiers().contains("transactional"));
        if (inTransaction) {
            m.tx.putIfAbsent(c, Transaction.MANUAL);
        }
    }

    /** Successor states of one node. */
    private static final class Out {
        final List<List<PathState>> normal = new ArrayList<>();
        final List<PathState> thrown = new ArrayList<>();

        Out(int successors) {
            for (int i = 0; i < successors; i++) {
                normal.add(new ArrayList<>());
            }
        }

        void all(PathState s) {
            normal.forEach(l -> l.add(s));
        }
    }

    private void transfer(FlowNode node, PathState s, Out o) {
        FlowEvent e = node.event();
        switch (e.kind()) {
            case NOP -> o.all(s);
            case ASSIGN -> o.all(assign(s, e.target(), e.path()));
            case ALIAS -> {
                PathState.Mutable m = s.edit();
                e.args().forEach(a -> m.alias.put(a, e.path()));
                o.all(m.done());
            }
            case OPEN -> {
                String identity = "@" + node.id();
                PathState.Mutable m = s.edit();
                m.alias.put(e.target(), identity);
                m.kinds.put(identity, e.openedKind());
                m.closed.remove(identity);
                m.held.keySet().removeIf(k -> k.connection().equals(identity));
                m.tx.remove(identity);
                AutoCommitSetting pool = e.pool() != null ? e.pool() : autoCommitOff;
                if (pool != null && !pool.autoCommit() && e.openedKind() == ConnectionKind.POOLED) {
                    poolOff.put(identity, pool);
                    m.tx.put(identity, Transaction.POOL); // the pool hands it out with auto-commit off
                }
                if (e.callee().size() > 1
                        && FlowLowering.ENLISTED.equals(e.callee().get(1))
                        && flow.modifiers().contains("transactional")) {
                    m.tx.put(identity, Transaction.MANUAL); // enlisted in the method's JTA transaction until it returns
                }
                o.all(m.done());
                o.thrown.add(s);
            }
            case LOCK ->
                lock(node, s, o, s.resolve(e.path() == null ? "?" + node.id() : e.path()), e.sites(), e.target(), null);
            case EXECUTE -> {
                o.all(s);
                String c = s.resolve(e.path());
                executedOn(c);
                o.thrown.add(abort(s, List.of(c)));
            }
            case CLOSE -> {
                String closed = s.resolve(e.path());
                PathState.Mutable m = s.edit();
                for (String c : withKept(closed, s.kinds().keySet())) {
                    m.closed.put(c, node.id());
                    m.worked.removeIf(w -> c.equals(w.connection())); // its open transaction ends unfinished
                    if (ConnectionKind.UNPOOLED.equals(s.kinds().get(c))) {
                        m.held.keySet().removeIf(k -> k.connection().equals(c)); // the session ends with its locks
                    }
                }
                PathState t = m.done();
                o.all(t);
                o.thrown.add(t);
            }
            case AUTOCOMMIT -> {
                String c = s.resolve(e.path());
                PathState.Mutable m = s.edit();
                if (e.negated()) {
                    m.tx.put(c, Transaction.MANUAL);
                } else {
                    m.tx.remove(c);
                }
                o.all(m.done());
                o.thrown.add(s);
            }
            case BEGIN -> {
                PathState.Mutable m = s.edit();
                m.tx.put(s.resolve(e.path()), Transaction.MANUAL);
                o.all(m.done());
                o.thrown.add(s);
            }
            case END -> {
                String c = s.resolve(e.path());
                PathState.Mutable m = s.edit();
                ended(s, m, c);
                PathState after = m.done();
                o.all(after);
                o.thrown.add(e.negated() ? after : s); // a rollback that throws leaves a broken session behind
            }
            case BRANCH -> branch(node, s, o);
            case RETURN -> {
                PathState.Mutable m = s.edit();
                if (e.target() != null) {
                    m.escaped.add(rootOf(e.target()));
                    String c = s.resolve(e.target());
                    m.escaped.add(rootOf(c)); // the object it names leaves the method, whatever local named it
                    if (c.startsWith("@") || c.startsWith("this.")) {
                        m.returned = c; // a connection, or a field of this object (SummaryBuilder.returnedField)
                    } else if (s.held().keySet().stream()
                                    .noneMatch(k -> k.connection().equals(c))
                            && s.held().keySet().stream()
                                    .anyMatch(k -> SummaryBuilder.heldField(s, c, k.connection()) != null)) {
                        m.returned = c; // a lock handle: SummaryBuilder names the fields that hold
                    }
                    Boolean b = literal(s, e.target());
                    if (b == null && !e.target().startsWith("$const") && holdsSomething(s, rootOf(e.target()))) {
                        b = Boolean.TRUE; // the lock object it returns holds: not the null of a failed try
                    }
                    if (b != null) {
                        m.bools.put("$return", b);
                    } else if (!e.target().startsWith("$const")) {
                        m.bools.put(
                                RETURNS_OBJECT, Boolean.TRUE); // SummaryBuilder: an object, where others return null
                    }
                    if (FlowLowering.NULL.equals(e.target()) || s.bools().containsKey(IS_NULL + e.target())) {
                        m.bools.put(RETURNS_NULL, Boolean.TRUE);
                    }
                }
                o.all(m.done());
            }
            case CALL -> call(node, s, o);
            case NOT_SQL_ERROR -> {
                PathState.Mutable m = s.edit();
                m.tx.replaceAll((k, v) -> Transaction.ABORTED.equals(v) ? reopened(s, k) : v);
                o.all(m.done());
            }
            default -> o.all(s);
        }
    }

    private Boolean literal(PathState s, String path) {
        if (path == null) {
            return null;
        }
        if (path.startsWith("$const:")) {
            return Boolean.valueOf(path.substring(7));
        }
        return s.bools().get(path);
    }

    private PathState assign(PathState s, String target, String source) {
        if (target == null) {
            return s;
        }
        List<String> forgotten = new ArrayList<>();
        for (String k : s.bools().keySet()) {
            if (k.startsWith(COND) && rootOf(k.substring(COND.length())).equals(rootOf(target))) {
                forgotten.add(k); // a condition over what is assigned may answer otherwise now
            } else if (k.startsWith(target + ".")) {
                forgotten.add(k); // what was known of the old object's parts (a result set's row read)
            }
        }
        if (source == null
                && forgotten.isEmpty()
                && !s.alias().containsKey(target)
                && !s.bools().containsKey(target)) {
            return s; // nothing known about the target before, nothing after: no new state
        }
        PathState.Mutable m = s.edit();
        forgotten.forEach(m.bools::remove);
        if (source != null
                && !target.startsWith("$")
                && (target.contains(".") || target.startsWith("this"))
                && holdsSomething(s, rootOf(source))) {
            m.escaped.add(rootOf(source)); // stored in a field: the object outlives the method
        }
        m.alias.remove(target);
        m.bools.remove(target);
        m.bools.remove(IS_NULL + target);
        if (source != null) {
            if (FlowLowering.NULL.equals(source) || s.bools().containsKey(IS_NULL + source)) {
                m.bools.put(IS_NULL + target, Boolean.TRUE); // null, through a temporary (a ?: of an object or null)
            }
            if (source.startsWith("$const:")) {
                m.bools.put(target, Boolean.valueOf(source.substring(7)));
            } else if (source.startsWith("$next:")) {
                return m.done();
            } else {
                String resolved = s.resolve(source);
                if (!resolved.equals(target) && meaningful(s, resolved)) {
                    m.alias.put(target, resolved);
                }
                Boolean b = s.bools().get(source);
                if (b != null) {
                    m.bools.put(target, b);
                }
            }
        }
        return m.done();
    }

    /**
     * Whether an alias to {@code identity} is worth keeping: a connection or object the analysis knows
     * something about, or a name of the method's own (parameter, field, local). A temporary holding
     * an unknown call's result is not: forgetting it keeps paths that differ only there merged.
     */
    private boolean meaningful(PathState s, String identity) {
        if (!identity.startsWith("$")) {
            return true;
        }
        if (s.kinds().containsKey(identity) || s.bools().containsKey(identity) || holdsSomething(s, identity)) {
            return true;
        }
        String prefix = identity + ".";
        return s.alias().keySet().stream().anyMatch(k -> k.startsWith(prefix));
    }

    /** @return true when the variable, or the object it names, holds a lock or owns a hold on this path */
    private boolean holdsSomething(PathState s, String variable) {
        String identity = s.resolve(variable);
        if (s.owners().containsValue(variable) || s.owners().containsValue(identity)) {
            return true;
        }
        for (Hold k : s.held().keySet()) {
            String c = k.connection();
            if (c.equals(identity)
                    || c.startsWith(identity + ".")
                    || c.equals(variable)
                    || c.startsWith(variable + ".")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The state after a statement on each of {@code conns} failed: their open transactions are aborted (F18). In a
     * framework's transaction (this method's {@code @Transactional}, or its callers'), a statement on a field's
     * connection, on the framework's ({@link #FRAMEWORK_TRANSACTION}) or on a statement whose connection the analysis
     * does not follow (a JPA query's) aborts every field's connection with a transaction open: the framework binds one
     * connection to the thread for the transaction, which every transaction-aware resource of the object uses
     * ({@code EntityManager}, {@code JdbcTemplate}, a lock helper's).
     */
    private PathState abort(PathState s, List<String> conns) {
        PathState.Mutable m = s.edit();
        boolean changed = false;
        boolean framework = false;
        for (String c : conns) {
            if (c != null && (Transaction.MANUAL.equals(s.tx().get(c)) || Transaction.POOL.equals(s.tx().get(c)))) {
                m.tx.put(c, Transaction.ABORTED);
                changed = true;
            }
            // a field's connection, the framework's ($framework) or a statement of unknown origin (a JPA query)
            framework |= c != null && (rootOf(c).equals("this") || (c.startsWith("$") && !c.startsWith("$const")));
        }
        if (framework && inFrameworkTransaction()) {
            for (Map.Entry<String, Transaction> t : s.tx().entrySet()) {
                if (rootOf(t.getKey()).equals("this") && Transaction.MANUAL.equals(t.getValue())) {
                    m.tx.put(t.getKey(), Transaction.ABORTED);
                    changed = true;
                }
            }
        }
        return changed ? m.done() : s;
    }

    private void branch(FlowNode node, PathState s, Out o) {
        FlowEvent e = node.event();
        String v = e.target();
        if (o.normal.size() < 2) {
            o.all(s);
            return;
        }
        if ("$true".equals(v) || "$const:true".equals(v)) {
            o.normal.get(e.negated() ? 1 : 0).add(s);
            return;
        }
        if ("$const:false".equals(v)) {
            o.normal.get(e.negated() ? 0 : 1).add(s);
            return;
        }
        if (FlowLowering.IN_TRANSACTION.equals(v) && flow.modifiers().contains("transactional")) {
            o.normal.get(e.negated() ? 1 : 0).add(s); // Spring says a transaction is active: it is, here
            return;
        }
        if (v != null && v.startsWith(FlowLowering.NULLABLE)) {
            // a resource closed unless it is null: skipped only when it holds a helper's null (FlowLowering.NULL)
            boolean isNull = Boolean.FALSE.equals(s.bools().get(v.substring(FlowLowering.NULLABLE.length())));
            o.normal.get(isNull ? 1 : 0).add(s);
            return;
        }
        if (v != null && v.startsWith("$nonnull:")) {
            String x = v.substring(9);
            Boolean returned = s.bools().get(x); // a helper's lock object, or its null (FlowLowering.NULL)
            if (returned != null) {
                o.normal.get(returned != e.negated() ? 0 : 1).add(s);
            } else if (holdsSomething(s, x) || s.kinds().containsKey(s.resolve(x))) {
                o.normal.get(e.negated() ? 1 : 0).add(s); // it holds a lock, so it is not null
            } else {
                o.normal.get(0).add(s);
                o.normal.get(1).add(s);
            }
            return;
        }
        if (v != null && v.startsWith("$next:")) {
            String rs = v.substring(6);
            if (s.bools().containsKey(rs) && inLoop(node.id())) {
                // while (rs.next()) over a lock query's one row: true the first time, false after it
                String read = rs + ROW_READ;
                if (s.bools().containsKey(read)) {
                    o.normal.get(e.negated() ? 0 : 1).add(s);
                } else {
                    PathState.Mutable m = s.edit();
                    m.bools.put(read, Boolean.TRUE);
                    o.normal.get(e.negated() ? 1 : 0).add(m.done());
                }
            } else if (s.bools().containsKey(rs) && rowFilterAttempt(s)) {
                // the lock decides in the WHERE clause whether the row comes back: a row means the lock was taken,
                // none that it was not (or that the row failed the other conditions, before the lock ran)
                o.normal.get(s.bools().get(rs) != e.negated() ? 0 : 1).add(s);
            } else if (s.bools().containsKey(rs)) {
                o.normal.get(0).add(s); // a SELECT of a lock function returns exactly one row
            } else {
                o.normal.get(0).add(s);
                o.normal.get(1).add(s);
            }
            return;
        }
        Boolean known = v == null ? null : s.bools().get(v);
        String key = conditionKey(e);
        if (known == null && key != null && correlated.contains(key)) {
            known = s.bools().get(key);
            if (known == null) {
                // the first test of a condition tested again later: each way remembers its answer
                PathState.Mutable yes = s.edit();
                yes.bools.put(key, Boolean.TRUE);
                if (objectFlag(v)) {
                    yes.failed.clear(); // see below: the object's own record that it holds the lock
                }
                PathState.Mutable no = s.edit();
                no.bools.put(key, Boolean.FALSE);
                o.normal.get(e.negated() ? 1 : 0).add(yes.done());
                o.normal.get(e.negated() ? 0 : 1).add(no.done());
                return;
            }
        }
        if (known != null) {
            boolean truth = known != e.negated();
            o.normal.get(truth ? 0 : 1).add(s);
            return;
        }
        if (objectFlag(v) && !s.failed().isEmpty()) {
            // a flag the object keeps (held, locked): on its true side the code believes it holds the lock, so a
            // release there is a release that checks first, not one of a failed attempt
            PathState.Mutable m = s.edit();
            m.failed.clear();
            o.normal.get(e.negated() ? 1 : 0).add(m.done());
            o.normal.get(e.negated() ? 0 : 1).add(s);
            return;
        }
        // a variable no lock result flows into: both ways, nothing learnt (keeps equal paths merged)
        o.normal.get(0).add(s);
        o.normal.get(1).add(s);
    }

    /** @return whether the path's untested try-lock filters rows ({@code UPDATE .. WHERE .. AND pg_try_advisory_lock(k)}) */
    private boolean rowFilterAttempt(PathState s) {
        for (PathState.Attempt a : s.attempts()) {
            LockSite site = sites.get(a.acquisition());
            if (site != null
                    && !a.tested()
                    && (site.sql().clause() == SqlClause.WHERE || site.sql().clause() == SqlClause.JOIN_CONDITION)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether a tested value is a field of this object (a flag such as {@code held}, {@code locked.get()}) */
    private static boolean objectFlag(String v) {
        return v != null && v.startsWith("this.") && !v.contains("(");
    }

    /** Applies lock sites executed on connection {@code c}; {@code as} renames acquisitions (a helper call's own site). */
    private void lock(FlowNode node, PathState s, Out o, String c, List<String> ids, String target, String as) {
        List<PathState> cur = List.of(s);
        List<PathState> thrown = new ArrayList<>();
        boolean acquires = ids.stream()
                .map(sites::get)
                .anyMatch(x -> x != null && x.function().operation().isAcquisition());
        if (acquires) {
            PathState.Mutable t = abort(s, List.of(c)).edit(); // a failed acquisition holds nothing new
            // nor is it a path that leaks the connection's earlier locks: a lock statement that throws says the
            // session is gone (the server then drops its locks), the one failure the analysis does not chase
            t.held.keySet().removeIf(k -> k.connection().equals(c));
            for (String id : ids) {
                LockSite x = sites.get(id);
                if (x != null
                        && x.function().operation().isAcquisition()
                        && x.function().level() == LockLevel.SESSION) {
                    t.threw.add(as == null ? id : as); // a try-lock's too: a method that then answers true lies
                }
            }
            thrown.add(t.done());
        }
        // the operations of one helper call run one after the other; the forms one SQL text can take
        // (built from flags: exclusive or shared, try or not) are alternatives: each path takes one
        for (List<String> group : alternatives(ids)) {
            List<PathState> next = new ArrayList<>();
            boolean releases = group.size() > 1
                    && group.stream()
                            .noneMatch(
                                    id -> sites.get(id).function().operation().isAcquisition());
            for (PathState p : cur) {
                if (releases) {
                    // which form runs follows the flags that chose the lock's form: the analysis does not
                    // pair them, so the form that releases a hold of this path stands for the statement
                    next.addAll(releasingForm(node, p, c, group, as, target, thrown));
                    continue;
                }
                for (String id : group) {
                    next.addAll(apply(node, p, c, sites.get(id), as == null ? id : as, target, thrown));
                }
            }
            cur = next;
        }
        for (PathState p : cur) {
            o.all(p);
        }
        if (!acquires) {
            thrown.addAll(cur); // an unlock that throws is not the bug this analysis looks for
        }
        o.thrown.addAll(thrown);
    }

    /**
     * @return the states after the first form of a release that matches a hold of {@code p} on this
     *     connection (the same mode, a key that may be equal), else after the first form; probing applies
     *     nothing
     */
    private List<PathState> releasingForm(
            FlowNode node,
            PathState p,
            String c,
            List<String> group,
            String as,
            String target,
            List<PathState> thrown) {
        for (String id : group) {
            LockSite form = sites.get(id);
            for (Hold k : p.held().keySet()) {
                LockSite held = sites.get(k.acquisition());
                if (held != null
                        && k.connection().equals(c)
                        && held.function().mode() == form.function().mode()
                        && form.key().mayEqual(held.key())) {
                    return apply(node, p, c, form, as == null ? id : as, target, thrown);
                }
            }
        }
        String id = group.get(0);
        return apply(node, p, c, sites.get(id), as == null ? id : as, target, thrown);
    }

    /**
     * @return the known sites of one node in order, consecutive forms of one statement
     *     ({@link LockSite#sameStatement}) grouped: one group per operation
     */
    private List<List<String>> alternatives(List<String> ids) {
        List<List<String>> groups = new ArrayList<>();
        LockSite first = null;
        for (String id : ids) {
            LockSite site = sites.get(id);
            if (site == null) {
                continue;
            }
            if (first != null && site.sameStatement(first)) {
                groups.get(groups.size() - 1).add(id);
            } else {
                groups.add(new ArrayList<>(List.of(id)));
                first = site;
            }
        }
        return groups;
    }

    private List<PathState> apply(
            FlowNode node, PathState s, String c, LockSite site, String id, String target, List<PathState> thrown) {
        LockOperation op = site.function().operation();
        if (op.isAcquisition()
                && site.function().level() != LockLevel.SESSION
                && !site.key().hasColumnPart()) {
            xactLock(node, s, c, site, null);
        }
        if (op == LockOperation.TRY_ACQUIRE
                && site.function().level() != LockLevel.SESSION
                && !site.key().hasColumnPart()) {
            // no hold to track (it ends with the transaction), but the two outcomes go apart for the work after it
            acquiredHere.putIfAbsent(id, node.id());
            PathState.Mutable got = s.edit();
            attempt(got, id, true);
            PathState.Mutable miss = s.edit();
            attempt(miss, id, false);
            if (target != null) {
                got.bools.put(target, true);
                miss.bools.put(target, false);
            }
            return List.of(got.done(), miss.done());
        }
        if ((op.isAcquisition() && site.function().level() != LockLevel.SESSION)
                || site.key().hasColumnPart()) {
            return List.of(s); // transaction-level locks end with their transaction; per-row locks follow rows
        }
        switch (op) {
            case ACQUIRE -> {
                acquiredHere.putIfAbsent(id, node.id());
                return List.of(hold(s, c, id, target));
            }
            case TRY_ACQUIRE -> {
                acquiredHere.putIfAbsent(id, node.id());
                PathState.Mutable tried = hold(s, c, id, target).edit();
                attempt(tried, id, true);
                PathState got = tried.done();
                PathState.Mutable miss = s.edit();
                miss.failed.add(id);
                attempt(miss, id, false);
                if (target != null) {
                    miss.bools.put(target, false);
                }
                PathState.Mutable threw = s.edit();
                threw.failed.add(id);
                threw.threw.add(id); // nothing taken: a method that then answers true says otherwise (ExitJudgement)
                thrown.add(threw.done());
                return List.of(got, miss.done());
            }
            case RELEASE -> {
                List<PathState> out = release(node, s, c, site, target, thrown);
                if (s.attempts().stream().noneMatch(a -> a.held() && sameLock(sites.get(a.acquisition()), site))) {
                    return out;
                }
                return out.stream()
                        .map(t -> {
                            PathState.Mutable m = t.edit();
                            m.attempts.removeIf(a -> a.held() && sameLock(sites.get(a.acquisition()), site));
                            return m.done();
                        })
                        .toList();
            }
            case RELEASE_ALL -> {
                PathState.Mutable m = s.edit();
                Predicate<String> same = mayBeSame(s, c);
                for (Hold k : s.held().keySet()) {
                    if (same.test(k.connection())) {
                        beforeCommit(s, k, node, site, site.viaHelper() ? node.region() : site.region());
                        m.held.remove(k); // every hold of the session, however many times taken
                        releasedAt
                                .computeIfAbsent(k.acquisition(), x -> new TreeSet<>())
                                .add(node.id());
                    }
                }
                String rel = relative(c);
                if (rel != null) {
                    m.outer.add(new Release(rel, site.id()));
                }
                return List.of(m.done());
            }
            default -> {
                return List.of(s);
            }
        }
    }

    private PathState hold(PathState s, String c, String id, String target) {
        PathState.Mutable m = s.edit();
        Hold k = new Hold(c, id);
        joinTransaction(m, c, id, true);
        if (s.held().containsKey(k)) {
            m.stacked.add(id);
        }
        m.take(k);
        m.failed.remove(id);
        m.threw.remove(id);
        if (target != null) {
            m.bools.put(target, true);
            m.alias.putIfAbsent(target, c);
        }
        return m.done();
    }

    /**
     * Which holders a release on connection {@code c} may act on, as a test of the holder's connection
     * (computed once per release: a state can hold hundreds of keys): the same
     * identity, or one of them not known to this method (a lock object's statement, a field reached
     * through another object): releases are matched generously, so only a proven mismatch is reported.
     */
    private Predicate<String> mayBeSame(PathState s, String c) {
        if (c.startsWith("?")) {
            return holder -> true;
        }
        boolean known = c.startsWith("@")
                || s.kinds().containsKey(c)
                || s.held().keySet().stream().anyMatch(k -> k.connection().equals(c));
        return holder -> holder.equals(c) || holder.startsWith("?") || !known;
    }

    private boolean sameLock(LockSite acquisition, LockSite release) {
        return acquisition != null
                && acquisition.key().mayEqual(release.key())
                && acquisition.function().mode() == release.function().mode();
    }

    private List<PathState> release(
            FlowNode node, PathState s, String c, LockSite release, String target, List<PathState> thrown) {
        releasesHere = true;
        List<Hold> matching = new ArrayList<>();
        Predicate<String> same = mayBeSame(s, c);
        for (Map.Entry<Hold, Integer> h : s.held().entrySet()) {
            if (same.test(h.getKey().connection())
                    && sameLock(sites.get(h.getKey().acquisition()), release)) {
                matching.add(h.getKey());
            }
        }
        if (s.closed().containsKey(c) && c.startsWith("@")) {
            record(
                    PathFinding.Kind.RELEASE_ON_OTHER_CONNECTION,
                    release,
                    node,
                    "it runs on a connection this method already closed or returned to its pool, so it "
                            + "cannot release the lock of the session that held it");
            return List.of(s);
        }
        if (Transaction.ABORTED.equals(s.tx().get(c)) && !matching.isEmpty()) {
            PathState.Mutable m = s.edit();
            matching.forEach(k -> m.stuck.add(k.acquisition()));
            thrown.add(m.done()); // the unlock fails with SQLSTATE 25P02: only the exception path goes on
            return List.of();
        }
        PathState.Mutable m = s.edit();
        if (target != null) {
            m.bools.remove(target);
        }
        if (!matching.isEmpty()) {
            for (Hold k : matching) {
                beforeCommit(s, k, node, release, release.viaHelper() ? node.region() : release.region());
                released(m, k, node);
            }
            return List.of(m.done());
        }
        if (s.closed().containsKey(c)) {
            record(
                    PathFinding.Kind.RELEASE_ON_OTHER_CONNECTION,
                    release,
                    node,
                    "it runs on a connection this method already closed or returned to its pool, so it "
                            + "cannot release the lock of the session that held it");
        } else {
            for (Map.Entry<Hold, Integer> h : s.held().entrySet()) {
                if (c.startsWith("@")
                        && !h.getKey().connection().equals(c)
                        && sameLock(sites.get(h.getKey().acquisition()), release)) {
                    record(
                            PathFinding.Kind.RELEASE_ON_OTHER_CONNECTION,
                            release,
                            node,
                            "it runs on another connection than the one that took the lock; a session can "
                                    + "only release its own locks, so the lock stays held");
                }
            }
            for (String f : s.failed()) {
                if (sameLock(sites.get(f), release) && !s.holds(f) && !releasesInOwnLoop(node.id(), f)) {
                    record(
                            PathFinding.Kind.RELEASE_WITHOUT_HOLD,
                            release,
                            node,
                            "it also runs when " + sites.get(f).display() + " returned false or threw, and then "
                                    + "releases a hold this code never took (another hold of the same key on "
                                    + "this session, if any, is released instead)");
                }
            }
        }
        String rel = relative(c);
        if (rel != null) {
            m.outer.add(new Release(rel, release.id()));
        }
        return List.of(m.done());
    }

    /** Releases one hold of {@code k} at {@code node} and records where its acquisition was released. */
    private void released(PathState.Mutable m, Hold k, FlowNode node) {
        if (releasesInOwnLoop(node.id(), k.acquisition())) {
            m.held.remove(k); // a loop over what was taken (for (k : taken) unlock(k)) releases every hold
            m.stacked.remove(k.acquisition());
        } else {
            m.release(k);
        }
        releasedAt.computeIfAbsent(k.acquisition(), x -> new TreeSet<>()).add(node.id());
    }

    /**
     * Judges the release of hold {@code k} at {@code node}: a {@link PathFinding.Kind#RELEASE_BEFORE_COMMIT} when
     * the hold guarded work in its own connection's open manual transaction, or in another connection's
     * transaction whose commit follows.
     */
    private void beforeCommit(PathState s, Hold k, FlowNode node, LockSite release, SourceRegion at) {
        boolean own = Transaction.MANUAL.equals(s.tx().get(k.connection()))
                && s.worked().contains(Work.own(k.acquisition()));
        if (own || workedInOtherTransaction(s, k.acquisition(), node)) {
            // work on the framework's handle is work on the lock's own connection (a statement made from it)
            boolean handle = s.worked().stream()
                    .anyMatch(w ->
                            w.acquisition().equals(k.acquisition()) && !w.isOwn() && frameworksHandle(w.connection()));
            recordBeforeCommit(release, sites.get(k.acquisition()), at, !own && !handle);
        }
    }

    /**
     * Records a {@link PathFinding.Kind#RELEASE_BEFORE_COMMIT}.
     *
     * @param otherConnection true when the work ran in the transaction of another connection than the lock's
     */
    private void recordBeforeCommit(LockSite release, LockSite acquisition, SourceRegion at, boolean otherConnection) {
        if (at == null || acquisition == null || flow.modifiers().contains("readOnly")) {
            return;
        }
        Integer taken = acquiredHere.get(acquisition.id());
        SourceRegion lockAt = taken == null ? null : flow.nodes().get(taken).region();
        if (lockAt == null) {
            lockAt = acquisition.region();
        }
        PathFinding.Boundary boundary = boundary(at, acquisition, release);
        List<PathFinding.Step> steps = new ArrayList<>();
        steps.add(new PathFinding.Step(at, "the session-level unlock runs here, inside the open transaction"));
        steps.add(new PathFinding.Step(
                lockAt,
                otherConnection
                        ? "the lock, taken on another connection than the transaction's"
                        : "the lock taken in that transaction"));
        String note = "the transaction doing the work under the lock commits only after it";
        if (boundary != null) {
            steps.add(new PathFinding.Step(boundary.region(), "the transaction that is still open at the unlock"));
            note = switch (boundary.kind()) {
                case TRANSACTIONAL_METHOD ->
                    "inside the transaction of " + boundary.evidence() + ", which commits only when the method returns";
                case TRANSACTION_CALLBACK ->
                    "inside the " + boundary.evidence() + ", whose transaction commits only after the callback returns";
                case CALLER_TRANSACTION ->
                    "inside the transaction of its caller " + boundary.evidence()
                            + ", which commits only after this call returns";
                case MANUAL_COMMIT ->
                    "after " + boundary.evidence()
                            + (boundary.commit() != null
                                    ? " (committed at line " + boundary.commit().startLine() + ", after the unlock)"
                                    : ", before the transaction commits");
            };
        }
        if (boundary != null && boundary.commit() != null) {
            steps.add(new PathFinding.Step(boundary.commit(), "the commit that makes the work visible, too late"));
        }
        // the same release seen from several copies of its method: the one that knows the boundary is kept
        releaseFindings.merge(
                PathFinding.Kind.RELEASE_BEFORE_COMMIT + "|" + release.id() + "|" + at,
                new PathFinding(
                        PathFinding.Kind.RELEASE_BEFORE_COMMIT, acquisition, release, at, note, steps, boundary),
                (old, fresh) -> old.boundary() == null && fresh.boundary() != null ? fresh : old);
    }

    /**
     * @param at     the release
     * @return where the transaction open at the release begins: the last {@code setAutoCommit(false)} or begin
     *     of this method before the release (with the first commit after it), the caller or callback whose
     *     transaction this copy runs in ({@link CallingContexts}), the method's own {@code @Transactional}, or
     *     the transaction the lock's or the unlock's own context names (core.java.SpringTransactions: the
     *     callback or annotation around it); null when none of these is found
     */
    private PathFinding.Boundary boundary(SourceRegion at, LockSite acquisition, LockSite release) {
        FlowNode begin = null;
        for (FlowNode n : flow.nodes()) {
            FlowEvent e = n.event();
            boolean begins = (e.kind() == FlowEvent.Kind.AUTOCOMMIT && e.negated()) || e.kind() == FlowEvent.Kind.BEGIN;
            if (begins
                    && n.region() != null
                    && n.region().compareTo(at) <= 0
                    && (begin == null || n.region().compareTo(begin.region()) > 0)) {
                begin = n;
            }
        }
        if (begin != null) {
            SourceRegion commit = null;
            for (FlowNode n : flow.nodes()) {
                if (n.event().kind() == FlowEvent.Kind.END
                        && !n.event().negated()
                        && n.region() != null
                        && n.region().compareTo(at) > 0
                        && (commit == null || n.region().compareTo(commit) < 0)) {
                    commit = n.region();
                }
            }
            String on = begin.event().path() == null
                    ? "the connection"
                    : written(begin.event().path());
            return new PathFinding.Boundary(
                    PathFinding.BoundaryKind.MANUAL_COMMIT,
                    begin.region(),
                    (begin.event().kind() == FlowEvent.Kind.BEGIN
                                    ? "the transaction begun on "
                                    : "setAutoCommit(false) on ")
                            + on,
                    commit);
        }
        CallingContexts.Caller caller = transactionCallers.get(flow.key());
        if (caller != null) {
            return caller.callback() != null
                    ? new PathFinding.Boundary(
                            PathFinding.BoundaryKind.TRANSACTION_CALLBACK, caller.at(), caller.callback(), null)
                    : new PathFinding.Boundary(
                            PathFinding.BoundaryKind.CALLER_TRANSACTION, caller.at(), caller.method(), null);
        }
        for (LockSite site : List.of(acquisition, release)) {
            ExecutionContext x = site.execution();
            if (x.transaction() == TransactionState.IN_TRANSACTION && x.transactionRegion() != null) {
                String evidence = x.transactionEvidence();
                Matcher annotation = TRANSACTIONAL_EVIDENCE.matcher(evidence);
                boolean annotated = annotation.lookingAt();
                if (annotated) {
                    evidence = annotation.group(); // what the annotation is on, without the rest of the verdict
                }
                PathFinding.BoundaryKind kind = annotated || evidence.startsWith("@Transactional")
                        ? PathFinding.BoundaryKind.TRANSACTIONAL_METHOD
                        : evidence.startsWith("setAutoCommit(false)")
                                ? PathFinding.BoundaryKind.MANUAL_COMMIT
                                : evidence.endsWith("(...)")
                                        ? PathFinding.BoundaryKind.TRANSACTION_CALLBACK
                                        : PathFinding.BoundaryKind.CALLER_TRANSACTION;
                return new PathFinding.Boundary(
                        kind,
                        x.transactionRegion(),
                        kind == PathFinding.BoundaryKind.TRANSACTION_CALLBACK ? evidence + " callback" : evidence,
                        null);
            }
        }
        if (flow.modifiers().contains("transactional") && flow.region() != null) {
            return new PathFinding.Boundary(
                    PathFinding.BoundaryKind.TRANSACTIONAL_METHOD,
                    flow.region(),
                    flow.modifiers().contains("@Transactional")
                            ? "@Transactional on method " + flow.name()
                            : "@Transactional on class " + flow.typeName(),
                    null);
        }
        return null;
    }

    /**
     * A transaction-level lock on {@code c}: nothing when a transaction is open on it (manual, or Spring's
     * on an object's connection); on a connection this method opened and left in autocommit, a
     * {@link PathFinding.Kind#XACT_IN_AUTOCOMMIT} finding at this node; on a parameter's connection, an
     * entry of the summary for the caller to judge with its own state.
     */
    private void xactLock(FlowNode node, PathState s, String c, LockSite site, String via) {
        if (via == null) {
            (c != null && s.tx().containsKey(c) ? xactInTransaction : xactOutside).add(site.id());
        }
        if (c != null
                && c.startsWith("@")
                && Transaction.MANUAL.equals(s.tx().get(c))
                && BLOCKING_JDBC.contains(site.api())) {
            xactInManual.computeIfAbsent(node.id(), x -> new TreeMap<>()).put(c, site);
        }
        if (c == null
                || s.tx().containsKey(c)
                || (c.startsWith("this") && flow.modifiers().contains("transactional"))
                || site.execution().transaction() != TransactionState.UNKNOWN) {
            return; // in a transaction, or the site's own context says where it runs (its rule reads it)
        }
        String rel = relative(c);
        if (rel != null && !rel.startsWith("#this")) {
            xactLocks.add(new Hold(rel, site.id()));
            return;
        }
        ConnectionKind kind = s.kinds().get(c);
        SourceRegion at = node.region();
        if (kind == null || at == null || !c.startsWith("@") || handedToAnotherCall(s, c, node)) {
            return; // not a connection this method opened, or one a callee may begin a transaction on
        }
        List<PathFinding.Step> steps = new ArrayList<>();
        steps.add(new PathFinding.Step(at, "the lock runs here, on a connection in autocommit"));
        if (via != null && site.region() != null) {
            steps.add(new PathFinding.Step(site.region(), "the transaction-level lock " + via + " takes"));
        }
        xactFindings.putIfAbsent(
                PathFinding.Kind.XACT_IN_AUTOCOMMIT + "|" + at, // one per call: each implementation's lock
                new PathFinding(
                        PathFinding.Kind.XACT_IN_AUTOCOMMIT,
                        site,
                        null,
                        at,
                        (via == null ? "it runs" : via + " runs it")
                                + " on a connection this method opened and left in autocommit (no"
                                + " setAutoCommit(false) before it), so the lock is released when its own"
                                + " statement ends, before any work",
                        steps));
    }

    /**
     * @return true when another call on a path to {@code at} is given {@code c} as an argument: a helper such
     *     as {@code begin(c)} may turn its autocommit off, which the summaries do not say
     */
    private boolean handedToAnotherCall(PathState s, String c, FlowNode at) {
        // the calls on some path to this node: a reverse walk over the normal and exception edges
        boolean[] before = new boolean[flow.nodes().size()];
        List<List<Integer>> preds = new ArrayList<>();
        flow.nodes().forEach(n -> preds.add(new ArrayList<>()));
        for (FlowNode n : flow.nodes()) {
            n.next().forEach(x -> preds.get(x).add(n.id()));
            n.onException().forEach(x -> preds.get(x).add(n.id()));
        }
        Deque<Integer> todo = new ArrayDeque<>(preds.get(at.id()));
        while (!todo.isEmpty()) {
            int id = todo.poll();
            if (!before[id]) {
                before[id] = true;
                todo.addAll(preds.get(id));
            }
        }
        for (FlowNode n : flow.nodes()) {
            FlowEvent e = n.event();
            if (n == at || !before[n.id()] || e.kind() != FlowEvent.Kind.CALL) {
                continue;
            }
            for (String a : e.args()) {
                if (a != null && c.equals(s.resolve(a)) && mayBeginTransaction(e)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return false when every method the call can run is of the project and neither turns autocommit off,
     *     begins a transaction, nor hands anything on to another call; true otherwise
     */
    private boolean mayBeginTransaction(FlowEvent call) {
        List<MethodFlow> targets = graph.resolve(call);
        if (targets.isEmpty()) {
            return true;
        }
        for (MethodFlow t : targets) {
            for (FlowNode n : t.nodes()) {
                FlowEvent.Kind k = n.event().kind();
                if (k == FlowEvent.Kind.AUTOCOMMIT
                        || k == FlowEvent.Kind.BEGIN
                        || (k == FlowEvent.Kind.CALL
                                && n.event().args().stream().anyMatch(a -> a != null))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A transaction-level lock taken in this method's own manual transaction, whose commit (or rollback) comes on
     * every path before any work, with work after it: the lock ends with the transaction (F2), so the work it was
     * taken for runs unprotected ({@link PathFinding.Kind#XACT_ENDS_BEFORE_WORK}, read by {@link TransactionWindow}).
     */
    private void xactEndsBeforeWork() {
        for (Map.Entry<Integer, Map<String, LockSite>> at : xactInManual.entrySet()) {
            FlowNode lock = flow.nodes().get(at.getKey());
            for (Map.Entry<String, LockSite> held : at.getValue().entrySet()) {
                String c = held.getKey();
                IntPredicate endsIt = id -> flow.nodes().get(id).event().kind() == FlowEvent.Kind.END
                        && in.get(id).stream()
                                .anyMatch(x -> c.equals(
                                        x.resolve(flow.nodes().get(id).event().path())));
                Predicate<FlowNode> work = n -> isWork(n) && !logging(n.event()) && !n.inFinally();
                IntPredicate locks =
                        id -> xactInManual.getOrDefault(id, Map.of()).containsKey(c);
                Optional<TransactionWindow.Gap> gap =
                        TransactionWindow.endsBeforeWork(flow, lock.id(), endsIt, work, locks);
                boolean again = false;
                if (gap.isEmpty()) {
                    gap = TransactionWindow.workAgainAfterEnd(flow, lock.id(), endsIt, work, locks);
                    again = gap.isPresent();
                }
                if (gap.isEmpty() || lock.region() == null) {
                    continue;
                }
                FlowNode end = flow.nodes().get(gap.get().end());
                FlowNode after = flow.nodes().get(gap.get().work());
                if (after.region() == null || end.region() == null) {
                    continue;
                }
                LockSite site = held.getValue();
                boolean helper = lock.event().kind() == FlowEvent.Kind.CALL;
                SourceRegion where =
                        helper || site.viaHelper() || site.region() == null ? lock.region() : site.region();
                List<PathFinding.Step> steps = new ArrayList<>();
                steps.add(new PathFinding.Step(where, "the transaction-level lock is taken here"));
                if (helper && site.region() != null && !site.region().equals(where)) {
                    steps.add(new PathFinding.Step(site.region(), "the lock statement the helper runs"));
                }
                steps.add(new PathFinding.Step(
                        end.region(),
                        again
                                ? "its transaction ends here, and the loop goes on"
                                : "its transaction ends here, before any work"));
                steps.add(new PathFinding.Step(
                        after.region(),
                        again
                                ? "the work the lock covered the first time, run again without it"
                                : "work that runs after the lock is gone"));
                xactFindings.putIfAbsent(
                        PathFinding.Kind.XACT_ENDS_BEFORE_WORK + "|" + where,
                        new PathFinding(
                                PathFinding.Kind.XACT_ENDS_BEFORE_WORK,
                                site,
                                null,
                                where,
                                again
                                        ? "the transaction it is taken in is committed inside the loop that does the"
                                                + " work, and a transaction-level lock ends with its transaction: only"
                                                + " the first round runs under the lock, every later one without it"
                                        : "the transaction it is taken in ends right after it, before any other"
                                                + " statement, and a transaction-level lock ends with its transaction:"
                                                + " the work after the commit runs without the lock",
                                steps));
            }
        }
    }

    /**
     * @return whether some normal exit of the callee leaves {@code acquisition} held for its caller: on a connection
     *     the caller passed or reaches, on one it returns, or in a lock handle it returns
     */
    private static boolean returnsHolding(MethodSummary summary, String acquisition) {
        for (MethodSummary.Case c : summary.cases()) {
            if (c.acquires().stream().anyMatch(h -> h.acquisition().equals(acquisition))
                    || c.returnHeld().contains(acquisition)
                    || c.heldFields().stream().anyMatch(f -> f.acquisition().equals(acquisition))) {
                return true;
            }
        }
        return false;
    }

    /** @return the method a call runs, or the first of several */
    private MethodFlow summaryOwner(FlowEvent e) {
        return graph.resolve(e).get(0);
    }

    /** @return the call's own release site when the call is a lock helper's, else the callee's */
    private LockSite callRelease(FlowEvent e, LockSite inner) {
        return e.sites().stream()
                .map(sites::get)
                .filter(x -> x != null && x.function().operation().isRelease())
                .findFirst()
                .orElse(inner);
    }

    /** The root of the caller's argument or receiver a callee-relative path goes through, before aliases. */
    private String viaRoot(FlowEvent e, String relative) {
        String head = relative.contains(".") ? relative.substring(0, relative.indexOf('.')) : relative;
        String base;
        if (head.equals("#this")) {
            base = e.path();
        } else {
            int i = Integer.parseInt(head.substring(1));
            base = i < e.args().size() ? e.args().get(i) : null;
        }
        return base == null ? null : rootOf(base);
    }

    private void recordAt(PathFinding.Kind kind, LockSite release, SourceRegion at, String note) {
        if (at == null) {
            at = release.region();
        }
        releaseFindings.putIfAbsent(
                kind + "|" + release.id() + "|" + at,
                new PathFinding(
                        kind, null, release, at, note, List.of(new PathFinding.Step(at, "the release runs here"))));
    }

    private void record(PathFinding.Kind kind, LockSite release, FlowNode node, String note) {
        SourceRegion at = node.region() != null ? node.region() : release.region();
        String key = kind + "|" + release.id();
        releaseFindings.putIfAbsent(
                key,
                new PathFinding(
                        kind,
                        null,
                        release,
                        release.viaHelper() ? at : release.region(),
                        note,
                        List.of(new PathFinding.Step(at, "the release runs here"))));
    }

    private void call(FlowNode node, PathState s, Out o) {
        FlowEvent e = node.event();
        MethodSummary summary = analysis.resolve(e);
        List<String> touched = new ArrayList<>();
        if (e.path() != null) {
            touched.add(s.resolve(e.path()));
        }
        for (String a : e.args()) {
            if (a != null) {
                touched.add(s.resolve(a));
            }
        }
        if (summary != null) {
            // the callee's statements on this method's connections (a field's template, a parameter)
            // can fail there and abort the transaction open on them
            for (String x : summary.executes()) {
                String target = map(s, e, x);
                if (target != null) {
                    touched.add(target);
                    executedOn(target);
                }
            }
            // its transaction-level locks on them: judged with this method's transaction state
            for (Hold x : summary.xactLocks()) {
                LockSite site = sites.get(x.acquisition());
                String target = map(s, e, x.connection());
                if (site != null && target != null) {
                    String via = site.java() != null
                            ? site.java().typeName() + "." + site.java().methodName()
                            : CallingContexts.display(summaryOwner(e));
                    xactLock(node, s, target, site, via);
                }
            }
        }
        if (summary == null || summary.cases().isEmpty()) {
            if (!e.sites().isEmpty()) {
                String c = connectionArgument(s, e);
                lock(node, s, o, c, e.sites(), e.target(), null);
                return;
            }
            PathState t = e.target() == null ? s : assign(s, e.target(), null);
            if (!s.held().isEmpty() && !followedCallee(e)) {
                PathState.Mutable esc = t.edit();
                e.args().stream()
                        .filter(a -> a != null && !a.startsWith("$const") && holdsSomething(s, rootOf(a)))
                        .forEach(a -> {
                            esc.escaped.add(rootOf(a));
                            esc.escaped.add(rootOf(s.resolve(a))); // the object it names, whatever local named it
                        });
                // a lambda handed over takes what it captures with it (an executor's task that closes the lock), and
                // the value the receiver passes it when it reads its parameter (optional.ifPresent(lock -> ..))
                List<String> functions = e.args().stream()
                        .filter(a -> a != null && a.startsWith(FlowLowering.FUNCTION))
                        .toList();
                List<String> taken = new ArrayList<>();
                functions.forEach(a -> taken.addAll(graph.capturedNames(a)));
                if (e.path() != null && functions.stream().anyMatch(graph::readsItsParameter)) {
                    taken.add(e.path());
                }
                taken.stream().filter(r -> holdsSomething(s, rootOf(r))).forEach(r -> {
                    esc.escaped.add(rootOf(r));
                    esc.escaped.add(rootOf(s.resolve(r)));
                });
                t = esc.done(); // handed to code the analysis cannot see
            } else if (!s.held().isEmpty() && e.target() != null) {
                PathState.Mutable kept = t.edit();
                keepArguments(s, e, kept);
                t = kept.done();
            }
            o.all(t);
            o.thrown.add(abort(s, touched));
            return;
        }
        String asAcquisition = e.sites().stream()
                .filter(id -> sites.get(id) != null
                        && sites.get(id).function().operation().isAcquisition())
                .findFirst()
                .orElse(null);
        for (MethodSummary.Case c : summary.cases()) {
            PathState.Mutable m = s.edit();
            boolean aborted = false;
            for (MethodSummary.Kept x : summary.kept()) {
                String target = map(s, e, x.connection());
                if (target != null) {
                    kept(s, m, new MethodSummary.Kept(target, x.kind(), x.autoCommitOff()));
                }
            }
            for (String x : summary.ends()) {
                String target = map(s, e, x);
                if (target != null) {
                    ended(s, m, target);
                }
            }
            for (String closed : summary.closes()) {
                String target = map(s, e, closed);
                if (target != null) {
                    m.closed.put(target, node.id());
                    if (ConnectionKind.UNPOOLED.equals(s.kinds().get(target))) {
                        m.held.keySet().removeIf(k -> k.connection().equals(target));
                    }
                }
            }
            if (e.target() != null) {
                m.alias.remove(e.target());
                m.bools.remove(e.target());
            }
            for (Hold a : c.acquires()) {
                String target = map(s, e, a.connection());
                if (target == null) {
                    continue;
                }
                String via = viaRoot(e, a.connection());
                String id = asAcquisition != null ? asAcquisition : a.acquisition();
                acquiredHere.putIfAbsent(id, node.id());
                joinTransaction(m, target, id, asAcquisition != null);
                Hold h = new Hold(target, id);
                if (m.held.containsKey(h)) {
                    m.stacked.add(id);
                }
                m.take(h);
                m.failed.remove(id);
                if (via != null && !via.equals(rootOf(target))) {
                    m.owners.put(h, via);
                }
            }
            releasesHere |= !c.releases().isEmpty();
            for (Release r : c.releases()) {
                String target = map(s, e, r.connection());
                LockSite rel = sites.get(r.release());
                if (target == null || rel == null) {
                    continue;
                }
                if (target.startsWith("@") && s.closed().containsKey(target)) {
                    recordAt(
                            PathFinding.Kind.RELEASE_ON_OTHER_CONNECTION,
                            callRelease(e, rel),
                            node.region(),
                            "it runs on a connection this method already closed or returned to its pool, so it "
                                    + "cannot release the lock of the session that held it");
                    continue;
                }
                boolean matched = false;
                // the release as the caller writes it: a helper call's own site carries the caller's key
                LockSite relAt = callRelease(e, rel);
                Predicate<String> same = mayBeSame(s, target);
                for (Hold k : List.copyOf(m.held.keySet())) {
                    if (same.test(k.connection())
                            && (rel.function().operation() == LockOperation.RELEASE_ALL
                                    || sameLock(sites.get(k.acquisition()), relAt))) {
                        matched = true;
                        if (Transaction.ABORTED.equals(s.tx().get(k.connection()))
                                && summary.ends().stream()
                                        .noneMatch(x -> k.connection().equals(map(s, e, x)))) {
                            // (a release helper that ends the transaction itself, a rollback when its unlock failed,
                            // then the unlock again, does release)
                            m.stuck.add(k.acquisition()); // the unlock fails with 25P02 (F18): the hold stays
                            aborted = true;
                            continue;
                        }
                        beforeCommit(s, k, node, callRelease(e, rel), node.region());
                        released(m, k, node);
                    }
                }
                // a release helper called on a connection this method was given, releasing no hold of this method's
                // own, releases its caller's: this method is a release helper too (releaseAndClose(c, held) calling
                // unlock(c, ns, id))
                String outer = matched ? null : relative(target);
                if (outer != null) {
                    m.outer.add(new Release(outer, r.release()));
                }
                if (!matched && !summary.guarded() && rel.function().operation() == LockOperation.RELEASE) {
                    for (String f : s.failed()) {
                        if (sameLock(sites.get(f), relAt) && !releasesInOwnLoop(node.id(), f)) {
                            recordAt(
                                    PathFinding.Kind.RELEASE_WITHOUT_HOLD,
                                    callRelease(e, rel),
                                    node.region(),
                                    "it also runs when " + sites.get(f).display() + " returned false or threw, and "
                                            + "then releases a hold this code never took (another hold of the same "
                                            + "key on this session, if any, is released instead)");
                        }
                    }
                }
            }
            for (MethodSummary.FieldBinding f : c.fields()) {
                String field = map(s, e, f.field());
                String value = map(s, e, f.source());
                if (field != null && value != null) {
                    m.alias.put(field, value);
                }
            }
            for (MethodSummary.FieldFlag f : c.flags()) {
                String field = map(s, e, f.field());
                if (field != null) {
                    m.alias.remove(field);
                    m.bools.put(field, f.value()); // the flag the callee stored its outcome in
                }
            }
            String field = c.returnsField() == null || e.target() == null ? null : map(s, e, c.returnsField());
            if (field != null && !field.equals(e.target())) {
                // an accessor of the receiver's connection: the caller's statements run on that field's connection,
                // which keeps the auto-commit the accessor set when it opened it (on every exit: one connection)
                m.alias.put(e.target(), field);
                MethodSummary.Kept k = summary.keptBy(c.returnsField());
                if (k != null) {
                    kept(s, m, new MethodSummary.Kept(field, k.kind(), k.autoCommitOff()));
                }
            } else if (c.returnsNew() != null && e.target() != null) {
                String identity = "@" + node.id();
                m.alias.put(e.target(), identity);
                m.kinds.put(identity, c.returnsNew());
                m.closed.remove(identity);
                for (String h : c.returnHeld()) {
                    String id = asAcquisition != null ? asAcquisition : h;
                    acquiredHere.putIfAbsent(id, node.id());
                    m.take(new Hold(identity, id));
                }
            }
            if (e.target() != null) {
                for (MethodSummary.HeldField f : c.heldFields()) {
                    // the returned lock handle's connection, held: released through the handle's methods
                    String identity = "@" + node.id() + "$" + f.field();
                    m.alias.put(e.target() + "." + f.field(), identity);
                    m.kinds.put(identity, f.kind());
                    m.closed.remove(identity);
                    String id = asAcquisition != null ? asAcquisition : f.acquisition();
                    acquiredHere.putIfAbsent(id, node.id());
                    Hold h = new Hold(identity, id);
                    m.take(h);
                    m.owners.put(h, rootOf(e.target()));
                }
            }
            if (c.returnValue() != null && e.target() != null) {
                m.bools.put(e.target(), c.returnValue());
            } else if (e.target() != null && !s.held().isEmpty()) {
                keepArguments(s, e, m);
            }
            if (e.target() != null) {
                // the returned object keeps the caller's connection its lock is on (return new StreamLock(connection,
                // key) after locking on it): the lock goes wherever that object goes
                for (MethodSummary.FieldBinding b : c.returnBindings()) {
                    String source = map(s, e, b.source());
                    if (source != null) {
                        m.alias.put(rootOf(e.target()) + "." + b.field(), source);
                    }
                }
            }
            if (Boolean.FALSE.equals(c.returnValue())
                    && asAcquisition != null
                    && c.acquires().isEmpty()) {
                m.failed.add(asAcquisition);
            }
            PathState after = m.done();
            if (aborted) {
                o.thrown.add(after); // only the exception path goes on
                continue;
            }
            o.all(after);
            if (!c.releases().isEmpty()) {
                // a release helper that throws is not the bug this analysis looks for; but a method that runs
                // statements on the caller's connection before it releases (work, then the unlock, no finally) can
                // fail in that work and leave the caller's lock held
                o.thrown.add(summary.executes().isEmpty() ? after : abort(s, touched));
            }
        }
        // an exception path keeps the caller's holds unless every exit releases; and a callee that takes a lock of
        // its own and can throw while holding it (summary.thrown) leaves that lock behind whatever its exits do
        if (summary.cases().stream().anyMatch(c -> c.releases().isEmpty())
                || !summary.thrown().isEmpty()) {
            PathState.Mutable t = abort(s, touched).edit();
            if (asAcquisition != null && summary.executes().isEmpty()) {
                // a lock helper that runs nothing but its lock statement throws only when that statement fails: the
                // session is gone, and the locks it held on that connection with it (see lock())
                for (MethodSummary.Case c : summary.cases()) {
                    for (Hold a : c.acquires()) {
                        String target = map(s, e, a.connection());
                        if (target != null) {
                            t.held.keySet().removeIf(k -> k.connection().equals(target));
                        }
                    }
                }
            }
            for (String x : summary.ends()) {
                String target = map(s, e, x);
                if (target != null && Transaction.ABORTED.equals(s.tx().get(target))) {
                    // ending an aborted transaction (a rollback; a commit, which PostgreSQL answers with a rollback)
                    // and throwing: either it ended, or the connection broke and its session with its locks went
                    t.tx.put(target, reopened(s, target));
                }
            }
            for (String f : summary.thrownFailed()) {
                t.failed.add(asAcquisition != null ? asAcquisition : f);
            }
            for (Hold a : summary.thrown()) {
                String target = map(s, e, a.connection());
                if (target != null) {
                    String id = asAcquisition != null ? asAcquisition : a.acquisition();
                    if (asAcquisition == null && !returnsHolding(summary, a.acquisition())) {
                        // only the callee's exception carries this hold out: its missing finally is the bug
                        leakedByCallee.putIfAbsent(id, CallingContexts.display(summaryOwner(e)));
                    }
                    acquiredHere.putIfAbsent(id, node.id());
                    Hold h = new Hold(target, id);
                    t.take(h);
                    String via = viaRoot(e, a.connection());
                    if (via != null && !via.equals(rootOf(target))) {
                        t.owners.put(h, via);
                    }
                }
            }
            o.thrown.add(t.done()); // an exception out of the callee may leave its hold behind
        }
    }

    /**
     * A connection an object keeps, reached through its accessor ({@code c} a path of this method): its kind, and its
     * auto-commit when the accessor turned it off, so every statement on it runs in a transaction that a failed
     * statement aborts (F18). A kind or transaction state already known on the path stays.
     */
    private void kept(PathState s, PathState.Mutable m, MethodSummary.Kept k) {
        String c = k.connection();
        if (!s.kinds().containsKey(c)) {
            m.kinds.put(c, k.kind());
        }
        if (k.autoCommitOff() && !s.tx().containsKey(c)) {
            // like a pool's: every statement is in a transaction a failure aborts, but where the code commits it
            // is the object's business, so an unlock in it is not judged against a commit (RELEASE_BEFORE_COMMIT)
            m.tx.put(c, Transaction.POOL);
        }
        String rel = relative(c);
        if (rel != null) {
            kept.add(new MethodSummary.Kept(rel, k.kind(), k.autoCommitOff()));
        }
    }

    /**
     * A commit or rollback of {@code c}'s transaction: it starts afresh, and no write in it is pending. Called on an
     * object that is not a connection with a transaction ({@code db.commit()} on a database wrapper), it ends the
     * transactions of the connections that object holds ({@code db.connection}).
     */
    private void ended(PathState s, PathState.Mutable m, String ended) {
        for (String c : withKept(ended, s.tx().keySet())) {
            if (m.tx.containsKey(c)) {
                m.tx.put(c, reopened(s, c)); // a rollback (or a commit of an aborted one) starts afresh
            }
            for (Hold k : s.held().keySet()) {
                if (k.connection().equals(c)) {
                    m.worked.remove(Work.own(k.acquisition())); // committed, or rolled back: no write of it is pending
                }
            }
            m.worked.removeIf(w -> c.equals(w.connection())); // the same, for work in this connection's transaction
            String rel = relative(c);
            if (rel != null) {
                ends.add(rel);
            }
        }
    }

    /**
     * @param path  what a commit, rollback or close is written on
     * @param known the connections the path knows something of (their kinds, their transactions)
     * @return {@code path}, and when it is not one of {@code known}, the known connections under it: a wrapper's
     *     {@code commit()} or {@code close()} ({@code db.commit()}) acts on the connections it keeps
     *     ({@code db.connection}); in name order
     */
    private static List<String> withKept(String path, Set<String> known) {
        List<String> out = new ArrayList<>(List.of(path));
        if (!known.contains(path)) {
            known.stream().filter(k -> k.startsWith(path + ".")).sorted().forEach(out::add);
        }
        return out;
    }

    /**
     * A project method may keep what it is passed in the object it returns ({@code Ticket.holding(fence, items)},
     * {@code EventStream.ofWithState(lock, events)}): each lock object or connection passed in that holds a lock
     * goes wherever the returned object goes. Recorded as the alias {@code result.$argI} naming the argument's
     * object, which {@code ExitJudgement.droppedLocal} reads.
     */
    private void keepArguments(PathState s, FlowEvent e, PathState.Mutable m) {
        for (int i = 0; i < e.args().size(); i++) {
            String a = e.args().get(i);
            if (a != null && !a.startsWith("$const") && holdsSomething(s, rootOf(a))) {
                m.alias.put(rootOf(e.target()) + ".$arg" + i, rootOf(s.resolve(a)));
            }
        }
    }

    /**
     * Whether a call names a method of the project the analysis followed, or left alone because it can
     * do nothing a lock depends on (it takes, releases and stores no connection): such a method keeps
     * nothing it is passed, so its arguments do not escape. A method left out over a budget may.
     */
    private boolean followedCallee(FlowEvent e) {
        List<MethodFlow> targets = graph.resolve(e);
        return !targets.isEmpty() && targets.stream().noneMatch(f -> analysis.leftOut.containsKey(f.key()));
    }

    /** The connection a helper call without a summary acts on: its first argument naming a known connection. */
    private String connectionArgument(PathState s, FlowEvent e) {
        for (String a : e.args()) {
            if (a != null) {
                String c = s.resolve(a);
                if (s.kinds().containsKey(c)) {
                    return c;
                }
            }
        }
        String receiver = e.path() == null ? null : s.resolve(e.path());
        if (receiver != null && receiver.startsWith("this.")) {
            return receiver; // a repository or template field: the object's own, joined to its transaction
        }
        return "?" + (receiver == null ? "" : receiver);
    }

    /** Maps a callee-relative path ({@code #0.conn}, {@code #this.c}) to the caller's connection identity. */
    private String map(PathState s, FlowEvent e, String relative) {
        int dot = relative.indexOf('.');
        String head = dot < 0 ? relative : relative.substring(0, dot);
        String rest = dot < 0 ? "" : relative.substring(dot);
        String base;
        if (head.equals("#this")) {
            boolean constructor = !e.callee().isEmpty() && e.callee().get(0).contains(".<init>/");
            base = constructor ? e.target() : e.path() == null ? "this" : s.resolve(e.path());
        } else {
            int i = Integer.parseInt(head.substring(1));
            if (i >= e.args().size() || e.args().get(i) == null) {
                return null;
            }
            base = s.resolve(e.args().get(i));
        }
        return base == null ? null : s.resolve(base + rest);
    }

    /** Records that a statement runs on {@code c} (a path of this method), for {@link MethodSummary#executes()}. */
    private void executedOn(String c) {
        String rel = c == null ? null : relative(c);
        if (rel != null) {
            executes.add(rel);
        }
    }

    MethodSummary summary() {
        return SummaryBuilder.build(
                flow,
                in.get(MethodFlow.EXIT),
                in.get(MethodFlow.EXCEPTIONAL_EXIT),
                failedBeforeThrow,
                executes,
                xactLocks,
                ends,
                kept);
    }

    /** @return {@code c} relative to this method, as {@link SummaryBuilder#relative} */
    private String relative(String c) {
        return SummaryBuilder.relative(flow, c);
    }

    /** Collects the path findings of this method into {@code out}, keyed so each is reported once. */
    void check(Map<String, PathFinding> out) {
        ExitJudgement judgement = new ExitJudgement(
                flow,
                sites,
                in.get(MethodFlow.EXIT),
                in.get(MethodFlow.EXCEPTIONAL_EXIT),
                acquiredHere,
                releasedAt,
                new ExitJudgement.Facts(
                        called.contains(flow.key()),
                        carriedOn.contains(flow.key()),
                        transactionCallers.get(flow.key()),
                        poolOff,
                        keyPerIteration,
                        releasesHere ? Map.of() : leakedByCallee));
        Map<String, PathFinding> best = judgement.judge();
        handedOver.addAll(judgement.handedOver());
        for (PathFinding f : best.values()) {
            // a callee's leak reached through several callers is one finding at the callee, naming every caller
            String key = f.kind() + "|" + f.at() + "|"
                    + (f.acquisition() == null ? "" : f.acquisition().id());
            if (f.acquisition() != null
                    && leakedByCallee.containsKey(f.acquisition().id())) {
                out.merge(key, f, PathFinding::withStepsOf);
            } else {
                out.putIfAbsent(key, f);
            }
        }
        for (PathFinding f : releaseFindings.values()) {
            out.putIfAbsent(f.kind() + "|" + f.at() + "|" + f.release().id(), f);
        }
        xactEndsBeforeWork();
        for (PathFinding f : xactFindings.values()) {
            out.putIfAbsent(f.kind() + "|" + f.at() + "|" + f.acquisition().id(), f);
        }
        workWithoutHold();
        for (PathFinding f : workFindings) {
            out.putIfAbsent(f.kind() + "|" + f.at() + "|" + f.acquisition().id(), f);
        }
    }
}
