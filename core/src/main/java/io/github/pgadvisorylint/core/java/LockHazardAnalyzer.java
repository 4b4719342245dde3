package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.AssertStmt;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.ContinueStmt;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.EmptyStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import com.github.javaparser.ast.type.Type;
import com.github.javaparser.ast.type.UnionType;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SiteHazards;
import io.github.pgadvisorylint.core.model.SiteHazards.SwallowedFailure;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Finds, for the acquisitions of one Java file, a failure the code around a correct lock call swallows
 * (RULES.md lock-failure-ignored): an acquisition that is the last real statement of a {@code try}
 * block (only result checks, logging and unlocks may follow it there), whose {@code catch} catches the
 * failure (an SQL, data-access, persistence, lock or timeout exception, {@code Exception},
 * {@code RuntimeException} or {@code Throwable}; or the exception the try block throws when a try-lock
 * returns {@code false}) and only logs, assigns or does nothing, after which work runs: a later statement
 * of the method that is not logging, an unlock or a check of a variable the try or the handler assigned
 * (a flag), or, when a {@code void} method ends with that {@code try}, the statements after a call of the
 * method in the same file. A try-lock counts only when the code decides on its result inside the try (so
 * only the exception path skips that decision); a result nobody reads is try-lock-result-ignored's.
 *
 * <p>This is judged on the syntax tree of one file, from what the handler's statements say (logging, a
 * default, a flag checked later): the lock-state analysis (core.flow) proves the same failure across
 * methods ({@code FAILURE_SWALLOWED}) but does not read handlers this way, which is why this part
 * remains. The uncommitted release it once found too is a path fact of core.flow now.
 */
final class LockHazardAnalyzer {

    /** Receivers whose calls only log. */
    private static final Pattern LOGGER = Pattern.compile("(?i)(.*\\.)?_?(log|logger|slf4j)|system\\.(out|err)");
    /** Calls that only read a result (of a try-lock, a result set). */
    private static final Pattern READS_RESULT = Pattern.compile(
            "next|get[A-Z]\\w*|is[A-Z]\\w*|wasNull|booleanValue|longValue|intValue|equals|valueOf|orElse|isPresent|isEmpty");
    /** Exception names that stand for any failure of a database call. */
    private static final Set<String> CATCH_ALL = Set.of("Exception", "RuntimeException", "Throwable");
    /** Parts of exception names that an acquisition's failure may carry. */
    private static final Pattern DB_FAILURE =
            Pattern.compile("SQL|Sql|DataAccess|Persistence|Jdbi|Jdbc|Lock|Timeout|Database|R2dbc|Jooq");

    private final SourceFile file;
    private final Map<LockSite, Node> nodes;
    private final Set<Node> siteNodes;

    /**
     * @param file  the file
     * @param nodes the node of each lock site: the call that executes its SQL, or the call of a lock helper
     */
    LockHazardAnalyzer(SourceFile file, Map<LockSite, Node> nodes) {
        this.file = file;
        this.nodes = nodes;
        this.siteNodes = Collections.newSetFromMap(new IdentityHashMap<>());
        this.siteNodes.addAll(nodes.values());
    }

    /**
     * @param sites              the file's lock sites
     * @param workInItsStatement ids of acquisitions whose SQL string runs its work after the lock as one transaction
     *                           (a {@code DO} block, further statements): their failure is the work's too
     * @return the hazards found, by {@link LockSite#id()}; sites without any are left out
     */
    Map<String, SiteHazards> analyze(List<LockSite> sites, Set<String> workInItsStatement) {
        Map<String, SiteHazards> out = new TreeMap<>();
        for (LockSite site : sites) {
            Node node = nodes.get(site);
            if (!(node instanceof MethodCallExpr || node instanceof ObjectCreationExpr)
                    || workInItsStatement.contains(site.id())
                    || site.api() == ExecutionApi.DECLARATION
                    || site.api() == ExecutionApi.SPRING_DATA_QUERY) {
                continue;
            }
            SwallowedFailure failure = site.function().operation().isAcquisition() ? swallowed(site, node) : null;
            if (failure != null) {
                out.put(site.id(), new SiteHazards(failure));
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- swallowed failure

    private SwallowedFailure swallowed(LockSite site, Node node) {
        Statement stmt = node.findAncestor(Statement.class).orElse(null);
        if (stmt == null || crossesFunction(node, stmt)) {
            return null;
        }
        boolean tryLock = site.function().operation() == LockOperation.TRY_ACQUIRE;
        boolean decides = stmt instanceof IfStmt i && contains(i.getCondition(), node) && exits(i.getThenStmt());
        List<String> thrownForFalse = new ArrayList<>();
        TryStmt guard = null;
        Statement current = stmt;
        while (guard == null) {
            if (current instanceof TryStmt t && t.getResources().stream().anyMatch(r -> contains(r, node))) {
                // acquired in a try-with-resources header: its body must only read the result
                if (!onlyChecks(t.getTryBlock().getStatements(), thrownForFalse)) {
                    return null;
                }
                decides |= !thrownForFalse.isEmpty()
                        || t.getTryBlock().getStatements().stream().anyMatch(this::decidesOnResult);
                if (!t.getCatchClauses().isEmpty()) {
                    guard = t;
                    break;
                }
            }
            if (!(current.getParentNode().orElse(null) instanceof BlockStmt block)
                    || !(block.getParentNode().orElse(null) instanceof TryStmt t)
                    || t.getTryBlock() != block) {
                return null;
            }
            List<Statement> rest = after(block, current);
            if (!onlyChecks(rest, thrownForFalse)) {
                return null; // the work is inside the try: a failure skips it
            }
            decides |= !thrownForFalse.isEmpty() || rest.stream().anyMatch(this::decidesOnResult);
            if (t.getCatchClauses().isEmpty()) {
                current = t; // try/finally: the failure goes on up
            } else {
                guard = t;
            }
        }
        if (tryLock && !decides) {
            return null; // nobody reads the try-lock's result: try-lock-result-ignored's finding
        }
        CatchClause handler = null;
        boolean falseThrown = false;
        for (CatchClause c : guard.getCatchClauses()) {
            List<String> caught = caughtTypes(c);
            boolean forFalse = thrownForFalse.stream()
                    .anyMatch(x -> caught.contains(x) || caught.stream().anyMatch(CATCH_ALL::contains));
            boolean failure = caught.stream()
                    .anyMatch(
                            x -> CATCH_ALL.contains(x) || DB_FAILURE.matcher(x).find());
            if (forFalse || failure) {
                handler = c;
                falseThrown = forFalse && !failure;
                break;
            }
        }
        if (handler == null) {
            return null;
        }
        String handling = handling(handler.getBody());
        if (handling == null) {
            return null; // rethrows, returns, exits or does something the tool cannot judge
        }
        Set<String> flags = assignedNames(guard.getTryBlock());
        flags.addAll(assignedNames(handler.getBody()));
        Work work = workAfter(guard, flags);
        if (work == null && endsVoidMethod(guard)) {
            work = workInCaller(guard.findAncestor(MethodDeclaration.class).orElseThrow());
        }
        if (work == null) {
            return null;
        }
        int end = handler.getParameter()
                .getEnd()
                .map(p -> file.offsetOf(p.line, p.column) + 2)
                .orElse(offset(handler) + 1);
        SourceRegion catchRegion = file.region(offset(handler), end);
        return new SwallowedFailure(catchRegion, handling, region(work.node), work.note, falseThrown);
    }

    /** The first piece of work that runs after a swallowing handler, and a phrase naming it. */
    private record Work(Node node, String note) {}

    /** True when a lambda or class body lies between the node and its statement. */
    private static boolean crossesFunction(Node node, Statement stmt) {
        for (Node cur = node.getParentNode().orElse(null);
                cur != null && cur != stmt;
                cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof LambdaExpr
                    || (cur instanceof ObjectCreationExpr o
                            && o.getAnonymousClassBody().isPresent())) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when the statements only check or read a lock result, log, or unlock: {@code if (...) throw/return},
     * result reads, assignments of plain values. Exceptions thrown on a check are added to {@code thrown}.
     */
    private boolean onlyChecks(List<Statement> statements, List<String> thrown) {
        for (Statement s : statements) {
            if (s instanceof IfStmt i
                    && i.getElseStmt().isEmpty()
                    && exits(i.getThenStmt())
                    && !doesWork(i.getCondition())) {
                i.getThenStmt().findAll(ThrowStmt.class).forEach(t -> {
                    if (t.getExpression() instanceof ObjectCreationExpr o) {
                        thrown.add(o.getType().getNameAsString());
                    }
                });
                continue;
            }
            if (!quiet(s, true)) {
                return false;
            }
        }
        return true;
    }

    /** An {@code if} that returns, throws or leaves a loop when a condition on the result holds. */
    private boolean decidesOnResult(Statement s) {
        return s instanceof IfStmt i && i.getElseStmt().isEmpty() && exits(i.getThenStmt());
    }

    /** True when the statement always leaves: throw, return, break or continue (alone or ending a block). */
    private static boolean exits(Statement s) {
        Statement last = s instanceof BlockStmt b && b.getStatements().isNonEmpty()
                ? b.getStatements().getLast().get()
                : s;
        return last instanceof ThrowStmt
                || last instanceof ReturnStmt
                || last instanceof BreakStmt
                || last instanceof ContinueStmt;
    }

    /**
     * A statement that does no guarded work: empty, logging, an unlock or other lock call, an
     * assignment or declaration of a plain value or of a result read, an increment.
     *
     * @param readsAllowed whether result reads ({@code rs.next()}, {@code rs.getBoolean(1)}) count as quiet
     */
    private boolean quiet(Statement s, boolean readsAllowed) {
        if (s instanceof EmptyStmt) {
            return true;
        }
        if (!(s instanceof ExpressionStmt es)) {
            return false;
        }
        Expression e = es.getExpression();
        if (e instanceof AssignExpr a) {
            return plainValue(a.getValue(), readsAllowed);
        }
        if (e instanceof VariableDeclarationExpr v) {
            return v.getVariables().stream()
                    .allMatch(d -> d.getInitializer()
                            .map(i -> plainValue(i, readsAllowed))
                            .orElse(true));
        }
        if (e instanceof UnaryExpr) {
            return true;
        }
        if (e instanceof MethodCallExpr m) {
            return logging(m)
                    || siteNodes.contains(m)
                    || (readsAllowed
                            && READS_RESULT.matcher(m.getNameAsString()).matches());
        }
        return false;
    }

    private boolean plainValue(Expression value, boolean readsAllowed) {
        Expression v = value.isEnclosedExpr() ? value.asEnclosedExpr().getInner() : value;
        if (v instanceof LiteralExpr || v instanceof NameExpr || v instanceof FieldAccessExpr) {
            return true;
        }
        if (v instanceof MethodCallExpr m) {
            return siteNodes.contains(m)
                    || (readsAllowed
                            && READS_RESULT.matcher(m.getNameAsString()).matches()
                            && m.getScope()
                                    .map(sc -> !(sc instanceof MethodCallExpr inner)
                                            || siteNodes.contains(inner)
                                            || READS_RESULT
                                                    .matcher(inner.getNameAsString())
                                                    .matches())
                                    .orElse(false));
        }
        if (v instanceof UnaryExpr u) {
            return plainValue(u.getExpression(), readsAllowed);
        }
        return false;
    }

    private boolean doesWork(Expression condition) {
        return JavaScopes.calls(condition).stream()
                .anyMatch(m -> !siteNodes.contains(m)
                        && !READS_RESULT.matcher(m.getNameAsString()).matches());
    }

    private static boolean logging(MethodCallExpr m) {
        if (m.getNameAsString().equals("printStackTrace")) {
            return true;
        }
        return m.getScope().map(s -> LOGGER.matcher(plain(s)).matches()).orElse(false);
    }

    private static List<String> caughtTypes(CatchClause c) {
        Type t = c.getParameter().getType();
        List<String> out = new ArrayList<>();
        if (t instanceof UnionType u) {
            u.getElements().forEach(x -> out.add(JavaScopes.simpleTypeName(x.asString())));
        } else {
            out.add(JavaScopes.simpleTypeName(t.asString()));
        }
        return out;
    }

    /** What a handler does when it swallows the failure: a phrase, or null when it does more than that. */
    private String handling(BlockStmt body) {
        boolean logs = false;
        boolean assigns = false;
        for (Statement s : body.getStatements()) {
            if (!quiet(s, false)) {
                return null;
            }
            if (s instanceof ExpressionStmt es && es.getExpression() instanceof MethodCallExpr m && logging(m)) {
                logs = true;
            } else if (!(s instanceof EmptyStmt)) {
                assigns = true;
            }
        }
        if (logs && assigns) {
            return "only logs it and assigns a default";
        }
        return logs ? "only logs it" : assigns ? "only assigns a default" : "is empty";
    }

    /** Simple names assigned (or incremented) anywhere in the node: candidate flags. */
    private static Set<String> assignedNames(Node n) {
        Set<String> out = new HashSet<>();
        for (AssignExpr a : n.findAll(AssignExpr.class)) {
            addName(out, a.getTarget());
            if (a.getTarget() instanceof FieldAccessExpr f) {
                out.add(f.getNameAsString());
            }
        }
        for (UnaryExpr u : n.findAll(UnaryExpr.class)) {
            addName(out, u.getExpression());
        }
        return out;
    }

    /**
     * The first statement after {@code from} (in its block, then in the enclosing blocks up to the
     * method or lambda body) that does work; null when the code leaves first, or checks a flag.
     */
    private Work workAfter(Statement from, Set<String> flags) {
        Statement current = from;
        while (current.getParentNode().orElse(null) instanceof BlockStmt block) {
            for (Statement s : after(block, current)) {
                if (checksFlag(s, flags)) {
                    return null;
                }
                if (s instanceof ReturnStmt
                        || s instanceof ThrowStmt
                        || s instanceof BreakStmt
                        || s instanceof ContinueStmt) {
                    return null;
                }
                if (!quiet(s, false)) {
                    return new Work(s, describe(s) + " runs next");
                }
            }
            Node up = block.getParentNode().orElse(null);
            if (!(up instanceof Statement enclosing)
                    || up instanceof WhileStmt
                    || up instanceof ForStmt
                    || up instanceof DoStmt
                    || up instanceof TryStmt) {
                return null;
            }
            current = enclosing;
        }
        return null;
    }

    /**
     * The statements of a block after one of them, found by identity (JavaParser's {@code equals} is
     * structural: two identical statements of one block are equal).
     */
    private static List<Statement> after(BlockStmt block, Statement statement) {
        NodeList<Statement> list = block.getStatements();
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == statement) {
                return list.subList(i + 1, list.size());
            }
        }
        return List.of();
    }

    /** True when the statement reads one of the flags in a decision: a condition, a return, an assertion. */
    private static boolean checksFlag(Statement s, Set<String> flags) {
        if (flags.isEmpty()) {
            return false;
        }
        List<Node> decisions = new ArrayList<>();
        s.walk(n -> {
            if (n instanceof IfStmt i) {
                decisions.add(i.getCondition());
            } else if (n instanceof WhileStmt w) {
                decisions.add(w.getCondition());
            } else if (n instanceof DoStmt d) {
                decisions.add(d.getCondition());
            } else if (n instanceof ForStmt f) {
                f.getCompare().ifPresent(decisions::add);
            } else if (n instanceof ConditionalExpr c) {
                decisions.add(c.getCondition());
            } else if (n instanceof ReturnStmt r) {
                r.getExpression().ifPresent(decisions::add);
            } else if (n instanceof AssertStmt a) {
                decisions.add(a.getCheck());
            }
        });
        for (Node d : decisions) {
            for (NameExpr name : d.findAll(NameExpr.class)) {
                if (flags.contains(name.getNameAsString())) {
                    return true;
                }
            }
            for (FieldAccessExpr f : d.findAll(FieldAccessExpr.class)) {
                if (flags.contains(f.getNameAsString()) || flags.contains(plain(f))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when the try statement is the last statement of a {@code void} method's body. */
    private static boolean endsVoidMethod(TryStmt guard) {
        return guard.getParentNode().orElse(null) instanceof BlockStmt b
                && b.getStatements().getLast().orElse(null) == guard
                && b.getParentNode().orElse(null) instanceof MethodDeclaration m
                && m.getType().isVoidType();
    }

    /** Work after a statement-level call of the method from the same file (the first such call, in source order). */
    private Work workInCaller(MethodDeclaration method) {
        TypeDeclaration<?> type = method.findAncestor(TypeDeclaration.class).orElse(null);
        if (type == null) {
            return null;
        }
        for (MethodCallExpr call : JavaScopes.calls(type)) {
            if (!call.getNameAsString().equals(method.getNameAsString())
                    || call.getArguments().size() != method.getParameters().size()
                    || !call.getScope().map(Expression::isThisExpr).orElse(true)
                    || !(call.getParentNode().orElse(null) instanceof ExpressionStmt stmt)) {
                continue;
            }
            Work w = workAfter(stmt, Set.of());
            if (w != null) {
                String caller = call.findAncestor(CallableDeclaration.class)
                        .map(c -> c.getNameAsString() + "()")
                        .orElse("its caller");
                return new Work(
                        w.node,
                        method.getNameAsString() + "() returns normally, and " + caller + " goes on: " + w.note);
            }
        }
        return null;
    }

    private static String describe(Statement s) {
        if (s instanceof ExpressionStmt es) {
            Expression e = es.getExpression();
            if (e instanceof AssignExpr a) {
                e = a.getValue();
            } else if (e instanceof VariableDeclarationExpr v
                    && v.getVariables().size() == 1
                    && v.getVariable(0).getInitializer().isPresent()) {
                e = v.getVariable(0).getInitializer().get();
            }
            if (e instanceof MethodCallExpr m) {
                return abbreviated(m.getScope().map(sc -> sc + ".").orElse("") + m.getNameAsString()) + "(...)";
            }
        }
        return "the statement at line " + s.getBegin().map(p -> p.line).orElse(0);
    }

    /** Adds the name of a local variable or a {@code this.} field to {@code out}, as {@link #plain} writes it. */
    private static void addName(Set<String> out, Expression e) {
        if (e instanceof NameExpr
                || (e instanceof FieldAccessExpr f && f.getScope().isThisExpr())) {
            out.add(plain(e));
        }
    }

    /** @return the expression's text without {@code this.} and white space: {@code this.conn} and {@code conn} are one name */
    private static String plain(Node e) {
        String t = e.toString().replaceAll("\\s+", "");
        return t.startsWith("this.") ? t.substring(5) : t;
    }

    /** @return the text on one line, cut at 80 characters */
    private static String abbreviated(String s) {
        String one = s.replaceAll("\\s+", " ");
        return one.length() > 80 ? one.substring(0, 77) + "..." : one;
    }

    private static boolean contains(Node container, Node n) {
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

    private SourceRegion region(Node n) {
        Node target = n instanceof MethodCallExpr m ? m.getName() : n instanceof ObjectCreationExpr o ? o.getType() : n;
        int s = offset(n instanceof MethodCallExpr ? target : n);
        int e = target.getEnd().map(p -> file.offsetOf(p.line, p.column) + 1).orElse(s);
        return file.region(s, Math.max(s, e));
    }
}
