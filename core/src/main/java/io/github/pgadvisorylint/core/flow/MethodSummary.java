package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.flow.PathState.Hold;
import io.github.pgadvisorylint.core.flow.PathState.Release;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a method does, seen from its callers, to the connections and lock objects it receives or holds in
 * fields and to the connection it returns: one {@link Case} per distinguishable normal exit (a try-lock
 * helper has one case that returns {@code true} holding the lock and one that returns {@code false}).
 * Holds no syntax tree.
 *
 * <p>Connection paths are relative to the callee: {@code #0}, {@code #1.conn} (a parameter and a field of
 * it), {@code #this.connection} (a field of the receiver).
 *
 * @param key    the method's key, {@code Type.name/arity}
 * @param cases  the exits, sorted; empty when the method does nothing the analysis follows
 * @param thrown holds on the caller's connections or lock objects (paths as above) that an exception out of
 *               the method can leave behind (the caller's {@code finally} may release them)
 * @param thrownFailed acquisition ids of try-locks that returned false (or threw) on a path that then threw
 *                     out of the method
 * @param closes the caller's connections the method closes (or returns to their pool) on some exit
 * @param guarded true when some exit of a release helper releases nothing (it checks first whether it
 *                holds the lock): its releases are never reported as releasing a hold not taken
 * @param executes the caller's connections (paths as above, sorted) the method runs a statement on,
 *                 itself or through its callees: a statement that fails there aborts the caller's open
 *                 transaction on that connection (F18), so an unlock the caller runs after it fails
 * @param xactLocks sorted: the caller's connections (as holds: path and acquisition id) on which the method takes a
 *                  transaction-level lock, itself or through its callees, without opening a transaction on
 *                  them first; on a connection in autocommit at the call the lock ends with its own statement
 *                  (F2)
 * @param ends     the caller's connections (paths as above, sorted) whose transaction the method commits or rolls back
 *                 on some path, itself or through its callees ({@code db.commit()} over a kept connection)
 * @param kept     the caller's connections (paths as above, sorted) the method reached through an accessor of a
 *                 connection its object keeps ({@code db.connection()}), with what the accessor says of them: their
 *                 kind and auto-commit are properties of the connection, true for the caller's statements on it too
 */
public record MethodSummary(
        String key,
        List<Case> cases,
        List<Hold> thrown,
        List<String> thrownFailed,
        List<String> closes,
        boolean guarded,
        List<String> executes,
        List<Hold> xactLocks,
        List<String> ends,
        List<Kept> kept) {

    /** Copies the lists. */
    public MethodSummary {
        Objects.requireNonNull(key, "key");
        cases = List.copyOf(cases);
        thrown = List.copyOf(thrown);
        thrownFailed = List.copyOf(thrownFailed);
        closes = List.copyOf(closes);
        executes = List.copyOf(executes);
        xactLocks = List.copyOf(xactLocks);
        ends = List.copyOf(ends);
        kept = List.copyOf(kept);
    }

    /** A summary with no exception-path holds, no closes and no statements on the caller's connections. */
    public MethodSummary(String key, List<Case> cases) {
        this(key, cases, List.of(), List.of(), List.of(), false, List.of(), List.of(), List.of(), List.of());
    }

    /**
     * One normal exit.
     *
     * @param acquires    session-level holds the method leaves on a caller's connection
     * @param releases    holds of the caller the method releases
     * @param returnValue the boolean the method returns on this exit, or null when it fixed none
     * @param returnsNew  the kind of a connection the method opened and returns, or null
     * @param returnHeld  acquisition ids the returned connection holds
     * @param fields      fields of the receiver (of the new object, for a constructor) that name a connection
     *                    the caller passed in
     * @param heldFields  connections the method opened, holding a lock, that a field of the object it returns names
     *                    (a lock handle: {@code return new PgLock(dataSource.getConnection(), key)})
     * @param returnsField the receiver's field the method returns, as a path relative to the callee
     *                    ({@code #this.connection}: an accessor of a connection kept for the object's life, opened on
     *                    first use or not), or null
     * @param returnedTransaction the transaction state of the connection this exit opened and returns (MANUAL: the
     *                    accessor turned auto-commit off), or null
     * @param returnBindings fields of the object this exit returns that name a connection of the caller holding a
     *                    lock ({@code connection=#0} for {@code return new StreamLock(connection, key)}): the field
     *                    relative to the returned object, the source relative to the callee
     * @param flags       boolean fields of the receiver this exit leaves fixed ({@code #this.held=true} after a
     *                    try-lock helper stored its result in a flag): a caller's test of one takes that branch
     */
    public record Case(
            List<Hold> acquires,
            List<Release> releases,
            Boolean returnValue,
            ConnectionKind returnsNew,
            List<String> returnHeld,
            List<FieldBinding> fields,
            List<HeldField> heldFields,
            String returnsField,
            PathState.Transaction returnedTransaction,
            List<FieldBinding> returnBindings,
            List<FieldFlag> flags)
            implements Comparable<Case> {

        /** Copies the lists. */
        public Case {
            flags = List.copyOf(flags);
            acquires = List.copyOf(acquires);
            releases = List.copyOf(releases);
            returnHeld = List.copyOf(returnHeld);
            fields = List.copyOf(fields);
            heldFields = List.copyOf(heldFields);
            returnBindings = List.copyOf(returnBindings);
        }

        /** An exit that returns no lock handle. */
        public Case(
                List<Hold> acquires,
                List<Release> releases,
                Boolean returnValue,
                ConnectionKind returnsNew,
                List<String> returnHeld,
                List<FieldBinding> fields) {
            this(
                    acquires,
                    releases,
                    returnValue,
                    returnsNew,
                    returnHeld,
                    fields,
                    List.of(),
                    null,
                    null,
                    List.of(),
                    List.of());
        }

        /** @return true when this exit changes nothing a caller can see */
        public boolean isEmpty() {
            return acquires.isEmpty()
                    && releases.isEmpty()
                    && returnValue == null
                    && returnsNew == null
                    && fields.isEmpty()
                    && heldFields.isEmpty()
                    && returnsField == null
                    && returnedTransaction == null
                    && returnBindings.isEmpty()
                    && flags.isEmpty();
        }

        @Override
        public int compareTo(Case o) {
            return toString().compareTo(o.toString());
        }
    }

    /**
     * A boolean field of the receiver a method's exit leaves fixed.
     *
     * @param field the field, relative to the callee: {@code #this.slotLocked}
     * @param value its value on that exit
     */
    public record FieldFlag(String field, boolean value) {
        /** The field is required. */
        public FieldFlag {
            Objects.requireNonNull(field, "field");
        }
    }

    /**
     * A receiver field that names a connection of the caller after the call.
     *
     * @param field  the field, relative to the callee: {@code #this.connection}
     * @param source the caller's connection it names, relative to the callee: {@code #0}, {@code #1.conn}
     */
    public record FieldBinding(String field, String source) {
        /** Both parts are required. */
        public FieldBinding {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(source, "source");
        }

        @Override
        public String toString() {
            return field + "=" + source;
        }
    }

    /**
     * A connection an object keeps for its life, reached through its accessor.
     *
     * @param connection    the path of the connection, relative to the callee ({@code #this.db.connection})
     * @param kind          the kind the accessor opens it as
     * @param autoCommitOff true when the accessor turns auto-commit off when it opens it
     */
    public record Kept(String connection, ConnectionKind kind, boolean autoCommitOff) implements Comparable<Kept> {

        /** The connection and kind are required. */
        public Kept {
            Objects.requireNonNull(connection, "connection");
            Objects.requireNonNull(kind, "kind");
        }

        @Override
        public int compareTo(Kept o) {
            return toString().compareTo(o.toString());
        }
    }

    /**
     * A lock held on a connection the method opened, reachable from the object it returns.
     *
     * @param field       the access path from the returned object to the connection ({@code connection},
     *                    {@code session.connection})
     * @param acquisition the acquisition's site id
     * @param kind        the connection's kind
     */
    public record HeldField(String field, String acquisition, ConnectionKind kind) {

        /** The field and acquisition are required. */
        public HeldField {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(acquisition, "acquisition");
            Objects.requireNonNull(kind, "kind");
        }

        @Override
        public String toString() {
            return field + "|" + acquisition + "|" + kind;
        }
    }

    /**
     * The summary of a call that can run any of several methods (implementations of one interface method):
     * each exit of each is an exit of the call. A method that does nothing the analysis follows contributes
     * an exit that changes nothing, unless another member releases a lock: then the call is a lock class's
     * unlock, and an implementation that does nothing with a session (an in-memory lock's) is not the one that
     * runs on an object holding an advisory lock.
     *
     * @param key     the call's names, for debugging
     * @param members the summaries of the methods it can run, at least one
     * @return their union: exits, exception-path holds, closes, statements and transaction ends, sorted and without repeats;
     *     guarded when any member is
     */
    public static MethodSummary union(String key, List<MethodSummary> members) {
        if (members.size() > 1
                && members.stream()
                        .anyMatch(m ->
                                m.cases().stream().anyMatch(c -> !c.releases().isEmpty()))) {
            members = members.stream().filter(m -> !m.isEmpty()).toList();
        }
        Set<Case> cases = new TreeSet<>();
        Set<Hold> thrown = new TreeSet<>();
        Set<String> thrownFailed = new TreeSet<>();
        Set<String> closes = new TreeSet<>();
        Set<String> executes = new TreeSet<>();
        Set<Hold> xactLocks = new TreeSet<>();
        Set<String> ends = new TreeSet<>();
        Set<Kept> kept = new TreeSet<>();
        boolean guarded = false;
        for (MethodSummary m : members) {
            cases.addAll(m.cases());
            if (m.cases().isEmpty()) {
                cases.add(new Case(List.of(), List.of(), null, null, List.of(), List.of()));
            }
            thrown.addAll(m.thrown());
            thrownFailed.addAll(m.thrownFailed());
            closes.addAll(m.closes());
            executes.addAll(m.executes());
            xactLocks.addAll(m.xactLocks());
            ends.addAll(m.ends());
            kept.addAll(m.kept());
            guarded |= m.guarded();
        }
        if (cases.stream().allMatch(Case::isEmpty)) {
            cases.clear(); // nothing any of them does reaches the caller's exits
        }
        return new MethodSummary(
                key,
                List.copyOf(cases),
                List.copyOf(thrown),
                List.copyOf(thrownFailed),
                List.copyOf(closes),
                guarded,
                List.copyOf(executes),
                List.copyOf(xactLocks),
                List.copyOf(ends),
                List.copyOf(kept));
    }

    /**
     * What an accessor says of the field it returns, over all its exits: one connection, opened on first use.
     *
     * @param returnsField a field some exit returns ({@link Case#returnsField()})
     * @return that field with the kind an exit opens it as and whether one turns its auto-commit off; null when
     *     no exit opens it
     */
    public Kept keptBy(String returnsField) {
        ConnectionKind kind = null;
        boolean off = false;
        for (Case c : cases) {
            if (returnsField.equals(c.returnsField())) {
                kind = kind != null ? kind : c.returnsNew();
                off |= PathState.Transaction.MANUAL.equals(c.returnedTransaction());
            }
        }
        return kind == null ? null : new Kept(returnsField, kind, off);
    }

    /** @return true when no exit changes anything a caller can see and no statement runs on its connections */
    public boolean isEmpty() {
        return cases.stream().allMatch(Case::isEmpty)
                && thrown.isEmpty()
                && thrownFailed.isEmpty()
                && closes.isEmpty()
                && executes.isEmpty()
                && xactLocks.isEmpty()
                && ends.isEmpty()
                && kept.isEmpty();
    }
}
