package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.List;
import java.util.Objects;

/**
 * One node of a method's control-flow graph.
 *
 * @param id          index in {@link MethodFlow#nodes()}
 * @param event       what the node does
 * @param next        normal successors (for a {@link FlowEvent.Kind#BRANCH}: exactly two, true then false)
 * @param onException where control goes when the node throws; empty when it cannot throw
 * @param region      the source region of the code the node stands for, or null for synthetic nodes
 * @param inFinally   true when the node belongs to a {@code finally} block or a try-with-resources close
 * @param inCatch     true when the node belongs to a {@code catch} block: error handling
 */
public record FlowNode(
        int id,
        FlowEvent event,
        List<Integer> next,
        List<Integer> onException,
        SourceRegion region,
        boolean inFinally,
        boolean inCatch) {

    /** Copies the lists. */
    public FlowNode {
        Objects.requireNonNull(event, "event");
        next = List.copyOf(next);
        onException = List.copyOf(onException);
    }

    /**
     * @param e the event the copy does
     * @return this node with another event, everything else kept (a copy of a graph in another calling context)
     */
    public FlowNode withEvent(FlowEvent e) {
        return new FlowNode(id, e, next, onException, region, inFinally, inCatch);
    }
}
