package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.flow.PathState.Hold;
import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The exit judgement of the lock-state analysis: which session-level holds left in the path states at a
 * method's exits are bugs of this method ({@link PathFinding.Kind#HELD_ON_RETURN},
 * {@link PathFinding.Kind#HELD_ON_EXCEPTION}, {@link PathFinding.Kind#STACKED},
 * {@link PathFinding.Kind#ABORTED_UNLOCK}, {@link PathFinding.Kind#POOLED_CLOSE},
 * {@link PathFinding.Kind#FAILURE_SWALLOWED}) and which are handed over to a caller or to the object that owns
 * the connection (its summary carries them on).
 */
final class ExitJudgement {

    /**
     * What the judgement knows of the method besides its exit states.
     *
     * @param called            some analysed call resolves to the method
     * @param carriedOn         some call of it is followed by more work in its caller
     * @param transactionCaller the caller whose transaction this copy of the method runs in, or null
     * @param poolAutoCommitOff the connections the method borrowed from pools that hand them out with auto-commit
     *                          off, by identity, with the setting that says so
     * @param keyPerIteration   acquisition ids whose key changes with each iteration of an enclosing loop
     * @param leakedByCallee    acquisition ids that only a callee's exception carries into the method (the callee
     *                          locks, can throw before its unlock, and never returns holding the lock), with the
     *                          callee's name, when the method releases no lock itself (a caller that releases the
     *                          callee's lock object in its own finally owns the failure): reported where the
     *                          callee takes the lock, where the fix goes
     */
    record Facts(
            boolean called,
            boolean carriedOn,
            CallingContexts.Caller transactionCaller,
            Map<String, AutoCommitSetting> poolAutoCommitOff,
            Set<String> keyPerIteration,
            Map<String, String> leakedByCallee) {
        /** Copies the collections. */
        Facts {
            poolAutoCommitOff = Map.copyOf(poolAutoCommitOff);
            keyPerIteration = Set.copyOf(keyPerIteration);
            leakedByCallee = Map.copyOf(leakedByCallee);
        }
    }

    private final MethodFlow flow;
    private final Map<String, LockSite> sites;
    private final Set<PathState> exits;
    private final Set<PathState> exceptionalExits;
    private final Map<String, Integer> acquiredHere;
    private final Map<String, Set<Integer>> releasedAt;
    private final Facts facts;
    private final Set<String> handedOver = new TreeSet<>();

    /**
     * @param flow             the method
     * @param sites            lock sites by id
     * @param exits            the path states at the normal exit
     * @param exceptionalExits the path states at the exceptional exit
     * @param acquiredHere     acquisition id to the node that took it in this method
     * @param releasedAt       acquisition id to the nodes that released it in this method
     * @param facts            what else the judgement reads
     */
    ExitJudgement(
            MethodFlow flow,
            Map<String, LockSite> sites,
            Set<PathState> exits,
            Set<PathState> exceptionalExits,
            Map<String, Integer> acquiredHere,
            Map<String, Set<Integer>> releasedAt,
            Facts facts) {
        this.flow = flow;
        this.sites = sites;
        this.exits = exits;
        this.exceptionalExits = exceptionalExits;
        this.acquiredHere = acquiredHere;
        this.releasedAt = releasedAt;
        this.facts = facts;
    }

    /**
     * @return the findings, at most one leak and one mismatch per acquisition (keyed {@code leak|id},
     *     {@code mismatch|id}, {@code swallowed|id}): of several kinds for one hold, the most specific
     */
    Map<String, PathFinding> judge() {
        Map<String, PathFinding> best = new TreeMap<>();
        exits(exits, false, best);
        exits(exceptionalExits, true, best);
        swallowed(best);
        return best;
    }

    /** @return acquisition ids held at an exit by a connection the caller or the object owns (valid after {@link #judge}) */
    Set<String> handedOver() {
        return handedOver;
    }

    /**
     * A blocking acquisition of this method whose failure a {@code catch} here swallows: the method returns
     * normally, without the lock and without a {@code false} that says so, and it has callers, which go on
     * as if it held the lock (RULES.md lock-failure-ignored). A session-level try-lock whose failure the method
     * answers with {@code true} is the same bug.
     */
    private void swallowed(Map<String, PathFinding> best) {
        if (!facts.called()) {
            return; // no caller here: a failure swallowed and followed by work in this method is the shape
            // analysis's
        }
        if (!facts.carriedOn()) {
            return; // no caller does anything after the call: the work is this method's (a callback it runs
            // only when the lock was taken), and its own paths judge it
        }
        for (PathState s : exits) {
            Boolean returned = s.bools().get("$return");
            if (Boolean.FALSE.equals(returned)) {
                continue;
            }
            for (String id : s.threw()) {
                LockSite site = sites.get(id);
                Integer where = acquiredHere.get(id);
                if (site == null || where == null || s.holds(id)) {
                    continue;
                }
                boolean tryLock = site.function().operation() == LockOperation.TRY_ACQUIRE;
                if (tryLock && !Boolean.TRUE.equals(returned)) {
                    continue; // a try-lock's failure is swallowed only by answering true, "taken"
                }
                SourceRegion at = site.viaHelper() ? flow.nodes().get(where).region() : site.region();
                if (at == null) {
                    continue;
                }
                best.putIfAbsent(
                        "swallowed|" + id,
                        new PathFinding(
                                PathFinding.Kind.FAILURE_SWALLOWED,
                                site,
                                null,
                                at,
                                CallingContexts.display(flow)
                                                .substring(flow.typeName().length() + 1)
                                        + (tryLock
                                                ? "() catches the failure of the try-lock and returns true, the answer"
                                                        + " for a lock taken, so its callers run the work without the"
                                                        + " lock"
                                                : "() catches the failure of the lock and returns normally, so its"
                                                        + " callers carry on into the work without the lock"),
                                List.of(
                                        new PathFinding.Step(at, "the acquisition whose failure is swallowed"),
                                        new PathFinding.Step(
                                                flow.region() != null ? flow.region() : at,
                                                "the method that returns normally without the lock"))));
            }
        }
    }

    private void exits(Set<PathState> states, boolean exceptional, Map<String, PathFinding> best) {
        for (PathState s : states) {
            for (Map.Entry<Hold, Integer> h : s.held().entrySet()) {
                String c = h.getKey().connection();
                String id = h.getKey().acquisition();
                LockSite site = sites.get(id);
                Integer where = acquiredHere.get(id);
                if (site == null || where == null) {
                    continue;
                }
                boolean scoped = releasedAt.containsKey(id);
                PathFinding.Kind kind = null;
                String note;
                String r = LockStateAnalysis.rootOf(c);
                if (s.stuck().contains(id)) {
                    kind = PathFinding.Kind.ABORTED_UNLOCK;
                    boolean spring = r.equals("this") && flow.modifiers().contains("transactional");
                    CallingContexts.Caller caller = facts.transactionCaller();
                    note = "its unlock runs after a failed statement has aborted "
                            + (caller != null
                                    ? "the transaction of its caller " + caller.method()
                                    : spring
                                            ? "the transaction Spring runs this method in (@Transactional)"
                                            : LockStateAnalysis.inPoolTransaction(facts.poolAutoCommitOff(), s, c)
                                                    ? "the transaction its pooled connection is in (auto-commit"
                                                            + " is off: "
                                                            + facts.poolAutoCommitOff()
                                                                    .get(c)
                                                                    .display() + ")"
                                                    : "the manual transaction on this connection")
                            + ": it fails with SQLSTATE 25P02 and releases nothing, a ROLLBACK does not release a"
                            + " session-level lock either, and the lock stays held until the database session ends. "
                            + (spring
                                    ? "Take and release the lock outside the transaction (a caller without"
                                            + " @Transactional), or use pg_advisory_xact_lock"
                                    : "Roll back first and then unlock, or unlock in autocommit");
                } else if (c.startsWith("@") && s.closed().containsKey(c)) {
                    if (!ConnectionKind.POOLED.equals(s.kinds().get(c))) {
                        continue;
                    }
                    if (cancelled(s)) {
                        kind = PathFinding.Kind.HELD_ON_CANCEL;
                        note = "the chain can be cancelled after the lock (" + cancellation() + "), which skips the"
                                + " unlock and its error handlers and runs only the cleanup, which returns the pooled"
                                + " connection to its pool still holding the lock";
                    } else {
                        kind = PathFinding.Kind.POOLED_CLOSE;
                        note = "the connection comes from a pool and is closed with the lock still held: closing a "
                                + "pooled connection returns it to the pool with its session, and the lock, alive";
                    }
                } else if (c.startsWith("@") && c.equals(s.returned())) {
                    continue; // handed to the caller with the connection: the callers' paths decide
                } else if (exceptional
                        && scoped
                        && (r.equals("this") || flow.params().contains(r))
                        && facts.called()
                        && !s.owners().containsKey(h.getKey())
                        && !tryAcquirer()) {
                    handedOver.add(id);
                    continue; // the callers' paths carry it on to their finally blocks
                } else if (!scoped && droppedLocal(s, s.owners().getOrDefault(h.getKey(), c), exceptional)) {
                    kind = exceptional ? PathFinding.Kind.HELD_ON_EXCEPTION : PathFinding.Kind.HELD_ON_RETURN;
                    note = "the lock object holding it is local to this method and nothing here releases it";
                } else if (!scoped) {
                    handedOver.add(id);
                    continue; // the caller's or the object's obligation: its summary carries it
                } else if (!exceptional
                        && c.startsWith("@")
                        && (s.fieldNaming(c) != null
                                || (s.owners().containsKey(h.getKey())
                                        && s.fieldNaming(s.owners().get(h.getKey())) != null))) {
                    handedOver.add(id);
                    continue; // a connection opened here, or the lock object holding one, kept in a field, lock and
                    // all: the object's other methods release it (a leader that keeps its session; this method
                    // unlocks when it steps down)
                } else if (!exceptional
                        && (Boolean.TRUE.equals(s.bools().get("$return")) || returnsObjectElseNull(s))
                        && (r.equals("this") || flow.params().contains(r))) {
                    handedOver.add(id);
                    continue; // returns true (or an object where others return null) holding it: a try-acquire
                    // whose caller or object now owns the lock
                } else if (facts.keyPerIteration().contains(id) && (!exceptional || releasedOnFailure(where, id))) {
                    continue; // a loop of locks and a loop of unlocks: how often each runs is not followed
                } else if (exceptional && s.stacked().contains(id) && releasedOnFailure(where, id)) {
                    continue; // held because it was taken twice, not for want of a finally: STACKED says it
                } else if (s.stacked().contains(id) && !exceptional) {
                    kind = PathFinding.Kind.STACKED;
                    note = "it can be taken more than once on this connection before the single unlock, and "
                            + "session-level locks stack: the lock stays held after the unlock";
                } else if (cancelled(s)) {
                    kind = PathFinding.Kind.HELD_ON_CANCEL;
                    note = "the chain can be cancelled after the lock (" + cancellation() + "), and a cancelled chain"
                            + " runs neither its later steps nor its error handlers (onErrorResume): only doFinally"
                            + " and usingWhen's cleanup run";
                } else {
                    kind = exceptional ? PathFinding.Kind.HELD_ON_EXCEPTION : PathFinding.Kind.HELD_ON_RETURN;
                    boolean inFinally = releasedAt.get(id).stream()
                            .anyMatch(n -> flow.nodes().get(n).inFinally());
                    note = exceptional
                            ? (inFinally
                                    ? "code that can throw runs between the lock and the try whose finally unlocks"
                                    : "its unlock is not in a finally block, so an exception before it skips it")
                            : "a path returns or leaves the method without reaching the unlock";
                }
                SourceRegion at = flow.nodes().get(where).region();
                if (at == null) {
                    at = site.region();
                }
                if (!site.viaHelper() && flow.nodes().get(where).event().kind() == FlowEvent.Kind.LOCK) {
                    at = site.region();
                }
                String callee = facts.leakedByCallee().get(id);
                boolean calleeLeaks = callee != null
                        && (kind == PathFinding.Kind.POOLED_CLOSE
                                || kind == PathFinding.Kind.HELD_ON_EXCEPTION
                                || kind == PathFinding.Kind.HELD_ON_RETURN);
                SourceRegion call = at;
                if (calleeLeaks) {
                    // the fix goes where the callee locks and unlocks without a finally: reported there, once for
                    // all its callers, each a step of the path
                    at = site.region();
                    note = callee + " can throw while it holds the lock (its unlock is not in a finally block), and "
                            + (kind == PathFinding.Kind.POOLED_CLOSE
                                    ? "its caller " + CallingContexts.display(flow) + " then closes the pooled"
                                            + " connection with the lock still held"
                                    : "its caller " + CallingContexts.display(flow) + " carries the lock on");
                }
                List<PathFinding.Step> steps = new ArrayList<>();
                steps.add(new PathFinding.Step(at, "the lock is taken here"));
                if (site.viaHelper()
                        && site.declarationRegion() != null
                        && !site.declarationRegion().equals(at)) {
                    steps.add(new PathFinding.Step(site.declarationRegion(), "the lock statement the helper runs"));
                }
                if (calleeLeaks && call != null && !call.equals(at)) {
                    steps.add(new PathFinding.Step(
                            call, "a call of " + callee + " that an exception leaves holding the lock"));
                }
                for (Integer n : releasedAt.getOrDefault(id, Set.of())) {
                    FlowNode rn = flow.nodes().get(n);
                    SourceRegion rr = releaseRegion(rn);
                    if (rr != null && steps.stream().noneMatch(x -> x.region().equals(rr))) {
                        steps.add(new PathFinding.Step(
                                rr,
                                switch (kind) {
                                    case HELD_ON_EXCEPTION ->
                                        rn.inFinally()
                                                ? "unlock in a finally that starts too late"
                                                : "unlock that an exception would skip";
                                    case HELD_ON_RETURN -> "unlock that this path does not reach";
                                    case HELD_ON_CANCEL -> "unlock that a cancelled chain does not run";
                                    case ABORTED_UNLOCK -> "unlock that fails in the aborted transaction";
                                    case STACKED -> "the one unlock, which releases one hold";
                                    default -> "unlock that runs too late, or not at all on this path";
                                }));
                    }
                }
                if (cancelled(s)) {
                    for (FlowNode n : flow.nodes()) {
                        if (cancels(n)
                                && steps.stream().noneMatch(x -> x.region().equals(n.region()))) {
                            steps.add(new PathFinding.Step(n.region(), "the chain is cancelled here"));
                        }
                    }
                }
                if (c.startsWith("@")
                        && s.closed().containsKey(c)
                        && flow.nodes().get(s.closed().get(c)).region() != null) {
                    steps.add(new PathFinding.Step(
                            flow.nodes().get(s.closed().get(c)).region(), "the connection is closed here"));
                }
                PathFinding f = new PathFinding(kind, site, null, at, note, steps);
                String rule = kind == PathFinding.Kind.STACKED ? "mismatch" : "leak";
                if (kind == PathFinding.Kind.STACKED) {
                    steps.set(0, new PathFinding.Step(at, "the lock is taken here, more than once on one path"));
                }
                PathFinding old = best.get(rule + "|" + id);
                if (old == null || rank(kind) > rank(old.kind())) {
                    best.put(rule + "|" + id, f);
                }
            }
        }
    }

    /**
     * @return whether a failure of the acquisition node {@code lock} reaches a release of {@code id} before the
     *     method ends: the try whose finally (or catch) unlocks covers the acquisition itself
     */
    private boolean releasedOnFailure(int lock, String id) {
        Set<Integer> releases = releasedAt.getOrDefault(id, Set.of());
        return flow.reaches(flow.nodes().get(lock).onException(), true, releases::contains);
    }

    /**
     * @return true when this exit returns an object and another normal exit returns null: the caller tells by the
     *     null whether the method kept the lock ({@code claim()} answering the claimed task, or null)
     */
    private boolean returnsObjectElseNull(PathState s) {
        return s.bools().containsKey(MethodRun.RETURNS_OBJECT)
                && exits.stream().anyMatch(st -> st.bools().containsKey(MethodRun.RETURNS_NULL));
    }

    /**
     * Whether a hold on {@code c} is dropped at this exit because the object or connection it lives on
     * is a local of this method that never left it: a lock object created here, or a connection opened
     * here and neither closed nor returned. Only normal exits count: on an exception path the caller
     * cannot release either, but a lock object's owner often unlocks in its own finally.
     */
    private boolean droppedLocal(PathState s, String c, boolean exceptional) {
        String r = LockStateAnalysis.rootOf(c);
        if (exceptional
                || r.equals("this")
                || flow.params().contains(r)
                || r.startsWith("?")
                || s.escaped().contains(r)
                || c.equals(s.returned())) {
            return false;
        }
        String identity = s.resolve(c);
        for (Map.Entry<String, String> a : s.alias().entrySet()) {
            // stored in an object that left the method (return new Lock(connection, key)): it goes with it
            if ((a.getValue().equals(r) || a.getValue().equals(identity))
                    && s.escaped().contains(LockStateAnalysis.rootOf(a.getKey()))) {
                return false;
            }
        }
        if (s.owners().containsValue(c)) {
            return true; // a lock object local to this method that never left it
        }
        return r.startsWith("$") && !r.startsWith("$const") && c.contains(".");
    }

    /**
     * @return true when some normal exit returns {@code true} while holding a lock: a try-acquire whose
     *     {@code true} hands the lock over. An exception out of it hands nothing over, since the caller
     *     never learns it holds the lock; so its exception paths are judged here.
     */
    private boolean tryAcquirer() {
        return exits.stream()
                .anyMatch(st -> Boolean.TRUE.equals(st.bools().get("$return"))
                        && !st.held().isEmpty());
    }

    /** @return where a release node's unlock is written: the function's name in its SQL, or the call */
    private SourceRegion releaseRegion(FlowNode n) {
        if (n.event().kind() == FlowEvent.Kind.LOCK) {
            for (String id : n.event().sites()) {
                LockSite site = sites.get(id);
                if (site != null && site.function().operation().isRelease()) {
                    return site.region();
                }
            }
        }
        return n.region();
    }

    /**
     * @return true when {@code s} is the state of an exit reached by cancelling a Reactor chain (exceptional after a
     *     {@code timeout}, normal after a {@code take} or {@code takeUntilOther})
     */
    private static boolean cancelled(PathState s) {
        return s.bools().entrySet().stream()
                .anyMatch(b -> b.getKey().startsWith(FlowLowering.CANCELLED) && b.getValue());
    }

    /** @return true for the node where a lowered cancellation starts, when it has a region */
    private static boolean cancels(FlowNode n) {
        return n.event().kind() == FlowEvent.Kind.ASSIGN
                && n.event().target() != null
                && n.event().target().startsWith(FlowLowering.CANCELLED)
                && n.region() != null;
    }

    /** @return the method's cancelling operators and their lines: {@code timeout(..) at line 12} */
    private String cancellation() {
        List<String> at = new ArrayList<>();
        for (FlowNode n : flow.nodes()) {
            String text = cancels(n)
                    ? n.event().target().substring(FlowLowering.CANCELLED.length()) + "(..) at line "
                            + n.region().startLine()
                    : null;
            if (text != null && !at.contains(text)) {
                at.add(text);
            }
        }
        return String.join(", ", at);
    }

    /** @return how specific a kind is: of several found for one hold, the highest is reported */
    private static int rank(PathFinding.Kind k) {
        return switch (k) {
            case HELD_ON_RETURN -> 1;
            case HELD_ON_EXCEPTION -> 2;
            case HELD_ON_CANCEL -> 3;
            case POOLED_CLOSE -> 4;
            case ABORTED_UNLOCK -> 5;
            default -> 3;
        };
    }
}
