package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.ContinueStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.facts.HelperSummary;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pairs each acquisition of one Java file with its release and decides how that release is
 * guaranteed (RULES.md lock-without-finally-unlock; the three lock bug classes of SpotBugs'
 * FindUnreleasedLock). Releases are unlock calls with a key that may equal the acquisition's, or
 * {@code pg_advisory_unlock_all()}, or calls of a method of the same file that releases.
 */
final class LifecycleAnalyzer {

    /** Loggers, and calls that read a lock's outcome or are otherwise harmless between the lock and its try. */
    private static final ApiCatalog API = ApiCatalog.standard();

    private final SourceFile file;
    private final Map<LockSite, Node> nodes;
    private final Map<LockSite, HelperSummary> helperOf;
    private final Map<LockSite, HelperSummary.Op> helperOps;

    LifecycleAnalyzer(
            SourceFile file,
            Map<LockSite, Node> nodes,
            Map<LockSite, HelperSummary> helperOf,
            Map<LockSite, HelperSummary.Op> helperOps) {
        this.file = file;
        this.nodes = nodes;
        this.helperOf = helperOf;
        this.helperOps = helperOps;
    }

    /** A release and the node that performs it in the method under study. */
    private record Release(Node node, SourceRegion region, String what) {}

    List<LockLifecycle> analyze(List<LockSite> sites) {
        Set<String> releasingMethods = releasingMethods(sites);
        List<LockLifecycle> out = new ArrayList<>();
        for (LockSite site : sites) {
            if (!site.function().operation().isAcquisition()) {
                continue;
            }
            out.add(lifecycle(site, sites, releasingMethods));
        }
        return out;
    }

    private LockLifecycle lifecycle(LockSite a, List<LockSite> sites, Set<String> releasingMethods) {
        if (a.function().level() == LockLevel.TRANSACTION) {
            return new LockLifecycle(a, ReleaseGuarantee.TRANSACTION_END, null, "transaction-level lock");
        }
        Node aNode = nodes.get(a);
        HelperSummary.Op op = helperOps.get(a);
        if (op != null && op.releasedInside()) {
            return new LockLifecycle(
                    a,
                    ReleaseGuarantee.BY_HELPER,
                    null,
                    helperOf.get(a).methodName() + " releases the lock itself in a finally block");
        }
        if (op != null && helperOf.get(a).handle()) {
            return handle(a, aNode, helperOf.get(a));
        }
        if (aNode == null
                || a.api() == ExecutionApi.DECLARATION
                || a.api() == ExecutionApi.SPRING_DATA_QUERY
                || aNode instanceof CallableDeclaration<?>) {
            // SQL declared on a method (@Query, @Procedure, @Select, @SqlQuery): its callers execute it
            return new LockLifecycle(a, ReleaseGuarantee.UNKNOWN, null, "executed elsewhere");
        }
        Node scope = JavaScopes.callableOf(aNode);
        if (scope == null) {
            return new LockLifecycle(a, ReleaseGuarantee.UNKNOWN, null, "not inside a method");
        }
        if (preparedForLater(aNode)) {
            return new LockLifecycle(a, ReleaseGuarantee.UNKNOWN, null, "prepared here, executed in another method");
        }
        List<Release> releases = new ArrayList<>();
        for (LockSite r : sites) {
            if (releases(r, a) && nodes.get(r) != null && JavaScopes.callableOf(nodes.get(r)) == scope) {
                releases.add(new Release(nodes.get(r), r.region(), r.display()));
            }
        }
        String ownName = scope instanceof MethodDeclaration m ? m.getNameAsString() : null;
        for (MethodCallExpr call : JavaScopes.callsNamed(scope, releasingMethods)) {
            String n = call.getNameAsString();
            if (!n.equals(ownName) && call.getScope().map(s -> s.isThisExpr()).orElse(true)) {
                releases.add(new Release(call, region(call), n + "(...)"));
            }
        }
        int aStart = offset(aNode);
        ReleaseGuarantee best = null;
        Release bestRelease = null;
        String bestNote = "";
        for (Release r : releases) {
            Optional<TryStmt> finallyOf = enclosingFinally(r.node, scope);
            ReleaseGuarantee g;
            String note;
            if (finallyOf.isPresent()) {
                TryStmt t = finallyOf.get();
                if (isInside(aNode, t.getTryBlock())
                        || t.getResources().stream().anyMatch(res -> isInside(aNode, res))) {
                    g = ReleaseGuarantee.FINALLY;
                    note = "unlocked in finally";
                } else if (offset(t) < aStart) {
                    continue; // a finally that ends before the lock is taken covers nothing of it
                } else {
                    List<Statement> between = intervening(aNode, t, scope);
                    if (between == null) {
                        continue;
                    }
                    Statement risky =
                            between.stream().filter(this::isRisky).findFirst().orElse(null);
                    if (risky == null) {
                        g = ReleaseGuarantee.FINALLY;
                        note = "unlocked in finally";
                    } else {
                        g = ReleaseGuarantee.TRY_STARTS_LATE;
                        note = "line " + file.lineOf(offset(risky))
                                + " runs between the lock and the try whose finally unlocks";
                    }
                }
            } else {
                if (offset(r.node) < aStart) {
                    continue;
                }
                // lock and unlock as statements of one block, with nothing that can throw between them
                Node releaseStatement = r.node.findAncestor(Statement.class).orElse(null);
                Node acquireStatement = aNode.findAncestor(Statement.class).orElse(null);
                boolean sameBlock = releaseStatement != null
                        && acquireStatement != null
                        && releaseStatement.getParentNode().isPresent()
                        && releaseStatement.getParentNode().equals(acquireStatement.getParentNode())
                        && releaseStatement.getParentNode().get() instanceof BlockStmt;
                List<Statement> between = sameBlock ? intervening(aNode, releaseStatement, scope) : null;
                if (between != null && between.stream().noneMatch(this::isRisky)) {
                    g = ReleaseGuarantee.FINALLY; // nothing between the lock and the unlock can throw or return
                    note = "unlocked right after the lock";
                } else {
                    g = ReleaseGuarantee.NOT_IN_FINALLY;
                    note = r.what + " is not in a finally block";
                }
            }
            if (best == null || rank(g) > rank(best)) {
                best = g;
                bestRelease = r;
                bestNote = note;
            }
        }
        if (best != null) {
            return new LockLifecycle(a, best, bestRelease.region, bestNote);
        }
        // No release in the method: is there one elsewhere in the same type?
        TypeDeclaration<?> type = aNode.findAncestor(TypeDeclaration.class).orElse(null);
        for (LockSite r : sites) {
            Node rn = nodes.get(r);
            if (releases(r, a)
                    && rn != null
                    && type != null
                    && rn.findAncestor(TypeDeclaration.class).orElse(null) == type) {
                return new LockLifecycle(
                        a,
                        ReleaseGuarantee.ELSEWHERE_IN_TYPE,
                        r.region(),
                        "released in " + JavaFrontEnd.methodName(rn));
            }
        }
        if (onClosedDriverManagerConnection(aNode)) {
            return new LockLifecycle(
                    a,
                    ReleaseGuarantee.TRY_WITH_RESOURCES,
                    null,
                    "a DriverManager connection closed by try-with-resources ends the session");
        }
        return new LockLifecycle(a, ReleaseGuarantee.NONE, null, "no unlock for this key in the file");
    }

    /**
     * The lifecycle of a lock taken through an {@code AutoCloseable} handle: released when the handle is
     * closed, so try-with-resources or {@code close()} in a {@code finally} guarantees it.
     */
    private LockLifecycle handle(LockSite a, Node call, HelperSummary helper) {
        String what = "the " + helper.typeName() + " handle";
        Node parent = call.getParentNode().orElse(null);
        while (parent instanceof CastExpr || parent instanceof EnclosedExpr) {
            parent = parent.getParentNode().orElse(null);
        }
        String variable = null;
        if (parent instanceof VariableDeclarator v) {
            if (v.getParentNode().orElse(null) instanceof VariableDeclarationExpr d
                    && d.getParentNode().orElse(null) instanceof TryStmt t
                    && t.getResources().contains(d)) {
                return new LockLifecycle(
                        a, ReleaseGuarantee.TRY_WITH_RESOURCES, null, what + " is a try-with-resources resource");
            }
            if (v.getParentNode().orElse(null) instanceof FieldDeclaration) {
                return new LockLifecycle(a, ReleaseGuarantee.UNKNOWN, null, what + " is kept in a field");
            }
            variable = v.getNameAsString();
        } else if (parent instanceof AssignExpr as) {
            if (!(as.getTarget() instanceof NameExpr n)) {
                return new LockLifecycle(a, ReleaseGuarantee.UNKNOWN, null, what + " is kept in a field");
            }
            variable = n.getNameAsString();
        } else if (!(parent instanceof ExpressionStmt)) {
            return new LockLifecycle(a, ReleaseGuarantee.UNKNOWN, null, what + " is handed on");
        }
        if (variable == null) {
            return new LockLifecycle(
                    a, ReleaseGuarantee.HANDLE_NOT_CLOSED, null, what + " is discarded without being closed");
        }
        Node scope = JavaScopes.callableOf(call);
        if (scope == null) {
            return new LockLifecycle(a, ReleaseGuarantee.UNKNOWN, null, what + " is not in a method");
        }
        String name = variable;
        for (TryStmt t : scope.findAll(TryStmt.class)) {
            if (t.getResources().stream()
                    .anyMatch(
                            r -> r instanceof NameExpr n && n.getNameAsString().equals(name))) {
                return new LockLifecycle(
                        a, ReleaseGuarantee.TRY_WITH_RESOURCES, null, what + " is a try-with-resources resource");
            }
        }
        boolean escapes = JavaScopes.names(scope, name).stream()
                .anyMatch(n -> (n.getParentNode().orElse(null) instanceof ReturnStmt
                        || (n.getParentNode().orElse(null) instanceof MethodCallExpr m
                                && m.getArguments().contains(n))
                        || (n.getParentNode().orElse(null) instanceof AssignExpr as2 && as2.getValue() == n)));
        MethodCallExpr closeCall = null;
        for (MethodCallExpr m : JavaScopes.calls(scope)) {
            if (m.getNameAsString().equals("close")
                    && m.getArguments().isEmpty()
                    && m.getScope().map(x -> x.toString().equals(name)).orElse(false)) {
                if (enclosingFinally(m, scope).isPresent()) {
                    return new LockLifecycle(
                            a, ReleaseGuarantee.FINALLY, region(m), what + " is closed in a finally block");
                }
                closeCall = m;
            }
        }
        if (closeCall != null) {
            return new LockLifecycle(
                    a,
                    ReleaseGuarantee.HANDLE_NOT_CLOSED,
                    region(closeCall),
                    what + " is closed outside a finally block, so an exception before the close skips it");
        }
        if (escapes) {
            return new LockLifecycle(a, ReleaseGuarantee.UNKNOWN, null, what + " is handed on");
        }
        return new LockLifecycle(a, ReleaseGuarantee.HANDLE_NOT_CLOSED, null, what + " is never closed");
    }

    /**
     * A statement prepared and kept in a field ({@code this.lockStmt = conn.prepareStatement(...)}) takes
     * no lock here: the lock is taken wherever the field is executed.
     */
    static boolean preparedForLater(Node exec) {
        if (!(exec instanceof MethodCallExpr m)
                || !(m.getNameAsString().equals("prepareStatement")
                        || m.getNameAsString().equals("prepareCall"))) {
            return false;
        }
        Node parent = m.getParentNode().orElse(null);
        if (parent instanceof AssignExpr as) {
            Expression target = as.getTarget();
            return target.isFieldAccessExpr()
                    || (target instanceof NameExpr n
                            && JavaScopes.local(n.getNameAsString(), m).isEmpty());
        }
        return parent instanceof VariableDeclarator v && v.getParentNode().orElse(null) instanceof FieldDeclaration;
    }

    private static int rank(ReleaseGuarantee g) {
        return switch (g) {
            case FINALLY -> 3;
            case TRY_STARTS_LATE -> 2;
            case NOT_IN_FINALLY -> 1;
            default -> 0;
        };
    }

    private static boolean releases(LockSite r, LockSite a) {
        LockOperation op = r.function().operation();
        return op == LockOperation.RELEASE_ALL
                || (op == LockOperation.RELEASE && r.key().mayEqual(a.key()));
    }

    /** Names of methods of this file that release a lock, directly or through each other. */
    private Set<String> releasingMethods(List<LockSite> sites) {
        Set<String> names = new HashSet<>();
        Set<MethodDeclaration> methods = Collections.newSetFromMap(new IdentityHashMap<>());
        for (LockSite s : sites) {
            Node n = nodes.get(s);
            if (s.function().operation().isRelease() && n != null) {
                n.findAncestor(MethodDeclaration.class).ifPresent(m -> {
                    methods.add(m);
                    names.add(m.getNameAsString());
                });
            }
        }
        boolean grew = !methods.isEmpty();
        for (int round = 0; grew && round < 4; round++) {
            grew = false;
            Node root = methods.iterator().next().findRootNode();
            for (MethodDeclaration m : root.findAll(MethodDeclaration.class)) {
                if (!methods.contains(m)
                        && JavaScopes.calls(m).stream()
                                .anyMatch(c -> names.contains(c.getNameAsString())
                                        && c.getScope().isEmpty())) {
                    methods.add(m);
                    names.add(m.getNameAsString());
                    grew = true;
                }
            }
        }
        return names;
    }

    /** The innermost try statement whose finally block holds the node, within the scope. */
    private static Optional<TryStmt> enclosingFinally(Node n, Node scope) {
        Node child = n;
        Node cur = n.getParentNode().orElse(null);
        while (cur != null && cur != scope) {
            if (cur instanceof TryStmt t
                    && t.getFinallyBlock().isPresent()
                    && t.getFinallyBlock().get() == child) {
                return Optional.of(t);
            }
            child = cur;
            cur = cur.getParentNode().orElse(null);
        }
        return Optional.empty();
    }

    private static boolean isInside(Node n, Node container) {
        Node cur = n;
        while (cur != null) {
            if (cur == container) {
                return true;
            }
            cur = cur.getParentNode().orElse(null);
        }
        return false;
    }

    /**
     * The statements that run after the acquisition and before the try statement starts, or null
     * when the try does not follow the acquisition in one method body.
     */
    private static List<Statement> intervening(Node a, Node t, Node scope) {
        List<Statement> out = new ArrayList<>();
        Node child = t;
        Node cur = t.getParentNode().orElse(null);
        while (cur != null && cur != scope) {
            NodeList<Statement> stmts = cur instanceof BlockStmt b
                    ? b.getStatements()
                    : cur instanceof SwitchEntry se ? se.getStatements() : null;
            if (stmts != null) {
                int idx = indexOf(stmts, child);
                if (idx >= 0) {
                    int aIdx = -1;
                    for (int i = 0; i < stmts.size(); i++) {
                        if (isInside(a, stmts.get(i))) {
                            aIdx = i;
                            break;
                        }
                    }
                    if (aIdx >= 0) {
                        if (aIdx > idx) {
                            return null;
                        }
                        for (int i = aIdx + 1; i < idx; i++) {
                            out.add(stmts.get(i));
                        }
                        return out;
                    }
                    for (int i = 0; i < idx; i++) {
                        out.add(stmts.get(i));
                    }
                }
            }
            child = cur;
            cur = cur.getParentNode().orElse(null);
        }
        return null;
    }

    private static int indexOf(NodeList<Statement> stmts, Node child) {
        for (int i = 0; i < stmts.size(); i++) {
            if (stmts.get(i) == child) {
                return i;
            }
        }
        return -1;
    }

    /** Whether a statement between the lock and its try can skip the try: a call that may throw, or an exit. */
    private boolean isRisky(Statement s) {
        if (s instanceof ReturnStmt || s instanceof ThrowStmt || s instanceof BreakStmt || s instanceof ContinueStmt) {
            return true;
        }
        if (s instanceof IfStmt i
                && i.getElseStmt().isEmpty()
                && exits(i.getThenStmt())
                && readsOutcome(i.getCondition())) {
            return false; // a guard on the try-lock's outcome: "if (!locked) return;"
        }
        for (MethodCallExpr call : JavaScopes.calls(s)) {
            String receiver = call.getScope().map(Node::toString).orElse("");
            if (API.isLoggerReceiver(receiver)
                    || API.isMetricsReceiver(receiver)
                    || API.is(Role.PURE, call.getNameAsString())
                    || API.is(Role.LOGS, call.getNameAsString())) {
                continue;
            }
            if (call.getScope().isPresent()
                    && call.getScope().get() instanceof NameExpr n
                    && Character.isUpperCase(n.getNameAsString().charAt(0))
                    && n.getNameAsString().toLowerCase(Locale.ROOT).contains("log")) {
                continue;
            }
            return true;
        }
        return !s.findAll(ReturnStmt.class).isEmpty()
                || !s.findAll(ThrowStmt.class).isEmpty();
    }

    /**
     * Whether a guard's condition can depend on the lock's outcome: it calls a method (reads a result
     * set, calls a try-lock helper) or reads a local variable. A condition over parameters and fields
     * only ({@code if (dryRun) return;}) was decided before the lock and skips the unlock.
     */
    private static boolean readsOutcome(Expression condition) {
        if (!JavaScopes.calls(condition).isEmpty()) {
            return true;
        }
        Node scope = JavaScopes.callableOf(condition);
        for (NameExpr n : condition.findAll(NameExpr.class)) {
            String name = n.getNameAsString();
            boolean local = scope != null
                    && scope.findAll(VariableDeclarator.class).stream()
                            .anyMatch(v -> v.getNameAsString().equals(name));
            if (local) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the acquisition runs on a {@code DriverManager} connection that try-with-resources closes,
     * in its own method or, for a helper of the same type, at every call of the helper (RULES.md F13:
     * closing a non-pooled connection ends the backend session and its locks).
     */
    private boolean onClosedDriverManagerConnection(Node aNode) {
        return onClosedDriverManagerConnection(aNode, 0);
    }

    private boolean onClosedDriverManagerConnection(Node aNode, int depth) {
        if (closedByOwnTry(aNode)) {
            return true;
        }
        MethodDeclaration helper = aNode.findAncestor(MethodDeclaration.class).orElse(null);
        TypeDeclaration<?> type = aNode.findAncestor(TypeDeclaration.class).orElse(null);
        if (helper == null || type == null || depth >= 3) {
            return false;
        }
        List<MethodCallExpr> calls = callsByName(type).getOrDefault(helper.getNameAsString(), List.of()).stream()
                .filter(c -> c.getArguments().size() == helper.getParameters().size()
                        && c.getScope()
                                .map(x -> x.isThisExpr() || x.toString().equals(type.getNameAsString()))
                                .orElse(true))
                .toList();
        return !calls.isEmpty() && calls.stream().allMatch(c -> onClosedDriverManagerConnection(c, depth + 1));
    }

    /**
     * The method calls in a type, by method name, collected once per type: a type with thousands of
     * acquisitions asks for them once per acquisition (walking the type each time was quadratic).
     */
    private Map<String, List<MethodCallExpr>> callsByName(TypeDeclaration<?> type) {
        return callsInType.computeIfAbsent(type, t -> {
            Map<String, List<MethodCallExpr>> byName = new HashMap<>();
            for (MethodCallExpr c : JavaScopes.calls(t)) {
                byName.computeIfAbsent(c.getNameAsString(), k -> new ArrayList<>())
                        .add(c);
            }
            return byName;
        });
    }

    /** See {@link #callsByName}; by identity (two equal subtrees are two types). */
    private final Map<TypeDeclaration<?>, Map<String, List<MethodCallExpr>>> callsInType = new IdentityHashMap<>();

    private static boolean closedByOwnTry(Node aNode) {
        Node cur = aNode.getParentNode().orElse(null);
        while (cur != null && !(cur instanceof CallableDeclaration<?>)) {
            if (cur instanceof TryStmt t) {
                for (Expression r : t.getResources()) {
                    for (MethodCallExpr m : JavaScopes.calls(r)) {
                        if (m.getNameAsString().equals("getConnection")
                                && m.getScope()
                                        .map(x -> x.toString().equals("DriverManager"))
                                        .orElse(false)) {
                            return true;
                        }
                    }
                }
            }
            cur = cur.getParentNode().orElse(null);
        }
        return false;
    }

    private static boolean exits(Statement s) {
        return !s.findAll(ReturnStmt.class).isEmpty()
                || !s.findAll(ThrowStmt.class).isEmpty()
                || !s.findAll(ContinueStmt.class).isEmpty()
                || !s.findAll(BreakStmt.class).isEmpty()
                || s instanceof ReturnStmt
                || s instanceof ThrowStmt;
    }

    private int offset(Node n) {
        return n.getBegin().map(p -> file.offsetOf(p.line, p.column)).orElse(0);
    }

    private SourceRegion region(Node n) {
        int s = offset(n);
        int e = n.getEnd().map(p -> file.offsetOf(p.line, p.column) + 1).orElse(s);
        return file.region(s, e);
    }
}
