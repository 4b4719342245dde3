package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Copies of method graphs for the contexts they are called in, made once before the lock-state fixpoint so
 * that a method called from two contexts gets two summaries and two verdicts:
 *
 * <ol>
 *   <li><b>Advice.</b> {@code @Around} advice an annotation selects runs around the annotated method where a call
 *       goes through the proxy, and not where it is a call on {@code this} ({@link AspectAdvice}).
 *   <li><b>Callbacks.</b> A call that passes a lambda or method reference ({@code runLocked(k, () -> work())})
 *       to a method that runs its parameter ({@code work.run()}) calls a copy of that method in which the
 *       parameter's call runs the lambda's graph: the lambda's statements, locks and commits happen in the
 *       callee's state, between its lock and its unlock. One level deep: a copy does not bind the lambdas it
 *       passes on.
 *   <li><b>The caller's transaction.</b> A method Spring or JTA runs in a transaction ({@code transactional}
 *       among its modifiers) runs every method it calls in that transaction (it is bound to the thread), unless
 *       the callee declares its own ({@code @Transactional} with any propagation) or runs elsewhere
 *       ({@code @Async}). Such a call calls a copy of the callee marked {@code transactional}, transitively up
 *       to {@link #MAX_DEPTH} calls deep; the copy's findings name the transactional caller at the top of
 *       the chain (the method or framework call that opened the transaction) as the one whose context makes
 *       them a bug.
 * </ol>
 *
 * A lambda handed to a framework method that runs it in a transaction of its own ({@link
 * Role#RUNS_IN_TRANSACTION}: {@code TransactionTemplate.execute}, JDBI {@code inTransaction}, jOOQ
 * {@code transactionResult}, Vert.x {@code withTransaction}) is copied the same way, with the framework call as
 * its caller; the caller's own analysis still treats the framework call as a library call.
 *
 * <p>Only methods that can reach a lock event (a lock site, a lock helper's call, or a call of such a method by
 * name) are copied, at most {@link #MAX_COPIES} times each.
 */
final class CallingContexts {

    /** Calls deep a caller's transaction is followed. */
    static final int MAX_DEPTH = 4;
    /** Copies of one method, over every context. */
    static final int MAX_COPIES = 8;

    /**
     * A modifier of a lambda copy whose first parameter is the handle or connection of the transaction it runs
     * in (JDBI's {@code h -> ..} of {@code inTransaction}, Vert.x's {@code client -> ..} of
     * {@code withTransaction}): {@link LockStateAnalysis} starts it with that transaction open.
     */
    static final String HANDLE_PARAMETER = "transactionalHandle";

    /** Receivers whose transaction callbacks receive the transaction's handle first. */
    private static final Set<String> HANDLE_IN_TRANSACTION =
            Set.of("Jdbi", "Handle", "DSLContext", "Pool", "PgPool", "JDBCPool", "MySQLPool");

    private static final ApiCatalog API = ApiCatalog.standard();

    /** Methods of a functional interface's parameter that do not run it. */
    private static final Set<String> NOT_RUNNING =
            Set.of("equals", "hashCode", "toString", "andThen", "compose", "negate", "and", "or", "getClass");

    /** Annotations by which a callee leaves its caller's transaction or thread. */
    private static final Set<String> OWN_CONTEXT =
            Set.of("@Transactional", "@Async", "@TransactionalEventListener", "@Scheduled", "transactional");

    /**
     * A caller whose context a copy runs in.
     *
     * @param method   the caller's name, {@code Type.method}, or for a callback the framework call and the
     *                 method it is in, {@code TransactionTemplate.execute in Type.method}
     * @param at       the call
     * @param callback for a callback, the call as written and where ({@code tx.execute(...) callback in
     *                 Type.method}); null for a method's call
     */
    record Caller(String method, SourceRegion at, String callback) {}

    /**
     * The graphs to analyse.
     *
     * @param flows              the project's graphs, some with calls that now name a copy, then the copies
     * @param transactionCallers for each copy run in a caller's transaction, by the copy's key, that caller
     * @param alwaysInTransaction keys of the methods every run of which is in a transaction: their own, or,
     *                            for a method with callers, that of each caller (a greatest fixpoint over the
     *                            calls the project makes; a method no scanned code calls is an entry point)
     * @param bypasses           calls on {@code this} of methods an {@code @Around} advice takes a lock around, which
     *                           skip the advice ({@link AspectAdvice})
     */
    record Expanded(
            List<MethodFlow> flows,
            Map<String, Caller> transactionCallers,
            Set<String> alwaysInTransaction,
            List<AspectAdvice.Bypass> bypasses) {}

    private CallingContexts() {}

    /**
     * @param flows every method graph of the project, in a deterministic order
     * @return the graphs with their calling contexts made explicit; the input when nothing applies
     */
    static Expanded expand(List<MethodFlow> flows) {
        AspectAdvice.Woven woven = AspectAdvice.weave(flows);
        List<MethodFlow> bound = bindCallbacks(woven.flows());
        Expanded expanded = inCallersTransaction(bound);
        if (woven.callers().isEmpty() && woven.bypasses().isEmpty()) {
            return expanded;
        }
        Map<String, Caller> callers = new TreeMap<>(woven.callers());
        callers.putAll(expanded.transactionCallers());
        return new Expanded(
                expanded.flows(),
                Collections.unmodifiableMap(callers),
                expanded.alwaysInTransaction(),
                woven.bypasses());
    }

    /** Step 1: calls that pass a lambda to a method that runs it call a copy bound to that lambda. */
    private static List<MethodFlow> bindCallbacks(List<MethodFlow> flows) {
        CallGraph graph = new CallGraph(flows);
        Map<MethodFlow, List<FlowNode>> edits = new IdentityHashMap<>();
        List<MethodFlow> copies = new ArrayList<>();
        Map<String, Integer> copiesOf = new HashMap<>();
        for (MethodFlow caller : flows) {
            for (FlowNode n : caller.nodes()) {
                FlowEvent e = n.event();
                if (e.kind() != FlowEvent.Kind.CALL || e.args().stream().noneMatch(CallingContexts::function)) {
                    continue;
                }
                MethodFlow callee = graph.unique(e);
                if (callee == null || callee == caller) {
                    continue;
                }
                List<FlowNode> nodes = new ArrayList<>(callee.nodes());
                boolean changed = false;
                List<String> throughParameters = new ArrayList<>();
                for (FlowNode m : callee.nodes()) {
                    FlowEvent call = m.event();
                    List<String> forwarded = forwarded(call, callee, e);
                    if (forwarded == null) {
                        forwarded = wrappedInLambda(call, callee, e, graph, copies, copiesOf);
                    }
                    if (forwarded != null) {
                        // a wrapper hands the caller's lambda on to a framework that runs it in a transaction
                        // (jdbi.inTransaction(work)): the copy passes the lambda itself, so step 2 sees the callback
                        nodes.set(m.id(), m.withEvent(call.withArgs(forwarded)));
                        changed = true;
                        continue;
                    }
                    String fn = boundFunction(call, callee, e, graph);
                    if (fn != null) {
                        nodes.set(m.id(), withCallee(m, List.of(fn)));
                        changed = true;
                        String seen = receiverSeenByLambda(call.path(), e.path());
                        if (seen != null && !throughParameters.contains(seen)) {
                            throughParameters.add(seen);
                        }
                    }
                }
                int count = copiesOf.merge(callee.key(), 1, Integer::sum);
                if (!changed || count > MAX_COPIES) {
                    continue;
                }
                if (!throughParameters.isEmpty()
                        && nodes.get(MethodFlow.ENTRY).event().kind() == FlowEvent.Kind.NOP) {
                    FlowNode entry = nodes.get(MethodFlow.ENTRY);
                    nodes.set(
                            MethodFlow.ENTRY,
                            entry.withEvent(new FlowEvent(
                                    FlowEvent.Kind.ALIAS, null, "this", null, null, throughParameters, false)));
                }
                MethodFlow copy = callee.derive(callee.name() + "$bound" + count, callee.modifiers(), nodes);
                copies.add(copy);
                List<FlowNode> callerNodes = edits.computeIfAbsent(caller, c -> new ArrayList<>(c.nodes()));
                callerNodes.set(n.id(), withCallee(n, prepend(copy.key(), e.callee())));
            }
        }
        return rebuild(flows, edits, copies);
    }

    /**
     * @return whether the method hands a lambda that reaches a lock to a call that runs it on the transaction's
     *     connection ({@link Role#LENDS_TRANSACTION_CONNECTION})
     */
    private static boolean lendsToLocks(MethodFlow f, CallGraph graph, Set<MethodFlow> reaching) {
        for (FlowNode n : f.nodes()) {
            if (hasRole(n.event(), Role.LENDS_TRANSACTION_CONNECTION)) {
                for (String a : n.event().args()) {
                    MethodFlow lambda = function(a) ? functionGraph(a, graph) : null;
                    if (lambda != null && reaching.contains(lambda)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * @return whether {@code e} is a call, on a receiver of a declared type, of a framework method that runs a callback
     *     in a transaction it opens ({@link Role#RUNS_IN_TRANSACTION}: {@code TransactionTemplate.execute},
     *     {@code Jdbi.inTransaction}); never matched by name alone
     */
    private static boolean runsInTransaction(FlowEvent e) {
        return hasRole(e, Role.RUNS_IN_TRANSACTION);
    }

    /** @return whether the call's first callee, on its receiver's declared type, has the role in the catalog */
    private static boolean hasRole(FlowEvent e, Role role) {
        if ((e.kind() != FlowEvent.Kind.CALL && e.kind() != FlowEvent.Kind.EXECUTE)
                || e.callee() == null
                || e.callee().isEmpty()) {
            return false;
        }
        String first = e.callee().get(0);
        int dot = first.indexOf('.');
        int slash = first.lastIndexOf('/');
        return dot > 0
                && !first.startsWith("*.")
                && slash > dot
                && API.roles(
                                first.substring(0, dot),
                                first.substring(dot + 1, slash),
                                e.args().size())
                        .contains(role);
    }

    /**
     * @param call   a node's event in the callee
     * @param callee the method called with lambdas
     * @param at     the caller's call, whose arguments hold the lambdas ({@code $fn:} values)
     * @return the arguments of {@code call} with each of the callee's parameters that {@code at} passes a lambda for
     *     replaced by that lambda, when {@code call} is a framework call that runs a callback in a transaction of
     *     its own ({@link Role#RUNS_IN_TRANSACTION}); else null
     */
    private static List<String> forwarded(FlowEvent call, MethodFlow callee, FlowEvent at) {
        if (call.args().isEmpty() || !runsInTransaction(call)) {
            return null;
        }
        List<String> args = new ArrayList<>(call.args());
        boolean bound = false;
        for (int k = 0; k < args.size(); k++) {
            int i = args.get(k) == null ? -1 : callee.params().indexOf(args.get(k));
            if (i >= 0
                    && i < at.args().size()
                    && function(at.args().get(i))
                    && !at.args().get(i).endsWith("/?")) {
                args.set(k, at.args().get(i));
                bound = true;
            }
        }
        return bound ? args : null;
    }

    /**
     * A wrapper that runs the caller's lambda inside a lambda of its own handed to a framework transaction
     * ({@code tx.execute(status -> work.get())}): the wrapper's lambda is copied with its calls of the captured
     * parameter bound to the caller's lambda, and the framework call passes that copy, so step 2 runs both in the
     * framework's transaction.
     *
     * @param call     a node's event in the callee
     * @param callee   the method called with lambdas
     * @param at       the caller's call, whose arguments hold the lambdas
     * @param graph    the project's call graph
     * @param copies   receives the lambda's bound copy
     * @param copiesOf copies made so far, by the original's key ({@link #MAX_COPIES} each)
     * @return the framework call's arguments with the wrapper's lambda replaced by its bound copy, or null when
     *     {@code call} is no such framework call
     */
    private static List<String> wrappedInLambda(
            FlowEvent call,
            MethodFlow callee,
            FlowEvent at,
            CallGraph graph,
            List<MethodFlow> copies,
            Map<String, Integer> copiesOf) {
        if (call.args().isEmpty() || !runsInTransaction(call)) {
            return null;
        }
        List<String> args = new ArrayList<>(call.args());
        boolean bound = false;
        for (int k = 0; k < args.size(); k++) {
            String a = args.get(k);
            if (!function(a) || a.endsWith("/?")) {
                continue;
            }
            List<MethodFlow> found = graph.flows(a.substring(FlowLowering.FUNCTION.length()));
            if (found.size() != 1) {
                continue;
            }
            MethodFlow lambda = found.get(0);
            List<FlowNode> nodes = new ArrayList<>(lambda.nodes());
            boolean changed = false;
            for (FlowNode n : lambda.nodes()) {
                String path = n.event().path();
                String fn = path == null || lambda.params().contains(path)
                        ? null
                        : boundFunction(n.event(), callee, at, graph);
                if (fn != null) {
                    nodes.set(n.id(), withCallee(n, List.of(fn)));
                    changed = true;
                }
            }
            int count = changed ? copiesOf.merge(lambda.key(), 1, Integer::sum) : 0;
            if (!changed || count > MAX_COPIES) {
                continue;
            }
            MethodFlow copy = lambda.derive(lambda.name() + "$bound" + count, lambda.modifiers(), nodes);
            copies.add(copy);
            args.set(k, FlowLowering.FUNCTION + copy.key());
            bound = true;
        }
        return bound ? args : null;
    }

    /**
     * @param call   an event of the callee (or of a lambda in it, which captures the callee's parameters)
     * @param callee the method called with lambdas
     * @param at     the caller's call, whose arguments hold the lambdas ({@code $fn:} values)
     * @param graph  the project's call graph
     * @return the key of the one graph {@code call} runs when it calls a parameter the caller passes a lambda or
     *     method reference for ({@code work.run()}); null otherwise
     */
    private static String boundFunction(FlowEvent call, MethodFlow callee, FlowEvent at, CallGraph graph) {
        int i = call.kind() == FlowEvent.Kind.CALL && call.path() != null
                ? callee.params().indexOf(call.path())
                : -1;
        if (i < 0 || i >= at.args().size() || !function(at.args().get(i)) || notRunning(call)) {
            return null;
        }
        String fn = at.args().get(i).substring(FlowLowering.FUNCTION.length());
        if (fn.endsWith("/?")) {
            fn = fn.substring(0, fn.length() - 1) + call.args().size();
        }
        return graph.flows(fn).size() == 1 ? fn : null;
    }

    /**
     * A lambda's captured {@code this} is its caller's object; in the bound copy the lambda runs as a call on the
     * parameter, so its fields are the parameter's ({@code work.db}). The caller called the callee on one of its own
     * fields ({@code this.db.withLock(..)}) or on itself: that path, seen from the copy, is the copy's {@code this}.
     *
     * @param parameter the callee's parameter the lambda is passed as ({@code work})
     * @param receiver  the caller's receiver of the call to the callee, a path of the caller, or null for a call on
     *                  itself
     * @return the path through the parameter that names the callee's receiver ({@code work.db}, or {@code work}
     *     for a call on itself); null when the receiver is no field of the caller (a local, a parameter, a call)
     */
    private static String receiverSeenByLambda(String parameter, String receiver) {
        if (receiver == null || receiver.equals("this")) {
            return parameter;
        }
        if (receiver.startsWith("this.") && receiver.chars().noneMatch(c -> c == '$' || c == '(')) {
            return parameter + receiver.substring("this".length());
        }
        return null;
    }

    /**
     * @param nodes a graph run in a transaction
     * @return per node, whether a path from the entry reaches it without taking the "no transaction" side of a
     *     test of Spring's {@code TransactionSynchronizationManager} ({@link FlowLowering#IN_TRANSACTION})
     */
    private static boolean[] reachableInTransaction(List<FlowNode> nodes) {
        boolean[] seen = new boolean[nodes.size()];
        Deque<Integer> todo = new ArrayDeque<>(List.of(MethodFlow.ENTRY));
        while (!todo.isEmpty()) {
            int id = todo.poll();
            if (seen[id]) {
                continue;
            }
            seen[id] = true;
            FlowNode n = nodes.get(id);
            List<Integer> next = n.next();
            if (n.event().kind() == FlowEvent.Kind.BRANCH
                    && FlowLowering.IN_TRANSACTION.equals(n.event().target())
                    && next.size() == 2) {
                todo.add(next.get(n.event().negated() ? 1 : 0));
            } else {
                todo.addAll(next);
            }
            todo.addAll(n.onException());
        }
        return seen;
    }

    /** Step 2: calls made in a transaction call a copy of the callee that runs in it. */
    private static Expanded inCallersTransaction(List<MethodFlow> flows) {
        CallGraph graph = new CallGraph(flows);
        Set<MethodFlow> reaching = reachingLocks(flows);
        Map<MethodFlow, List<FlowNode>> edits = new IdentityHashMap<>();
        Map<String, MethodFlow> copyOf = new LinkedHashMap<>();
        Map<String, Caller> callers = new TreeMap<>();
        Deque<MethodFlow> work = new ArrayDeque<>();
        Map<MethodFlow, Integer> depth = new IdentityHashMap<>();
        Set<MethodFlow> bypassed = selfCalledOutside(flows, graph);
        for (MethodFlow f : flows) {
            if (f.modifiers().contains("transactional")
                    && (reaching.contains(f) || lendsToLocks(f, graph, reaching))
                    && !bypassed.contains(f)) {
                work.add(f);
                depth.put(f, 0);
            }
        }
        // lambdas a framework runs in a transaction it opens (TransactionTemplate.execute, Jdbi.inTransaction)
        for (MethodFlow f : flows) {
            for (FlowNode n : f.nodes()) {
                MethodFlow lambda = transactionCallback(n.event(), graph);
                if (lambda == null || !reaching.contains(lambda) || copyOf.containsKey(lambda.key())) {
                    continue;
                }
                String api = n.event().callee().get(0);
                Set<String> mods = new TreeSet<>(lambda.modifiers());
                mods.add("transactional");
                if (HANDLE_IN_TRANSACTION.contains(api.substring(0, api.indexOf('.')))) {
                    mods.add(HANDLE_PARAMETER);
                }
                MethodFlow copy = lambda.derive(lambda.name() + "$tx", mods, lambda.nodes());
                copyOf.put(lambda.key(), copy);
                callers.put(
                        copy.key(),
                        new Caller(
                                api.substring(0, api.lastIndexOf('/')) + " in " + display(f),
                                n.region(),
                                written(n.event(), api) + " callback in " + display(f)));
                depth.put(copy, 1);
                work.add(copy);
            }
        }
        while (!work.isEmpty()) {
            MethodFlow caller = work.poll();
            int d = depth.get(caller);
            if (d >= MAX_DEPTH) {
                continue;
            }
            boolean readOnly = caller.modifiers().contains("readOnly");
            List<FlowNode> nodes = edits.getOrDefault(caller, caller.nodes());
            boolean[] inTransaction = reachableInTransaction(nodes);
            for (int k = 0; k < nodes.size(); k++) {
                FlowNode n = nodes.get(k);
                if (!inTransaction[k]) {
                    continue; // only reached when Spring says no transaction is active: not run in this one
                }
                if (hasRole(n.event(), Role.LENDS_TRANSACTION_CONNECTION)) {
                    // jdbc.execute((ConnectionCallback<T>) con -> ..) in a transaction: con is the transaction's
                    for (String a : n.event().args()) {
                        MethodFlow lambda = function(a) ? functionGraph(a, graph) : null;
                        if (lambda == null || !reaching.contains(lambda) || copyOf.containsKey(lambda.key())) {
                            continue;
                        }
                        Set<String> mods = new TreeSet<>(lambda.modifiers());
                        mods.add("transactional");
                        mods.add(HANDLE_PARAMETER);
                        MethodFlow copy = lambda.derive(lambda.name() + "$tx", mods, lambda.nodes());
                        copyOf.put(lambda.key(), copy);
                        Caller origin = callers.get(caller.key());
                        callers.put(
                                copy.key(), origin != null ? origin : new Caller(display(caller), n.region(), null));
                        depth.put(copy, d + 1);
                        work.add(copy);
                    }
                    continue;
                }
                if (n.event().kind() != FlowEvent.Kind.CALL) {
                    continue;
                }
                MethodFlow callee = graph.unique(n.event());
                if (callee == null
                        || callee == caller
                        || !reaching.contains(callee)
                        || callee.modifiers().stream().anyMatch(OWN_CONTEXT::contains)) {
                    continue;
                }
                String copyKey = callee.key() + (readOnly ? "|readOnly" : "");
                MethodFlow copy = copyOf.get(copyKey);
                if (copy == null) {
                    Set<String> mods = new TreeSet<>(callee.modifiers());
                    mods.add("transactional");
                    if (readOnly) {
                        mods.add("readOnly");
                    }
                    copy = callee.derive(callee.name() + (readOnly ? "$readOnlyTx" : "$tx"), mods, callee.nodes());
                    copyOf.put(copyKey, copy);
                    // a copy called from a copy runs in the transaction of the first one's caller: name that one
                    Caller origin = callers.get(caller.key());
                    callers.put(copy.key(), origin != null ? origin : new Caller(display(caller), n.region(), null));
                    depth.put(copy, d + 1);
                    work.add(copy);
                }
                List<FlowNode> edited = edits.computeIfAbsent(caller, c -> new ArrayList<>(c.nodes()));
                edited.set(k, withCallee(n, prepend(copy.key(), n.event().callee())));
                nodes = edited;
            }
        }
        List<MethodFlow> copies = new ArrayList<>();
        Map<MethodFlow, List<FlowNode>> originals = new IdentityHashMap<>();
        for (MethodFlow copy : copyOf.values()) {
            List<FlowNode> ownEdits = edits.remove(copy);
            copies.add(ownEdits == null ? copy : copy.derive(copy.name(), copy.modifiers(), ownEdits));
        }
        originals.putAll(edits);
        List<MethodFlow> out = rebuild(flows, originals, copies);
        return new Expanded(
                out, Collections.unmodifiableMap(callers), alwaysInTransaction(out, copyOf.values()), List.of());
    }

    /**
     * @param flows  the graphs after the copies were made
     * @param copies the copies run in a caller's transaction
     * @return the keys of the methods in a transaction on every run: transactional themselves, or called only
     *     by such methods and copies (starting from every method that has a caller, those called by one that is
     *     not are removed until none is)
     */
    private static Set<String> alwaysInTransaction(List<MethodFlow> flows, Iterable<MethodFlow> copies) {
        CallGraph graph = new CallGraph(flows);
        Map<String, String> originalOf = new HashMap<>();
        for (MethodFlow copy : copies) {
            String suffix = copy.name().endsWith("$readOnlyTx") ? "$readOnlyTx" : "$tx";
            String name = copy.name().substring(0, copy.name().length() - suffix.length());
            originalOf.put(
                    copy.key(),
                    copy.typeName() + "." + name + "/" + copy.params().size());
        }
        Map<String, Set<String>> callersOf = new HashMap<>();
        for (MethodFlow f : flows) {
            for (FlowNode n : f.nodes()) {
                if (n.event().kind() != FlowEvent.Kind.CALL) {
                    continue;
                }
                for (MethodFlow target : graph.resolveMay(n.event())) {
                    String key = originalOf.getOrDefault(target.key(), target.key());
                    callersOf.computeIfAbsent(key, k -> new TreeSet<>()).add(f.key());
                }
            }
        }
        Set<MethodFlow> bypassed = selfCalledOutside(flows, graph);
        Set<String> originals = new HashSet<>(originalOf.values());
        Set<String> in = new TreeSet<>();
        Map<String, MethodFlow> byKey = new HashMap<>();
        for (MethodFlow f : flows) {
            byKey.putIfAbsent(f.key(), f);
            if (f.modifiers().contains("transactional")) {
                if (originalOf.containsKey(f.key()) || !bypassed.contains(f)) {
                    in.add(f.key());
                }
            } else if (originals.contains(f.key()) && !callersOf.containsKey(f.key())) {
                in.add(f.key()); // a lambda only the framework runs, in its transaction
            } else if (callersOf.containsKey(f.key()) && f.modifiers().stream().noneMatch(OWN_CONTEXT::contains)) {
                in.add(f.key()); // for now: removed below when a caller runs outside a transaction
            }
        }
        // a greatest fixpoint by worklist: a method leaves when one of its callers is out, and its callees
        // are looked at again
        Map<String, Set<String>> calleesOf = new HashMap<>();
        callersOf.forEach((callee, callers) -> callers.forEach(
                c -> calleesOf.computeIfAbsent(c, k -> new TreeSet<>()).add(callee)));
        Deque<String> todo = new ArrayDeque<>(in);
        while (!todo.isEmpty()) {
            String key = todo.poll();
            MethodFlow f = byKey.get(key);
            if (f == null
                    || f.modifiers().contains("transactional")
                    || !in.contains(key)
                    || in.containsAll(callersOf.getOrDefault(key, Set.of()))) {
                continue;
            }
            in.remove(key);
            todo.addAll(calleesOf.getOrDefault(key, Set.of()));
        }
        return Collections.unmodifiableSet(in);
    }

    /**
     * @return the lambda graph a call hands to a method that runs it in a transaction ({@link
     *     Role#RUNS_IN_TRANSACTION}, matched on the receiver's declared type), or null
     */
    private static MethodFlow transactionCallback(FlowEvent e, CallGraph graph) {
        if (!runsInTransaction(e)) {
            return null;
        }
        for (String a : e.args()) {
            MethodFlow found = function(a) ? functionGraph(a, graph) : null;
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Parameters a method reference's method is looked up with, when the call does not say. */
    private static final int MAX_REFERENCE_ARITY = 4;

    /**
     * @param fn    a function value: a lambda ({@code $fn:Type.m$lambda0/1}) or a method reference whose arity the
     *              functional interface decides ({@code $fn:Type.name/?})
     * @return the one graph it runs: the lambda's, or the only method of that type and name with at most {@value
     *     #MAX_REFERENCE_ARITY} parameters; null when none or several
     */
    private static MethodFlow functionGraph(String fn, CallGraph graph) {
        String key = fn.substring(FlowLowering.FUNCTION.length());
        if (!key.endsWith("/?")) {
            List<MethodFlow> found = graph.flows(key);
            return found.size() == 1 ? found.get(0) : null;
        }
        String prefix = key.substring(0, key.length() - 1);
        MethodFlow only = null;
        for (int arity = 0; arity <= MAX_REFERENCE_ARITY; arity++) {
            for (MethodFlow f : graph.flows(prefix + arity)) {
                if (only != null) {
                    return null;
                }
                only = f;
            }
        }
        return only;
    }

    /**
     * @return the methods a method of the same type without a transaction calls on itself: such a call does
     *     not go through the proxy that opens the callee's transaction (Spring AOP, CDI interceptors), so the
     *     callee also runs without one. One pass over every call.
     */
    private static Set<MethodFlow> selfCalledOutside(List<MethodFlow> flows, CallGraph graph) {
        Set<MethodFlow> out = Collections.newSetFromMap(new IdentityHashMap<>());
        for (MethodFlow caller : flows) {
            if (caller.modifiers().contains("transactional")) {
                continue;
            }
            for (FlowNode n : caller.nodes()) {
                if (n.event().kind() != FlowEvent.Kind.CALL
                        || (n.event().path() != null && !n.event().path().equals("this"))) {
                    continue;
                }
                for (MethodFlow target : graph.resolve(n.event())) {
                    if (target != caller && target.typeName().equals(caller.typeName())) {
                        out.add(target);
                    }
                }
            }
        }
        return out;
    }

    /**
     * The methods whose summary can hold a lock fact: those with a lock event or a lock helper's call, and,
     * transitively, those that call one by name and arity (as {@link LockStateAnalysis} chooses its methods).
     */
    private static Set<MethodFlow> reachingLocks(List<MethodFlow> flows) {
        Set<MethodFlow> out = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<String> names = new TreeSet<>();
        for (MethodFlow f : flows) {
            boolean own = f.nodes().stream()
                    .anyMatch(n -> n.event().kind() == FlowEvent.Kind.LOCK
                            || (n.event().kind() == FlowEvent.Kind.CALL
                                    && !n.event().sites().isEmpty()));
            if (own) {
                out.add(f);
                names.add(f.name() + "/" + f.params().size());
            }
        }
        boolean grew = true;
        for (int round = 0; grew && round < 8; round++) {
            grew = false;
            for (MethodFlow f : flows) {
                if (!out.contains(f) && LockStateAnalysis.calls(f, names)) {
                    out.add(f);
                    names.add(f.name() + "/" + f.params().size());
                    grew = true;
                }
            }
        }
        return out;
    }

    private static List<MethodFlow> rebuild(
            List<MethodFlow> flows, Map<MethodFlow, List<FlowNode>> edits, List<MethodFlow> copies) {
        if (edits.isEmpty() && copies.isEmpty()) {
            return flows;
        }
        List<MethodFlow> out = new ArrayList<>(flows.size() + copies.size());
        for (MethodFlow f : flows) {
            List<FlowNode> nodes = edits.get(f);
            out.add(nodes == null ? f : f.derive(f.name(), f.modifiers(), nodes));
        }
        out.addAll(copies);
        return List.copyOf(out);
    }

    /** @return {@code Type.method} of a graph, without the suffix of a copy or a lambda */
    static String display(MethodFlow f) {
        String name = f.name();
        int cut = name.indexOf('$');
        return f.typeName() + "." + (cut < 0 ? name : name.substring(0, cut));
    }

    private static boolean function(String arg) {
        return arg != null && arg.startsWith(FlowLowering.FUNCTION);
    }

    private static boolean notRunning(FlowEvent call) {
        for (String c : call.callee()) {
            String name = c.substring(c.indexOf('.') + 1, c.lastIndexOf('/'));
            if (NOT_RUNNING.contains(name)) {
                return true;
            }
        }
        return false;
    }

    /** @return a framework call as written, {@code tx.execute(...)}: its receiver path without {@code this.} */
    private static String written(FlowEvent call, String api) {
        String method = api.substring(api.indexOf('.') + 1, api.lastIndexOf('/'));
        String receiver = call.path() == null || call.path().startsWith("$")
                ? api.substring(0, api.indexOf('.'))
                : LockStateAnalysis.written(call.path());
        return receiver + "." + method + "(...)";
    }

    private static List<String> prepend(String key, List<String> callee) {
        List<String> out = new ArrayList<>(callee.size() + 1);
        out.add(key);
        out.addAll(callee);
        return out;
    }

    private static FlowNode withCallee(FlowNode n, List<String> callee) {
        return n.withEvent(n.event().withCallee(callee));
    }
}
