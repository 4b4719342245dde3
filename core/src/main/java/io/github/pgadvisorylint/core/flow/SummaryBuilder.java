package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.flow.PathState.Hold;
import io.github.pgadvisorylint.core.flow.PathState.Release;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The summary builder of the lock-state analysis: turns the path states that reach a method's exits into its
 * {@link MethodSummary}, the effect its callers apply at each call. Connection identities become paths relative
 * to the callee ({@code #0}, {@code #this.connection}); identities a caller cannot name (a local connection
 * not returned) drop out.
 */
final class SummaryBuilder {

    /** Most exits a summary keeps (the first, in {@link MethodSummary.Case} order). */
    static final int MAX_CASES = 8;
    /** Most fields after the receiver or a parameter in an access path a summary keeps. */
    static final int MAX_PATH_FIELDS = 3;

    private SummaryBuilder() {}

    /**
     * @param flow the method
     * @param c    a connection identity or access path of the method
     * @return {@code c} relative to the method's receiver or parameters ({@code #this.f}, {@code #0.conn}),
     *     or null when it is neither or reaches more than {@link #MAX_PATH_FIELDS} fields deep: a summary
     *     speaks of short access paths only, so calls around a cycle of objects ({@code a.b.a.b...}) cannot
     *     grow its paths without bound (k-limiting)
     */
    static String relative(MethodFlow flow, String c) {
        String r = LockStateAnalysis.rootOf(c);
        String rest = c.substring(r.length());
        if (rest.chars().filter(ch -> ch == '.').count() > MAX_PATH_FIELDS) {
            return null;
        }
        if (r.equals("this")) {
            return "#this" + rest;
        }
        int i = flow.params().indexOf(r);
        return i >= 0 ? "#" + i + rest : null;
    }

    /**
     * @param flow the method
     * @param s    an exit state
     * @return the field of the receiver the method returns there, relative to the method ({@code #this.connection}):
     *     the returned value is that field ({@code return connection;}) or the connection the method opened and
     *     stored in it ({@code connection = DriverManager.getConnection(..); return connection;}); null otherwise
     */
    private static String returnedField(MethodFlow flow, PathState s) {
        String r = s.returned();
        if (r == null || flow.modifiers().contains("static")) {
            return null;
        }
        if (r.startsWith("this.")) {
            return relative(flow, r);
        }
        String field = r.startsWith("@") ? s.fieldNaming(r) : null;
        return field == null ? null : relative(flow, field);
    }

    /**
     * @param s          an exit state
     * @param handle     the object the method returns there
     * @param connection a held connection
     * @return the first access path, in name order, from the returned object to the connection
     *     ({@code connection} for {@code handle.connection}), or null when no field of it names the connection
     */
    static String heldField(PathState s, String handle, String connection) {
        return s.alias().keySet().stream()
                .filter(a -> a.startsWith(handle + ".")
                        && !a.startsWith(handle + ".$") // what a call kept of its arguments (MethodRun.keepArguments)
                        && connection.equals(s.resolve(a)))
                .sorted()
                .map(a -> a.substring(handle.length() + 1))
                .findFirst()
                .orElse(null);
    }

    /**
     * @param flow              the method
     * @param exits             the path states at its normal exit
     * @param exceptionalExits  the path states at its exceptional exit
     * @param failedBeforeThrow failed try-locks dropped from states on a way to the exceptional exit
     * @param executes          the caller's connections (relative paths) the method runs a statement on
     * @param xactLocks         transaction-level locks it takes on the caller's connections outside a transaction
     * @param ends              the caller's connections (relative paths) whose transaction it commits or rolls back
     * @param kept              the caller's connections (relative paths) it reached through the accessor of a kept one
     * @return the method's summary: at most {@link #MAX_CASES} cases, each exit state's holds, releases, boolean,
     *     returned connection and field bindings as seen from a caller
     */
    static MethodSummary build(
            MethodFlow flow,
            Collection<PathState> exits,
            Collection<PathState> exceptionalExits,
            Set<String> failedBeforeThrow,
            Set<String> executes,
            Set<Hold> xactLocks,
            Set<String> ends,
            Set<MethodSummary.Kept> kept) {
        Set<MethodSummary.Case> cases = new TreeSet<>();
        // a helper that returns null when it took nothing returns whether it holds, like a try-lock's boolean: its
        // exits that return an object while holding say true (the caller's x != null test decides)
        boolean nullable = exits.stream().anyMatch(s -> s.bools().containsKey(MethodRun.RETURNS_NULL));
        boolean honest = exits.stream().anyMatch(s -> !answersTakenAfterFailure(s));
        for (PathState s : exits) {
            if (honest && answersTakenAfterFailure(s)) {
                // reported once, at the acquisition, where the fix goes (ExitJudgement, FAILURE_SWALLOWED); callers
                // get the answers that mean what they say
                continue;
            }
            List<Hold> acquires = new ArrayList<>();
            List<String> returnHeld = new ArrayList<>();
            List<MethodSummary.HeldField> heldFields = new ArrayList<>();
            List<MethodSummary.FieldBinding> returnBindings = new ArrayList<>();
            boolean returnsConnection = s.returned() != null && s.returned().startsWith("@");
            // an object returned (not a connection): the fields of it that name a held connection
            String handle = returnsConnection ? null : s.returned();
            for (Hold k : s.held().keySet()) {
                String rel = relative(flow, k.connection());
                if (rel == null
                        && k.connection().startsWith("@")
                        && !flow.modifiers().contains("static")) {
                    // a connection the method opened, locked and stored in a field of its object (a lock scope's
                    // open()): the hold is the receiver's, seen by the caller through that field
                    String inField = s.fieldNaming(k.connection());
                    rel = inField == null ? null : relative(flow, inField);
                }
                String field = handle == null ? null : heldField(s, handle, k.connection());
                if (rel != null) {
                    acquires.add(new Hold(rel, k.acquisition()));
                    if (field != null) {
                        returnBindings.add(new MethodSummary.FieldBinding(field, rel));
                    }
                } else if (k.connection().equals(s.returned())) {
                    returnHeld.add(k.acquisition());
                } else if (field != null) {
                    heldFields.add(new MethodSummary.HeldField(
                            field, k.acquisition(), s.kinds().getOrDefault(k.connection(), ConnectionKind.UNKNOWN)));
                }
            }
            ConnectionKind kind =
                    !returnsConnection ? null : s.kinds().getOrDefault(s.returned(), ConnectionKind.UNKNOWN);
            String returnsField = returnedField(flow, s);
            PathState.Transaction returnedTransaction = returnsConnection ? s.tx().get(s.returned()) : null;
            if (kind != null && s.closed().containsKey(s.returned())) {
                kind = null;
            }
            List<MethodSummary.FieldBinding> fields = new ArrayList<>();
            for (Map.Entry<String, String> a : s.alias().entrySet()) {
                String rel = a.getKey().startsWith("this.") ? relative(flow, a.getValue()) : null;
                String field = rel == null ? null : relative(flow, a.getKey());
                if (field != null && !rel.startsWith("#this")) {
                    fields.add(new MethodSummary.FieldBinding(field, rel));
                }
            }
            List<MethodSummary.FieldFlag> flags = new ArrayList<>();
            Set<String> fieldNames = new TreeSet<>();
            s.bools().keySet().stream().filter(k -> k.startsWith("this.")).forEach(fieldNames::add);
            s.alias().keySet().stream().filter(k -> k.startsWith("this.")).forEach(fieldNames::add);
            for (String f : fieldNames) {
                Boolean v =
                        s.bools().containsKey(f) ? s.bools().get(f) : s.bools().get(s.resolve(f));
                String rel = v == null ? null : relative(flow, f);
                if (rel != null) {
                    flags.add(new MethodSummary.FieldFlag(rel, v));
                }
            }
            Boolean returned = s.bools().get("$return");
            if (returned == null
                    && nullable
                    && s.bools().containsKey(MethodRun.RETURNS_OBJECT)
                    && !s.held().isEmpty()) {
                returned = Boolean.TRUE;
            }
            cases.add(new MethodSummary.Case(
                    acquires,
                    List.copyOf(s.outer()),
                    returned,
                    kind,
                    returnHeld,
                    fields,
                    heldFields,
                    returnsField,
                    returnedTransaction,
                    returnBindings,
                    flags));
        }
        // a method that releases on one exit is a release helper: its defensive branches (a null or
        // isClosed() check) are not taken as exits that keep the lock, so every exit releases
        Set<Release> releases = new TreeSet<>();
        cases.forEach(c -> releases.addAll(c.releases()));
        Set<MethodSummary.Case> merged = new TreeSet<>();
        for (MethodSummary.Case c : cases) {
            merged.add(new MethodSummary.Case(
                    c.acquires(),
                    List.copyOf(releases),
                    c.returnValue(),
                    c.returnsNew(),
                    c.returnHeld(),
                    c.fields(),
                    c.heldFields(),
                    c.returnsField(),
                    c.returnedTransaction(),
                    c.returnBindings(),
                    c.flags()));
        }
        List<MethodSummary.Case> list = new ArrayList<>(merged);
        if (list.size() > MAX_CASES) {
            list = list.subList(0, MAX_CASES);
        }
        Set<Hold> thrown = new TreeSet<>();
        Set<String> thrownFailed = new TreeSet<>();
        for (PathState s : exceptionalExits) {
            for (Hold k : s.held().keySet()) {
                String rel = relative(flow, k.connection());
                if (rel != null) {
                    thrown.add(new Hold(rel, k.acquisition()));
                }
            }
            thrownFailed.addAll(s.failed()); // a try-lock that failed, then threw
        }
        if (!exceptionalExits.isEmpty()) {
            thrownFailed.addAll(failedBeforeThrow);
        }
        Set<String> closes = new TreeSet<>();
        for (PathState s : exits) {
            for (String c : s.closed().keySet()) {
                String rel = relative(flow, c);
                if (rel != null) {
                    closes.add(rel);
                }
            }
        }
        boolean guarded =
                !releases.isEmpty() && cases.stream().anyMatch(c -> c.releases().isEmpty());
        return new MethodSummary(
                flow.key(),
                list,
                List.copyOf(thrown),
                List.copyOf(thrownFailed),
                List.copyOf(closes),
                guarded,
                List.copyOf(executes),
                List.copyOf(xactLocks),
                List.copyOf(ends),
                List.copyOf(kept));
    }

    /** @return true for an exit that returns true, "taken", after its acquisition threw and took nothing */
    private static boolean answersTakenAfterFailure(PathState s) {
        return Boolean.TRUE.equals(s.bools().get("$return"))
                && !s.threw().isEmpty()
                && s.threw().stream().noneMatch(s::holds);
    }
}
