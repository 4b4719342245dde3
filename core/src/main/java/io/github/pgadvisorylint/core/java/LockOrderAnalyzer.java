package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.ArrayCreationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.ContinueStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import com.github.javaparser.ast.stmt.YieldStmt;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockOrderEdge;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.LoopOrder;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The lock order of one file's methods: which acquisition is taken while which is still held
 * (RULES.md unordered-multi-key-lock, F9), and the loop around each acquisition. Source order stands
 * for execution order within a method; a lock is held from its acquisition to its paired release, to
 * the end of the method when it has none there, and, for a transaction-level lock, to the end of the
 * transaction: the first {@code commit()} or {@code rollback()} of the method after it, else the method's end
 * (F2); a lock taken by a helper that releases it itself is held only inside the
 * call (its lambda argument).
 */
final class LockOrderAnalyzer {

    private static final Pattern SORTED_TYPE = Pattern.compile("(Sorted|Navigable|Tree)(Set|Map)\\b.*");

    private final SourceFile file;

    LockOrderAnalyzer(SourceFile file) {
        this.file = file;
    }

    /**
     * Largest number of lock-order edges kept for one method. A method that holds k locks at once has
     * k(k-1)/2 of them (1,000 lock calls without an unlock: half a million); past this bound (about 720
     * locks held at once) the method's further edges are left out and said so, and the analysis of the
     * file stays linear in its size.
     */
    static final int MAX_EDGES_PER_METHOD = 262_144;

    /**
     * Largest number of syntax-tree steps spent on the pairs of one method (walks up to the common ancestor
     * of two locks). Pairs cost the nesting depth between them, so a chain of 3,000 {@code else if} arms with
     * a lock in each took minutes (n pairs squared, times the depth); past this bound the method's further
     * pairs are left out and said so. Counts work, not time: the same file gives the same result anywhere.
     */
    static final long MAX_STEPS_PER_METHOD = 20_000_000L;

    /** Steps spent on the current method's pairs. */
    private long steps;

    /**
     * Edges and loops of a file.
     *
     * @param edges     the lock-order edges, at most {@link #MAX_EDGES_PER_METHOD} per method
     * @param overBound the methods (callables) whose further edges were left out over that bound, or over
     *                  {@link #MAX_STEPS_PER_METHOD}, in order
     */
    record Result(List<LockOrderEdge> edges, Map<String, LoopOrder> loops, List<Node> overBound) {}

    Result analyze(List<LockSite> sites, Map<LockSite, Node> nodes, List<LockLifecycle> lifecycles) {
        Map<LockSite, LockLifecycle> lifecycleOf = new HashMap<>();
        for (LockLifecycle l : lifecycles) {
            lifecycleOf.put(l.acquisition(), l);
        }
        IdentityGroups<Node, LockSite> byScope = new IdentityGroups<>();
        Map<LockSite, Integer> siteOrder = new IdentityHashMap<>();
        for (LockSite s : sites) {
            siteOrder.putIfAbsent(s, siteOrder.size());
        }
        Map<String, LoopOrder> loops = new HashMap<>();
        for (LockSite s : sites) {
            Node n = nodes.get(s);
            if (n == null || !s.function().operation().isAcquisition()) {
                continue;
            }
            Node scope = JavaScopes.callableOf(n);
            if (scope != null && !LifecycleAnalyzer.preparedForLater(n)) {
                byScope.add(scope, s);
            }
            LoopOrder loop = loop(n);
            if (loop != null) {
                loops.put(s.id(), loop);
            }
        }
        List<LockOrderEdge> edges = new ArrayList<>();
        List<Node> overBound = new ArrayList<>();
        for (Node scope : byScope.keys()) {
            List<LockSite> acquisitions = new ArrayList<>(byScope.get(scope)); // sites are created in order per node
            acquisitions.sort((a, b) -> {
                int c = Integer.compare(offset(nodes.get(a)), offset(nodes.get(b)));
                return c != 0 ? c : Integer.compare(siteOrder.get(a), siteOrder.get(b));
            });
            boolean ordered = ordersItsKeys(scope);
            int kept = 0;
            steps = 0;
            pairs:
            for (int i = 0; i < acquisitions.size(); i++) {
                for (int j = i + 1; j < acquisitions.size(); j++) {
                    if (steps > MAX_STEPS_PER_METHOD) {
                        overBound.add(scope);
                        break pairs;
                    }
                    LockSite a = acquisitions.get(i);
                    LockSite b = acquisitions.get(j);
                    if (heldAt(a, b, nodes.get(a), nodes.get(b), lifecycleOf.get(a))) {
                        if (++kept > MAX_EDGES_PER_METHOD) {
                            overBound.add(scope);
                            break pairs;
                        }
                        edges.add(new LockOrderEdge(a, b, ordered));
                    }
                }
            }
        }
        return new Result(edges, loops, overBound);
    }

    /** Whether {@code a} is still held when {@code bNode} runs. */
    private boolean heldAt(LockSite a, LockSite b, Node aNode, Node bNode, LockLifecycle life) {
        if (aNode == bNode) {
            // two operations of one helper call, in the helper's order; two forms of one statement are
            // one lock, never two at once
            return !a.sameStatement(b);
        }
        if (exclusive(aNode, bNode)) {
            return false; // the other arm of an if, a switch or a conditional: never both on one path
        }
        if (isWithin(bNode, aNode)) {
            return true; // inside the lock call's own arguments (withLock(key, () -> ...))
        }
        if (a.function().level() == LockLevel.TRANSACTION) {
            return !transactionEndsBetween(aNode, bNode); // held to its transaction's end (F2)
        }
        if (life == null) {
            return true;
        }
        ReleaseGuarantee g = life.guarantee();
        if (g == ReleaseGuarantee.BY_HELPER) {
            return false; // released by the helper before it returns
        }
        if (g == ReleaseGuarantee.TRY_WITH_RESOURCES) {
            Optional<TryStmt> t = aNode.findAncestor(TryStmt.class);
            return t.isPresent() && isWithin(bNode, t.get());
        }
        if (life.releaseRegion() != null && life.releaseRegion().path().equals(file.path())) {
            int release = file.offsetOf(
                    life.releaseRegion().startLine(), life.releaseRegion().startColumn());
            return release > offset(bNode);
        }
        return true; // no release in the method: held to its end
    }

    /**
     * @return true when a {@code commit()} or {@code rollback()} of the method runs, in source order, after
     *     {@code aNode} and before {@code bNode}, outside any lambda: it ends the transaction that held the
     *     transaction-level lock taken at {@code aNode}
     */
    private boolean transactionEndsBetween(Node aNode, Node bNode) {
        Node method = aNode.findAncestor(CallableDeclaration.class).orElse(null);
        if (method == null || !bNode.isDescendantOf(method)) {
            return false;
        }
        int from = offset(aNode);
        int to = offset(bNode);
        for (MethodCallExpr call : method.findAll(MethodCallExpr.class)) {
            String name = call.getNameAsString();
            if (!(name.equals("commit") || name.equals("rollback"))
                    || call.getArguments().size() > 1) {
                continue;
            }
            LambdaExpr lambda = call.findAncestor(LambdaExpr.class)
                    .filter(l -> l.isDescendantOf(method))
                    .orElse(null);
            if (lambda != null && !aNode.isDescendantOf(lambda)) {
                continue; // a callback's own transaction
            }
            int at = offset(call);
            if (at > from && at < to && !exclusive(call, bNode)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return true when the two nodes lie in different arms of one {@code if}/{@code else}, one
     *     conditional expression, or one switch whose arms do not fall through (arrow arms, or a
     *     statement group that ends in {@code break}, {@code return}, {@code throw} or {@code continue}):
     *     no path runs both
     */
    private boolean exclusive(Node a, Node b) {
        // each ancestor of a, with the child on a's side below it
        Map<Node, Node> childTowardA = new IdentityHashMap<>();
        for (Node child = a, cur = a.getParentNode().orElse(null);
                cur != null;
                child = cur, cur = cur.getParentNode().orElse(null)) {
            childTowardA.put(cur, child);
            steps++;
        }
        Node below = b;
        for (Node cur = b.getParentNode().orElse(null);
                cur != null;
                cur = cur.getParentNode().orElse(null)) {
            steps++;
            Node aChild = childTowardA.get(cur);
            if (aChild != null) {
                Node bChild = below;
                if (cur instanceof IfStmt i) {
                    return i.getElseStmt().isPresent()
                            && ((aChild == i.getThenStmt()
                                            && bChild == i.getElseStmt().get())
                                    || (bChild == i.getThenStmt()
                                            && aChild == i.getElseStmt().get()));
                }
                if (cur instanceof ConditionalExpr c) {
                    return (aChild == c.getThenExpr() && bChild == c.getElseExpr())
                            || (bChild == c.getThenExpr() && aChild == c.getElseExpr());
                }
                if (aChild instanceof SwitchEntry ea && bChild instanceof SwitchEntry eb && ea != eb) {
                    return endsArm(ea);
                }
                return false;
            }
            if (cur instanceof CallableDeclaration<?>) {
                return false;
            }
            below = cur;
        }
        return false;
    }

    /** @return whether control leaves the switch arm at its end (no fall-through into the next arm) */
    private static boolean endsArm(SwitchEntry e) {
        if (e.getType() != SwitchEntry.Type.STATEMENT_GROUP) {
            return true;
        }
        NodeList<Statement> body = e.getStatements();
        if (body.isEmpty()) {
            return false;
        }
        Statement last = body.get(body.size() - 1);
        while (last instanceof BlockStmt block && !block.getStatements().isEmpty()) {
            last = block.getStatements().get(block.getStatements().size() - 1);
        }
        return last instanceof BreakStmt
                || last instanceof ReturnStmt
                || last instanceof ThrowStmt
                || last instanceof ContinueStmt
                || last instanceof YieldStmt;
    }

    /** The loop around an acquisition, with whether its elements come in a fixed order. */
    private LoopOrder loop(Node n) {
        for (Node cur = n.getParentNode().orElse(null);
                cur != null;
                cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof ForEachStmt fe) {
                return iterated(fe.getIterable(), n);
            }
            if (cur instanceof WhileStmt w && w.getCondition().toString().endsWith(".next()")) {
                return new LoopOrder(w.getCondition().toString(), false, "rows of a result set");
            }
            if (cur instanceof LambdaExpr l
                    && l.getParentNode().orElse(null) instanceof MethodCallExpr call
                    && (call.getNameAsString().equals("forEach")
                            || call.getNameAsString().equals("forEachOrdered"))
                    && call.getScope().isPresent()) {
                return iterated(call.getScope().get(), n);
            }
            if (cur instanceof CallableDeclaration<?>) {
                return null;
            }
        }
        return null;
    }

    private LoopOrder iterated(Expression source, Node use) {
        String text = source.toString();
        if (text.contains("sorted(") || text.contains("TreeSet") || text.contains("TreeMap")) {
            return new LoopOrder(text, true, "sorted before the loop");
        }
        String fixed = fixedOrder(source, use, 0);
        if (fixed != null) {
            return new LoopOrder(text, true, fixed);
        }
        Expression root = source;
        while (root instanceof MethodCallExpr m && m.getScope().isPresent()) {
            root = m.getScope().get();
        }
        if (root instanceof NameExpr n) {
            String name = n.getNameAsString();
            String type = JavaScopes.declaredType(name, use);
            if (type != null && SORTED_TYPE.matcher(type).matches()) {
                return new LoopOrder(text, true, name + " is a " + JavaScopes.simpleTypeName(type));
            }
            Node scope = JavaScopes.callableOf(use);
            if (scope != null) {
                int at = offset(use);
                for (MethodCallExpr m : JavaScopes.calls(scope)) {
                    boolean sorts = (m.getNameAsString().equals("sort")
                            && (m.getScope().map(s -> s.toString().equals(name)).orElse(false)
                                    || m.getArguments().stream()
                                            .anyMatch(x -> x.toString().equals(name))));
                    if (sorts && offset(m) < at) {
                        return new LoopOrder(text, true, name + " is sorted before the loop");
                    }
                }
                Optional<VariableDeclarator> v = JavaScopes.local(name, use);
                if (v.isPresent() && v.get().getInitializer().isPresent()) {
                    String init = v.get().getInitializer().get().toString();
                    if (init.contains("sorted(")
                            || init.matches("(?is).*\\bORDER\\s+BY\\b.*")
                            || init.contains("new TreeSet")
                            || init.contains("new TreeMap")) {
                        return new LoopOrder(text, true, name + " comes sorted");
                    }
                }
            }
            return new LoopOrder(
                    text,
                    false,
                    type == null
                            ? "no visible order"
                            : name + " is a " + JavaScopes.simpleTypeName(type) + " with no visible sort");
        }
        return new LoopOrder(text, false, "no visible order");
    }

    /**
     * Why an iterated expression visits its elements in an order the language fixes, the same in every
     * caller and JVM, or null: an enum's {@code values()} and {@code EnumSet}s (declaration order, JLS
     * 8.9.3; {@code EnumSet} iterates in natural order), and {@code List.of}, {@code Arrays.asList},
     * {@code Stream.of} or an array initializer of constants, directly or through a local or a constant
     * field initialised with one. {@code Set.of} and {@code Map.of} are not: their iteration order is
     * unspecified and varies between JVM runs.
     */
    private static String fixedOrder(Expression source, Node use, int depth) {
        if (depth > 3) {
            return null;
        }
        if (source instanceof MethodCallExpr m) {
            String name = m.getNameAsString();
            String scope = m.getScope().map(Node::toString).orElse("");
            if (name.equals("values")
                    && m.getArguments().isEmpty()
                    && !scope.isEmpty()
                    && Character.isUpperCase(JavaScopes.simpleTypeName(scope).charAt(0))) {
                return scope + ".values() is in the enum's declaration order";
            }
            if (scope.equals("EnumSet")) {
                return "an EnumSet iterates in the enum's declaration order";
            }
            if (((scope.equals("List") || scope.equals("Stream")) && name.equals("of"))
                    || (scope.equals("Arrays") && (name.equals("asList") || name.equals("stream")))) {
                return m.getArguments().stream().allMatch(JavaScopes::isConstantLike)
                        ? "a fixed list of constants"
                        : null;
            }
            if (name.equals("stream") || name.equals("iterator")) {
                return m.getScope().map(s -> fixedOrder(s, use, depth + 1)).orElse(null);
            }
            return null;
        }
        if (source instanceof ArrayCreationExpr a && a.getInitializer().isPresent()) {
            return a.getInitializer().get().getValues().stream().allMatch(JavaScopes::isConstantLike)
                    ? "a fixed array of constants"
                    : null;
        }
        if (source instanceof ArrayInitializerExpr a) {
            return a.getValues().stream().allMatch(JavaScopes::isConstantLike) ? "a fixed array of constants" : null;
        }
        if (source instanceof NameExpr n) {
            Optional<VariableDeclarator> local = JavaScopes.local(n.getNameAsString(), use);
            if (local.isPresent()) {
                return local.get().getInitializer().isPresent() && !JavaScopes.reassigned(local.get())
                        ? fixedOrder(local.get().getInitializer().get(), use, depth + 1)
                        : null;
            }
            if (!JavaScopes.isParameter(n.getNameAsString(), use)) {
                for (Node cur = use; cur != null; cur = cur.getParentNode().orElse(null)) {
                    if (cur instanceof TypeDeclaration<?> t) {
                        Optional<FieldDeclaration> f = t.getFieldByName(n.getNameAsString());
                        if (f.isPresent()) {
                            return f.get().isFinal()
                                    ? f.get().getVariables().stream()
                                            .filter(v -> v.getNameAsString().equals(n.getNameAsString()))
                                            .findFirst()
                                            .flatMap(VariableDeclarator::getInitializer)
                                            .map(i -> fixedOrder(i, i, depth + 1))
                                            .orElse(null)
                                    : null;
                        }
                    }
                }
            }
        }
        return null;
    }

    /**
     * Whether a method puts values into an order itself: a comparison ({@code <}, {@code >}),
     * {@code Math.min}/{@code max}, {@code compareTo}/{@code compare}, or a sort.
     */
    private static boolean ordersItsKeys(Node method) {
        boolean compares = method.findAll(BinaryExpr.class).stream().anyMatch(b -> switch (b.getOperator()) {
            case LESS, GREATER, LESS_EQUALS, GREATER_EQUALS -> true;
            default -> false;
        });
        return compares
                || JavaScopes.calls(method).stream()
                        .anyMatch(m -> Set.of("min", "max", "compareTo", "compare", "sort", "sorted")
                                .contains(m.getNameAsString()));
    }

    private static boolean isWithin(Node n, Node container) {
        for (Node cur = n; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur == container) {
                return true;
            }
        }
        return false;
    }

    private int offset(Node n) {
        return n.getBegin().map(p -> file.offsetOf(p.line, p.column)).orElse(0);
    }
}
