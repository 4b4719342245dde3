package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.facts.HelperSummary;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a file's lock sites into helper summaries (which methods lock with keys from their
 * parameters), and tells which helper a call reaches. Helpers are followed to any depth by repeated
 * rounds of the analysis; a call inside the helper it would reach is ignored (no recursion).
 */
final class HelperSites {

    private static final ApiCatalog API = ApiCatalog.standard();

    /**
     * Names so common on other objects ({@code ReentrantLock.lock()}, {@code Executor.execute}) that a
     * call whose receiver type is not visible is never matched by name alone.
     */
    private static final Set<String> TOO_COMMON = Set.of(
            "lock",
            "unlock",
            "tryLock",
            "acquire",
            "release",
            "close",
            "run",
            "execute",
            "get",
            "apply",
            "call",
            "accept",
            "start",
            "stop",
            "open",
            "begin",
            "end",
            "query",
            "update",
            "lockInterruptibly");

    private static final Set<String> BOOLEAN_TYPES = Set.of("boolean", "Boolean", "java.lang.Boolean");

    private static final Pattern CAST = Pattern.compile("^\\(\\s*[\\w.]+\\s*\\)\\s*");
    private static final Pattern NAMED = Pattern.compile("^(?::|#\\{|\\$\\{)([A-Za-z_]\\w*)[^}]*}?$");
    private static final Pattern POSITIONAL = Pattern.compile("^[?$](\\d+)$");

    /** Lifecycles in which the helper itself pairs the acquisition with a release. */
    private static final Set<ReleaseGuarantee> PAIRED_INSIDE = EnumSet.of(
            ReleaseGuarantee.FINALLY,
            ReleaseGuarantee.BY_HELPER,
            ReleaseGuarantee.TRY_WITH_RESOURCES,
            ReleaseGuarantee.NOT_IN_FINALLY,
            ReleaseGuarantee.TRY_STARTS_LATE);

    private HelperSites() {}

    /**
     * @param call a method call or object creation
     * @return the simple names of the types the call's receiver may have, nearest first; empty when
     *     the file does not show it (the registry then matches by name and arity, unless too common)
     */
    static List<String> receiverTypes(Node call) {
        if (call instanceof ObjectCreationExpr oc) {
            return List.of(oc.getType().getNameAsString());
        }
        MethodCallExpr m = (MethodCallExpr) call;
        Expression scope = m.getScope().orElse(null);
        if (scope == null || scope.isThisExpr()) {
            List<String> types = new ArrayList<>();
            for (Node cur = m; cur != null; cur = cur.getParentNode().orElse(null)) {
                if (cur instanceof TypeDeclaration<?> t) {
                    types.add(t.getNameAsString());
                }
            }
            if (scope == null) {
                // a statically imported helper: import static com.acme.LockUtil.acquire; (or LockUtil.*)
                m.findCompilationUnit()
                        .ifPresent(cu -> cu.getImports().forEach(i -> {
                            String q = i.getNameAsString();
                            if (i.isStatic() && (i.isAsterisk() || q.endsWith("." + m.getNameAsString()))) {
                                String type = i.isAsterisk()
                                        ? q
                                        : q.substring(
                                                0,
                                                q.length() - m.getNameAsString().length() - 1);
                                types.add(type.substring(type.lastIndexOf('.') + 1));
                            }
                        }));
            }
            return types;
        }
        String declared = null;
        if (scope instanceof NameExpr n) {
            declared = JavaScopes.declaredType(n.getNameAsString(), m);
            if (declared == null && Character.isUpperCase(n.getNameAsString().charAt(0))) {
                declared = n.getNameAsString(); // a static call: Locks.withLock(...)
            }
        } else if (scope instanceof FieldAccessExpr f && f.getScope().isThisExpr()) {
            declared = JavaScopes.declaredType(f.getNameAsString(), m);
        }
        return declared == null ? List.of() : List.of(JavaScopes.simpleTypeName(declared));
    }

    /**
     * @param name     the method name ({@code <init>} for a constructor)
     * @param receiver the receiver types from {@link #receiverTypes}
     * @return true when a name-only match would be too risky
     */
    static boolean tooCommonForNameOnly(String name, List<String> receiver) {
        return receiver.isEmpty() && TOO_COMMON.contains(name);
    }

    /**
     * @param call    a call that resolved to {@code summary}
     * @param summary the helper
     * @return true when the call sits inside the helper's own declaration (recursion), or one
     *     constructor of a handle type calls another
     */
    static boolean insideHelper(Node call, HelperSummary summary) {
        TypeDeclaration<?> type = call.findAncestor(TypeDeclaration.class).orElse(null);
        if (type == null || !type.getNameAsString().equals(summary.typeName())) {
            return false;
        }
        CallableDeclaration<?> m = call.findAncestor(CallableDeclaration.class).orElse(null);
        if (summary.methodName().equals("<init>")) {
            return m instanceof ConstructorDeclaration; // this(...) chains; a factory method is a helper of its own
        }
        return m instanceof MethodDeclaration md
                && md.getNameAsString().equals(summary.methodName())
                && md.getParameters().size() == summary.arity();
    }

    /**
     * Builds the summaries of a file's helpers from its lock sites.
     *
     * @param sites      every site of the file (SQL sites and helper-call sites)
     * @param nodes      the syntax node of each site
     * @param lifecycles the file's lifecycles
     * @param inners     for helper-call sites, the SQL site the helper reaches in the end
     * @param flags      for sites whose SQL was built from flag parameters of their method, the values assumed
     * @return one summary per method or constructor holding lock sites
     */
    static List<HelperSummary> summarize(
            List<LockSite> sites,
            Map<LockSite, Node> nodes,
            List<LockLifecycle> lifecycles,
            Map<LockSite, LockSite> inners,
            Map<LockSite, Map<String, Boolean>> flags) {
        IdentityGroups<CallableDeclaration<?>, HelperSummary.Op> ops = new IdentityGroups<>();
        Set<SourceRegion> pairedReleases = new HashSet<>();
        Map<HelperSummary.Op, SourceRegion> opRegions = new IdentityHashMap<>();
        for (LockSite site : sites) {
            Node n = nodes.get(site);
            if (n == null || site.api() == ExecutionApi.DECLARATION || LifecycleAnalyzer.preparedForLater(n)) {
                continue; // a statement prepared into a field locks where it is executed, not here
            }
            CallableDeclaration<?> m = n instanceof CallableDeclaration<?> c
                    ? c
                    : n.findAncestor(CallableDeclaration.class).orElse(null);
            if (m == null) {
                continue;
            }
            List<String> params =
                    m.getParameters().stream().map(Parameter::getNameAsString).toList();
            List<HelperSummary.KeySource> parts = new ArrayList<>();
            boolean fromParameters = false;
            for (KeyPart p : site.key().parts()) {
                HelperSummary.KeySource source = source(p, params);
                fromParameters |= source.parameter() >= 0;
                parts.add(source);
            }
            if (site.viaHelper() && !fromParameters) {
                // a helper call with a fixed key makes its method a lock site, not a helper: chains follow
                // parameters only, or every caller of a generic process() would inherit the lock
                continue;
            }
            // an acquisition the helper pairs with its own release is self-contained for its callers: a
            // missing finally inside the helper is reported there, once, not at every call
            LockLifecycle own = lifecycles.stream()
                    .filter(l -> l.acquisition() == site)
                    .findFirst()
                    .orElse(null);
            boolean releasedInside = own != null && PAIRED_INSIDE.contains(own.guarantee());
            if (releasedInside && own.releaseRegion() != null) {
                pairedReleases.add(own.releaseRegion());
            }
            SortedMap<Integer, Boolean> when = new TreeMap<>();
            flags.getOrDefault(site, Map.of()).forEach((name, value) -> {
                if (params.contains(name)) {
                    when.put(params.indexOf(name), value);
                }
            });
            HelperSummary.Op op = new HelperSummary.Op(
                    site.function(), parts, inners.getOrDefault(site, site), releasedInside, site.execution(), when);
            opRegions.put(op, site.region());
            ops.add(m, op);
        }
        // the releases those acquisitions were paired with are not the callers' to pair again
        ops.replaceAll((m, list) -> list.stream()
                .filter(op -> !(op.function().operation().isRelease()
                        && list.stream().anyMatch(HelperSummary.Op::releasedInside)
                        && opRegions.containsKey(op)
                        && pairedReleases.contains(opRegions.get(op))))
                .toList());
        List<HelperSummary> out = new ArrayList<>();
        for (CallableDeclaration<?> m : ops.keys()) {
            List<HelperSummary.Op> methodOps = ops.get(m);
            TypeDeclaration<?> type = m.findAncestor(TypeDeclaration.class).orElse(null);
            if (type == null) {
                continue;
            }
            String name = m instanceof ConstructorDeclaration ? "<init>" : m.getNameAsString();
            boolean handle = isHandleType(type, ops.keys())
                    && (m instanceof ConstructorDeclaration
                            || (m instanceof MethodDeclaration md
                                    && md.isStatic()
                                    && JavaScopes.simpleTypeName(md.getType().asString())
                                            .equals(type.getNameAsString())));
            out.add(new HelperSummary(
                    type.getNameAsString(),
                    name,
                    m.getParameters().size(),
                    handle,
                    methodOps,
                    returnsLockResult(m, methodOps),
                    answersTry(m, methodOps)));
        }
        return out;
    }

    /**
     * A Spring Data repository method declared {@code boolean}/{@code Boolean} whose every operation is
     * its own {@code @Query}/{@code @Procedure} SQL calling a try-lock or unlock in the select list of a
     * query that reads no rows: the value the method returns is the lock function's boolean (F16).
     */
    private static boolean returnsLockResult(CallableDeclaration<?> m, List<HelperSummary.Op> ops) {
        if (!(m instanceof MethodDeclaration md)
                || ops.isEmpty()
                || !BOOLEAN_TYPES.contains(md.getType().asString())) {
            return false;
        }
        for (HelperSummary.Op op : ops) {
            LockSite inner = op.inner();
            LockOperation operation = op.function().operation();
            if ((inner.api() != ExecutionApi.SPRING_DATA_QUERY && inner.api() != ExecutionApi.SPRING_DATA_PROCEDURE)
                    // the query declared on this method, not one a method it calls runs (whose boolean this
                    // method may turn into an answer of its own: "no conflict")
                    || inner.java() == null
                    || !md.getNameAsString().equals(inner.java().methodName())
                    || (operation != LockOperation.TRY_ACQUIRE && operation != LockOperation.RELEASE)
                    || inner.sql().depth() > 0
                    || inner.sql().readsRows()
                    || (inner.sql().clause() != SqlClause.SELECT_LIST
                            && inner.sql().clause() != SqlClause.CALL)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A method declared {@code boolean}/{@code Boolean} whose one lock operation is a try-lock its own body runs
     * (not a helper it calls) and does not release: what it answers is whether it took the lock.
     */
    private static boolean answersTry(CallableDeclaration<?> m, List<HelperSummary.Op> ops) {
        if (!(m instanceof MethodDeclaration md)
                || ops.size() != 1
                || !BOOLEAN_TYPES.contains(md.getType().asString())) {
            return false;
        }
        HelperSummary.Op op = ops.get(0);
        return op.function().operation() == LockOperation.TRY_ACQUIRE
                && !op.releasedInside()
                && op.inner().java() != null
                && md.getNameAsString().equals(op.inner().java().methodName())
                && !keepsState(md);
    }

    /**
     * @return whether the method writes a field of its object (a leader flag, the connection holding the lock): the
     *     object remembers the outcome, so its callers need not read the answer
     */
    private static boolean keepsState(MethodDeclaration md) {
        List<String> params =
                md.getParameters().stream().map(Parameter::getNameAsString).toList();
        for (AssignExpr a : md.findAll(AssignExpr.class)) {
            if (a.getTarget() instanceof FieldAccessExpr
                    || (a.getTarget() instanceof NameExpr n
                            && !params.contains(n.getNameAsString())
                            && JavaScopes.local(n.getNameAsString(), a).isEmpty())) {
                return true;
            }
        }
        for (MethodCallExpr c :
                md.findAll(MethodCallExpr.class, c -> API.is(Role.STORES_ARGUMENT, c.getNameAsString()))) {
            Expression scope = c.getScope().orElse(null);
            if (scope instanceof FieldAccessExpr
                    || (scope instanceof NameExpr n
                            && !params.contains(n.getNameAsString())
                            && JavaScopes.local(n.getNameAsString(), c).isEmpty())) {
                return true;
            }
        }
        return false;
    }

    /** Where a key part of a helper's site comes from: one of its parameters, or fixed. */
    private static HelperSummary.KeySource source(KeyPart p, List<String> params) {
        String expr = p.expression().trim();
        Matcher cast = CAST.matcher(expr);
        while (cast.find() && cast.end() < expr.length()) {
            expr = expr.substring(cast.end()).trim();
            cast = CAST.matcher(expr);
        }
        while (expr.startsWith("(") && expr.endsWith(")")) {
            expr = expr.substring(1, expr.length() - 1).trim();
        }
        Matcher named = NAMED.matcher(expr);
        if (named.matches()) {
            expr = named.group(1);
        }
        Matcher positional = POSITIONAL.matcher(expr);
        if (positional.matches()) {
            int index = Integer.parseInt(positional.group(1)) - 1;
            if (index >= 0 && index < params.size() && !p.isKnown()) {
                return new HelperSummary.KeySource(index, null);
            }
        }
        int index = params.indexOf(expr);
        if (index >= 0 && !p.isKnown()) {
            return new HelperSummary.KeySource(index, null);
        }
        return new HelperSummary.KeySource(-1, p);
    }

    /** A type that implements {@code AutoCloseable}/{@code Closeable} and releases in {@code close()}. */
    private static boolean isHandleType(TypeDeclaration<?> type, List<CallableDeclaration<?>> lockingMethods) {
        if (!(type instanceof ClassOrInterfaceDeclaration c)
                || c.getImplementedTypes().stream()
                        .noneMatch(t -> t.getNameAsString().equals("AutoCloseable")
                                || t.getNameAsString().equals("Closeable"))) {
            return false;
        }
        return lockingMethods.stream()
                .anyMatch(m -> m instanceof MethodDeclaration md
                        && md.getNameAsString().equals("close")
                        && md.getParameters().isEmpty()
                        && md.findAncestor(TypeDeclaration.class).orElse(null) == type);
    }
}
