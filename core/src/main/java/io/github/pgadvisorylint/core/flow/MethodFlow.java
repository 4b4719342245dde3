package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The control-flow graph of one method, constructor, lambda or anonymous-class method body, lowered to
 * {@link FlowEvent}s. Node 0 is the entry, node 1 the normal exit, node 2 the exceptional exit.
 *
 * @param typeName    simple name of the declaring type ({@code InvoiceJob}); lambdas use the enclosing type
 * @param supertypes  simple names the declaring type extends and implements, in source order
 * @param name        method name; {@code <init>} for constructors; {@code name$lambdaN} for a lambda
 * @param params      parameter names in order
 * @param paramTypes  simple parameter type names in order ({@code Connection}, {@code long})
 * @param modifiers   {@code private}, {@code public}, {@code static}, and annotation simple names
 *                    prefixed with {@code @} ({@code @PreDestroy}, {@code @Transactional})
 * @param nodes       the graph; each node's id is its index
 * @param region      the method's name
 */
public record MethodFlow(
        String typeName,
        List<String> supertypes,
        String name,
        List<String> params,
        List<String> paramTypes,
        Set<String> modifiers,
        List<FlowNode> nodes,
        SourceRegion region) {

    /** Index of the entry node. */
    public static final int ENTRY = 0;
    /** Index of the normal exit node. */
    public static final int EXIT = 1;
    /** Index of the exceptional exit node. */
    public static final int EXCEPTIONAL_EXIT = 2;

    /** Copies the collections. */
    public MethodFlow {
        Objects.requireNonNull(typeName, "typeName");
        Objects.requireNonNull(name, "name");
        supertypes = List.copyOf(supertypes);
        params = List.copyOf(params);
        paramTypes = List.copyOf(paramTypes);
        modifiers = Set.copyOf(modifiers);
        nodes = List.copyOf(nodes);
    }

    /**
     * @return the graph as text, one node a line ({@code 3 LOCK on=conn sites=[A.java#0] -> $1 next=[4] throw=[5]}),
     *     for golden tests and debugging
     */
    public String render() {
        StringBuilder b = new StringBuilder(key()).append('\n');
        for (FlowNode n : nodes) {
            FlowEvent e = n.event();
            b.append("  ").append(n.id()).append(' ').append(e.kind());
            if (e.path() != null) {
                b.append(" on=").append(e.path());
            }
            if (!e.sites().isEmpty()) {
                b.append(" sites=").append(e.sites());
            }
            if (!e.callee().isEmpty()) {
                b.append(" callee=").append(e.callee());
            }
            if (!e.args().isEmpty()) {
                b.append(" args=").append(e.args());
            }
            if (e.negated()) {
                b.append(" negated");
            }
            if (e.writesNothing()) {
                b.append(" writes-nothing");
            }
            if (e.target() != null) {
                b.append(" -> ").append(e.target());
            }
            b.append(" next=").append(n.next());
            if (!n.onException().isEmpty()) {
                b.append(" throw=").append(n.onException());
            }
            if (n.inFinally()) {
                b.append(" finally");
            }
            b.append('\n');
        }
        return b.toString();
    }

    /**
     * @param newName      the copy's name, which gives it a key of its own ({@code runLocked$tx})
     * @param newModifiers the copy's modifiers
     * @param newNodes     the copy's graph, node for node this one's with some events changed
     * @return a copy of this graph in another calling context, declared at the same place
     */
    public MethodFlow derive(String newName, Set<String> newModifiers, List<FlowNode> newNodes) {
        return new MethodFlow(typeName, supertypes, newName, params, paramTypes, newModifiers, newNodes, region);
    }

    /**
     * A walk of the graph from {@code from}'s successors.
     *
     * @param from       the node to start after
     * @param exceptions true to follow exception edges too, false for normal edges only
     * @param target     the test for a node reached
     * @return whether some node the walk reaches passes {@code target}
     */
    public boolean reaches(Collection<Integer> from, boolean exceptions, IntPredicate target) {
        boolean[] seen = new boolean[nodes.size()];
        Deque<Integer> todo = new ArrayDeque<>(from);
        while (!todo.isEmpty()) {
            int n = todo.poll();
            if (seen[n]) {
                continue;
            }
            seen[n] = true;
            if (target.test(n)) {
                return true;
            }
            todo.addAll(nodes.get(n).next());
            if (exceptions) {
                todo.addAll(nodes.get(n).onException());
            }
        }
        return false;
    }

    /** @return {@code Type.name/arity}, the key calls resolve by */
    public String key() {
        return typeName + "." + name + "/" + params.size();
    }

    /**
     * @return the key with the declared parameter types, {@code Type.name/2(Connection,long)}: unique per overload,
     *     where {@link #key()} is shared by overloads of one arity
     */
    public String signature() {
        return key() + "(" + String.join(",", paramTypes) + ")";
    }
}
