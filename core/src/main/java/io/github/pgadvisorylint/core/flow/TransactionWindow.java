package io.github.pgadvisorylint.core.flow;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * What a transaction-level lock's transaction covers on a method's graph: whether the transaction ends before any
 * work after the lock, while work follows that end (F2: the lock ends with its transaction, so that work runs
 * without it). Read on the graph's normal edges only; an exception path ends the method or a handler, not the work.
 */
final class TransactionWindow {

    private TransactionWindow() {}

    /**
     * Where the transaction ended before the work, and the first work after it.
     *
     * @param end  the node that ends the transaction (commit or rollback) first on some path
     * @param work the first work node a path after that end reaches
     */
    record Gap(int end, int work) {}

    /**
     * @param flow       the method
     * @param lock       the node that takes the transaction-level lock
     * @param endsIt     whether a node ends the lock's transaction (a commit or rollback of its connection)
     * @param isWork     whether a node is work the lock could guard (a statement or a call that can fail, not
     *                   logging, not cleanup in a {@code finally})
     * @param locks      whether a node takes a transaction-level lock on the same connection (the lock itself, or
     *                   another that covers what follows it)
     * @return the gap when every normal path from the lock reaches an end of its transaction before any work, and
     *     some path after such an end reaches work without coming to a lock again; else empty
     */
    static Optional<Gap> endsBeforeWork(
            MethodFlow flow, int lock, IntPredicate endsIt, Predicate<FlowNode> isWork, IntPredicate locks) {
        List<Integer> ends = new ArrayList<>();
        boolean[] seen = new boolean[flow.nodes().size()];
        Deque<Integer> todo = new ArrayDeque<>(flow.nodes().get(lock).next());
        while (!todo.isEmpty()) {
            int id = todo.poll();
            if (seen[id]) {
                continue;
            }
            seen[id] = true;
            if (endsIt.test(id)) {
                ends.add(id);
                continue;
            }
            FlowNode n = flow.nodes().get(id);
            if (isWork.test(n)) {
                return Optional.empty(); // the transaction holds the lock for this work
            }
            todo.addAll(n.next());
        }
        if (ends.isEmpty()) {
            return Optional.empty();
        }
        int work = firstAfter(
                flow,
                ends,
                lock,
                locks,
                id -> isWork.test(flow.nodes().get(id))
                        && flow.nodes().get(id).event().kind() != FlowEvent.Kind.END);
        return work < 0 ? Optional.empty() : Optional.of(new Gap(ends.get(0), work));
    }

    /**
     * @return the first node a walk of the normal edges from the successors of {@code from} reaches that passes
     *     {@code found}, not going through the lock or another lock on its connection; -1 when none
     */
    private static int firstAfter(
            MethodFlow flow, List<Integer> from, int lock, IntPredicate locks, IntPredicate found) {
        boolean[] after = new boolean[flow.nodes().size()];
        Deque<Integer> rest = new ArrayDeque<>();
        from.forEach(e -> rest.addAll(flow.nodes().get(e).next()));
        while (!rest.isEmpty()) {
            int id = rest.poll();
            if (after[id] || id == lock || locks.test(id)) {
                continue;
            }
            after[id] = true;
            if (found.test(id)) {
                return id;
            }
            rest.addAll(flow.nodes().get(id).next());
        }
        return -1;
    }

    /**
     * The guarded work in a loop that commits as it goes: the lock's transaction covers the first round, and the
     * commit at its end lets the next rounds run the same work without the lock.
     *
     * @param flow   the method
     * @param lock   the node that takes the transaction-level lock
     * @param endsIt whether a node ends the lock's transaction
     * @param isWork whether a node is work the lock could guard
     * @param locks  whether a node takes a transaction-level lock on the same connection
     * @return the gap (an end, and a work node the lock's transaction covered that a path after that end reaches
     *     again without coming to a lock again), or empty
     */
    static Optional<Gap> workAgainAfterEnd(
            MethodFlow flow, int lock, IntPredicate endsIt, Predicate<FlowNode> isWork, IntPredicate locks) {
        boolean[] covered = new boolean[flow.nodes().size()];
        boolean[] seen = new boolean[flow.nodes().size()];
        List<Integer> ends = new ArrayList<>();
        Deque<Integer> todo = new ArrayDeque<>(flow.nodes().get(lock).next());
        while (!todo.isEmpty()) {
            int id = todo.poll();
            if (seen[id] || id == lock) {
                continue;
            }
            seen[id] = true;
            if (endsIt.test(id)) {
                ends.add(id);
                continue;
            }
            FlowNode n = flow.nodes().get(id);
            covered[id] = isWork.test(n) && n.event().kind() != FlowEvent.Kind.END;
            todo.addAll(n.next());
        }
        for (int end : ends) {
            int again = firstAfter(flow, List.of(end), lock, locks, id -> covered[id]);
            if (again >= 0) {
                return Optional.of(new Gap(end, again));
            }
        }
        return Optional.empty();
    }
}
