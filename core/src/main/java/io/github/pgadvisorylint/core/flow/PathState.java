package io.github.pgadvisorylint.core.flow;

import java.util.Collections;
import java.util.List;
import java.util.Map;
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
 * @param alias    variable or path to the connection identity it names
 * @param held     {@code connection|acquisitionId} to a count of 1 or 2
 * @param kinds    connection identity to its {@link ConnectionKind} name
 * @param closed   connection identities closed on this path, to the id of the node that closed them
 * @param tx       connection identity to {@code MANUAL} (after {@code setAutoCommit(false)}) or
 *                 {@code ABORTED} (a statement failed inside that transaction, F18)
 * @param bools    variable to {@code true} or {@code false}
 * @param failed   acquisition ids whose try-lock returned false, or threw, on this path
 * @param stuck    acquisition ids whose unlock ran in an aborted transaction and so released nothing (F18)
 * @param outer    {@code connection|releaseSiteId} for releases of holds the method did not take itself
 *                 (a release helper: the caller's hold ends)
 * @param stacked  acquisition ids taken again on this path while already held (F4)
 * @param escaped  local variables whose object left the method (stored in a field, returned, passed on)
 * @param owners   {@code connection|acquisitionId} to the local variable of the lock object the hold was
 *                 taken through, when that differs from the connection's own root
 * @param worked   acquisition ids after which this path ran other statements while the lock was held in
 *                 an open transaction (the writes the lock protects)
 * @param threw    blocking acquisitions whose call threw on this path (nothing was taken)
 * @param returned the connection identity the method returns on this path, or null
 */
public record PathState(
        Map<String, String> alias,
        Map<String, Integer> held,
        Map<String, String> kinds,
        Map<String, Integer> closed,
        Map<String, String> tx,
        Map<String, String> bools,
        Set<String> failed,
        Set<String> stuck,
        Set<String> outer,
        Set<String> stacked,
        Set<String> escaped,
        Map<String, String> owners,
        Set<String> worked,
        Set<String> threw,
        String returned) {

    /** The state at a method's entry: nothing known. */
    public static final PathState ENTRY = new PathState(
            Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Set.of(), Set.of(), Set.of(), Set.of(),
            Set.of(), Map.of(), Set.of(), Set.of(), null);

    /** Copies the collections into sorted immutable ones, so equal states compare and print equal. */
    public PathState {
        alias = freeze(alias);
        held = freeze(held);
        kinds = freeze(kinds);
        closed = freeze(closed);
        tx = freeze(tx);
        bools = freeze(bools);
        failed = Collections.unmodifiableSortedSet(new TreeSet<>(failed));
        stuck = Collections.unmodifiableSortedSet(new TreeSet<>(stuck));
        outer = Collections.unmodifiableSortedSet(new TreeSet<>(outer));
        stacked = Collections.unmodifiableSortedSet(new TreeSet<>(stacked));
        escaped = Collections.unmodifiableSortedSet(new TreeSet<>(escaped));
        owners = freeze(owners);
        worked = Collections.unmodifiableSortedSet(new TreeSet<>(worked));
        threw = Collections.unmodifiableSortedSet(new TreeSet<>(threw));
    }

    private static <V> Map<String, V> freeze(Map<String, V> m) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(m));
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
                returned == null ? "" : returned);
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
        Map<String, String> b = new TreeMap<>(bools);
        b.entrySet().removeIf(e -> !e.getValue().equals(other.bools.get(e.getKey())));
        return new PathState(
                a, held, kinds, closed, tx, b, failed, stuck, outer, stacked, escaped, owners, worked, threw, returned);
    }

    /** @return a builder seeded with this state */
    public Mutable edit() {
        return new Mutable(this);
    }

    /** A mutable copy used by one transfer step. */
    public static final class Mutable {
        final TreeMap<String, String> alias;
        final TreeMap<String, Integer> held;
        final TreeMap<String, String> kinds;
        final TreeMap<String, Integer> closed;
        final TreeMap<String, String> tx;
        final TreeMap<String, String> bools;
        final TreeSet<String> failed;
        final TreeSet<String> stuck;
        final TreeSet<String> outer;
        final TreeSet<String> stacked;
        final TreeSet<String> escaped;
        final TreeMap<String, String> owners;
        final TreeSet<String> worked;
        final TreeSet<String> threw;
        String returned;

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
        }

        /** @return the immutable state */
        public PathState done() {
            return new PathState(
                    alias, held, kinds, closed, tx, bools, failed, stuck, outer, stacked, escaped, owners, worked,
                    threw, returned);
        }
    }
}
