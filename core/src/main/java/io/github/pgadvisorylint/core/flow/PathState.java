package io.github.pgadvisorylint.core.flow;

import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The abstract lock state along one path through a method: which connection each variable names, the
 * session-level locks each connection holds (re-entrant: a count of 1 or 2, where 2 stands for "two or
 * more", RULES.md F4), each connection's kind, whether it is closed, its transaction state, the booleans
 * the path has fixed, and the acquisitions that failed on the way. Immutable; the analysis keeps a
 * bounded set of these per node (a disjunctive domain), so a try-lock's two outcomes stay apart.
 *
 * <p>Connections are named by their identity: an access path ({@code conn}, {@code this.connection},
 * {@code lock.conn}) or the node that opened them ({@code @7}). Lock sites are named by their
 * {@code LockSite} id.
 *
 * @param alias    variable or path to the connection identity it names
 * @param held     a hold to its count, 1 or 2
 * @param kinds    connection identity to its kind
 * @param closed   connection identities closed on this path, to the id of the node that closed them
 * @param tx       connection identity to the state of its open transaction
 * @param bools    variable to the boolean this path fixed for it
 * @param failed   acquisition ids whose try-lock returned false, or threw, on this path
 * @param stuck    acquisition ids whose unlock ran in an aborted transaction and so released nothing (F18)
 * @param outer    releases of holds the method did not take itself (a release helper: the caller's hold ends)
 * @param stacked  acquisition ids taken again on this path while already held (F4)
 * @param escaped  local variables whose object left the method (stored in a field, returned, passed on)
 * @param owners   a hold to the local variable of the lock object it was taken through, when that differs
 *                 from the connection's own root
 * @param worked   statements this path ran while a lock was held, in an open transaction (the writes the
 *                 lock protects)
 * @param threw    acquisitions (blocking, or session-level try-locks) whose call threw on this path (nothing was
 *                 taken)
 * @param returned what the method returns on this path, when it matters to its callers: a connection identity
 *                 ({@code @12}), a field of this object ({@code this.connection}: an accessor), or the path of a
 *                 lock object whose fields hold ({@code $3}: a handle); else null
 * @param attempts the try-locks (session- or transaction-level) this path tried that no work has followed yet:
 *                 their outcome, and whether a branch has tested it ({@link Attempt})
 */
public record PathState(
        Map<String, String> alias,
        Map<Hold, Integer> held,
        Map<String, ConnectionKind> kinds,
        Map<String, Integer> closed,
        Map<String, Transaction> tx,
        Map<String, Boolean> bools,
        Set<String> failed,
        Set<String> stuck,
        Set<Release> outer,
        Set<String> stacked,
        Set<String> escaped,
        Map<Hold, String> owners,
        Set<Work> worked,
        Set<String> threw,
        String returned,
        Set<Attempt> attempts) {

    /**
     * A try-lock's outcome on a path, until the first work after it: work first reached both by a path where it
     * succeeded and by one where it failed, each having tested the result, runs with and without the lock.
     *
     * @param acquisition the try-lock's site id
     * @param held        whether it returned true
     * @param testedOn    the variable of the last branch on a boolean the path fixed since (the result, or a copy,
     *                    was looked at there), or null while none has run
     */
    public record Attempt(String acquisition, boolean held, String testedOn) implements Comparable<Attempt> {
        private static final Comparator<Attempt> ORDER = Comparator.comparing(Attempt::acquisition)
                .thenComparing(Attempt::held)
                .thenComparing(Attempt::testedOn, Comparator.nullsFirst(Comparator.naturalOrder()));

        /** @return whether a branch has tested the result since the attempt */
        public boolean tested() {
            return testedOn != null;
        }

        /** The site id is required. */
        public Attempt {
            Objects.requireNonNull(acquisition, "acquisition");
        }

        @Override
        public int compareTo(Attempt o) {
            return ORDER.compare(this, o);
        }
    }

    /**
     * A session-level lock held on a connection.
     *
     * @param connection the connection identity (in a {@link MethodSummary}, a path relative to the callee:
     *                   {@code #0}, {@code #this.connection})
     * @param acquisition the id of the lock site that took it
     */
    public record Hold(String connection, String acquisition) implements Comparable<Hold> {
        private static final Comparator<Hold> ORDER =
                Comparator.comparing(Hold::connection).thenComparing(Hold::acquisition);

        /** Both parts are required. */
        public Hold {
            Objects.requireNonNull(connection, "connection");
            Objects.requireNonNull(acquisition, "acquisition");
        }

        @Override
        public int compareTo(Hold o) {
            return ORDER.compare(this, o);
        }

        @Override
        public String toString() {
            return connection + "|" + acquisition;
        }
    }

    /**
     * A release of a hold the method did not take: the caller's hold on that connection ends.
     *
     * @param connection the connection identity (relative to the callee in a {@link MethodSummary})
     * @param release    the id of the release site
     */
    public record Release(String connection, String release) implements Comparable<Release> {
        private static final Comparator<Release> ORDER =
                Comparator.comparing(Release::connection).thenComparing(Release::release);

        /** Both parts are required. */
        public Release {
            Objects.requireNonNull(connection, "connection");
            Objects.requireNonNull(release, "release");
        }

        @Override
        public int compareTo(Release o) {
            return ORDER.compare(this, o);
        }

        @Override
        public String toString() {
            return connection + "|" + release;
        }
    }

    /**
     * Work done under a hold in an open transaction, which the unlock must not expose before it commits.
     *
     * @param acquisition the id of the lock site whose hold the work ran under
     * @param connection  the connection whose open transaction holds the work, or null for the holding
     *                    connection's own transaction
     */
    public record Work(String acquisition, String connection) implements Comparable<Work> {
        private static final Comparator<Work> ORDER = Comparator.comparing(Work::acquisition)
                .thenComparing(Work::connection, Comparator.nullsFirst(Comparator.naturalOrder()));

        /** The acquisition is required. */
        public Work {
            Objects.requireNonNull(acquisition, "acquisition");
        }

        /**
         * @param acquisition a lock site id
         * @return work in the transaction of the connection that holds the lock
         */
        public static Work own(String acquisition) {
            return new Work(acquisition, null);
        }

        /** @return true when the work is in the holding connection's own transaction */
        public boolean isOwn() {
            return connection == null;
        }

        @Override
        public int compareTo(Work o) {
            return ORDER.compare(this, o);
        }

        @Override
        public String toString() {
            return connection == null ? acquisition : acquisition + "|" + connection;
        }
    }

    /** The state of a connection's open transaction. */
    public enum Transaction {
        /** Opened by the code: {@code setAutoCommit(false)}, SQL {@code BEGIN}, a framework's transaction. */
        MANUAL,
        /**
         * Opened by the pool: the configuration hands out pooled connections with auto-commit off; or by the accessor
         * of a connection an object keeps, which turned auto-commit off when it opened it. A failed statement aborts
         * it (F18), but an unlock in it is not judged against a commit the code may never write.
         */
        POOL,
        /** A statement failed in it: every later statement fails with 25P02 until it ends (F18). */
        ABORTED
    }

    /** The state at a method's entry: nothing known. */
    public static final PathState ENTRY = new PathState(
            Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Set.of(), Set.of(), Set.of(), Set.of(),
            Set.of(), Map.of(), Set.of(), Set.of(), null, Set.of());

    /** Copies the collections into sorted immutable ones, so equal states compare and print equal. */
    public PathState {
        alias = freeze(alias);
        held = freeze(held);
        kinds = freeze(kinds);
        closed = freeze(closed);
        tx = freeze(tx);
        bools = freeze(bools);
        failed = freeze(failed);
        stuck = freeze(stuck);
        outer = freeze(outer);
        stacked = freeze(stacked);
        escaped = freeze(escaped);
        owners = freeze(owners);
        worked = freeze(worked);
        threw = freeze(threw);
        attempts = freeze(attempts);
    }

    private static <K extends Comparable<K>, V> Map<K, V> freeze(Map<K, V> m) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(m));
    }

    private static <E extends Comparable<E>> Set<E> freeze(Set<E> s) {
        return Collections.unmodifiableSortedSet(new TreeSet<>(s));
    }

    /**
     * @param acquisition an acquisition site id
     * @return true when this path holds a lock that site took, on any connection
     */
    public boolean holds(String acquisition) {
        for (Hold k : held.keySet()) {
            if (k.acquisition().equals(acquisition)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param identity a connection identity ({@code @12})
     * @return the first field of this object, in name order, that names it on this path ({@code this.connection}),
     *     or null
     */
    public String fieldNaming(String identity) {
        String first = null;
        for (Map.Entry<String, String> a : alias.entrySet()) {
            if (a.getKey().startsWith("this.")
                    && a.getValue().equals(identity)
                    && (first == null || a.getKey().compareTo(first) < 0)) {
                first = a.getKey();
            }
        }
        return first;
    }

    /**
     * @param path an access path
     * @return the connection identity it names: the alias of its longest aliased prefix, followed by the rest
     */
    public String resolve(String path) {
        if (path == null) {
            return null;
        }
        String cur = path;
        for (int guard = 0; guard < 8; guard++) {
            String found = null;
            String rest = "";
            String prefix = cur;
            while (true) {
                if (alias.containsKey(prefix)) {
                    found = alias.get(prefix);
                    break;
                }
                int dot = prefix.lastIndexOf('.');
                if (dot < 0) {
                    break;
                }
                rest = prefix.substring(dot) + rest;
                prefix = prefix.substring(0, dot);
            }
            if (found == null || (found + rest).equals(cur)) {
                return cur;
            }
            cur = found + rest;
        }
        return cur;
    }

    /**
     * @return the lock-relevant part of this state: everything but the aliases and the fixed booleans.
     *     Two states with the same projection differ only in what the analysis knows about names.
     */
    public List<Object> projection() {
        return List.of(
                held,
                kinds,
                closed,
                tx,
                failed,
                stuck,
                outer,
                stacked,
                escaped,
                owners,
                worked,
                threw,
                returned == null ? "" : returned,
                attempts);
    }

    /**
     * The join of two states with the same {@link #projection()}: the aliases and booleans both agree
     * on, the rest as it is. Used when a node holds too many paths; it forgets correlations between
     * names, never a hold.
     *
     * @param other a state with the same projection
     * @return the join
     */
    public PathState meet(PathState other) {
        Map<String, String> a = new TreeMap<>(alias);
        a.entrySet().removeIf(e -> !e.getValue().equals(other.alias.get(e.getKey())));
        Map<String, Boolean> b = new TreeMap<>(bools);
        b.entrySet().removeIf(e -> !e.getValue().equals(other.bools.get(e.getKey())));
        return new PathState(
                a, held, kinds, closed, tx, b, failed, stuck, outer, stacked, escaped, owners, worked, threw, returned,
                attempts);
    }

    /** @return a builder seeded with this state */
    public Mutable edit() {
        return new Mutable(this);
    }

    /** A mutable copy used by one transfer step. */
    public static final class Mutable {
        final TreeMap<String, String> alias;
        final TreeMap<Hold, Integer> held;
        final TreeMap<String, ConnectionKind> kinds;
        final TreeMap<String, Integer> closed;
        final TreeMap<String, Transaction> tx;
        final TreeMap<String, Boolean> bools;
        final TreeSet<String> failed;
        final TreeSet<String> stuck;
        final TreeSet<Release> outer;
        final TreeSet<String> stacked;
        final TreeSet<String> escaped;
        final TreeMap<Hold, String> owners;
        final TreeSet<Work> worked;
        final TreeSet<String> threw;
        String returned;
        final TreeSet<Attempt> attempts;

        Mutable(PathState s) {
            alias = new TreeMap<>(s.alias);
            held = new TreeMap<>(s.held);
            kinds = new TreeMap<>(s.kinds);
            closed = new TreeMap<>(s.closed);
            tx = new TreeMap<>(s.tx);
            bools = new TreeMap<>(s.bools);
            failed = new TreeSet<>(s.failed);
            stuck = new TreeSet<>(s.stuck);
            outer = new TreeSet<>(s.outer);
            stacked = new TreeSet<>(s.stacked);
            escaped = new TreeSet<>(s.escaped);
            owners = new TreeMap<>(s.owners);
            worked = new TreeSet<>(s.worked);
            threw = new TreeSet<>(s.threw);
            returned = s.returned;
            attempts = new TreeSet<>(s.attempts);
        }

        /** Takes one more hold of {@code h}: the count stops at 2, "two or more" (F4). */
        void take(Hold h) {
            held.merge(h, 1, (a, b) -> Math.min(2, a + b));
        }

        /** Releases one hold of {@code h}, which this state holds. */
        void release(Hold h) {
            int left = held.get(h) - 1;
            if (left <= 0) {
                held.remove(h);
            } else {
                held.put(h, left);
            }
        }

        /** @return the immutable state */
        public PathState done() {
            return new PathState(
                    alias, held, kinds, closed, tx, bools, failed, stuck, outer, stacked, escaped, owners, worked,
                    threw, returned, attempts);
        }
    }
}
