package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.flow.TemplatePropagation;
import io.github.pgadvisorylint.core.model.TransactionBoundary;
import io.github.pgadvisorylint.core.model.TransactionState;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Spring's declarative transactions as they apply at run time (Spring Framework reference,
 * "Declarative Transaction Management", "Using {@code @Transactional}", proxy mode), for the
 * transaction state of a lock site (RULES.md xact-lock-outside-transaction, unpinned-session-lock;
 * F3: a transaction-level lock ends with its transaction, in autocommit with its statement):
 * <ul>
 *   <li>{@code @Transactional} works through the bean's proxy only: a call from the same object
 *       ({@code this.closeDay()}, {@code closeDay()}) runs the method without its annotation, in the
 *       caller's context. This is reported only where Spring's proxies are in play (Spring's annotation,
 *       or JTA's in a file that imports Spring): CDI containers may intercept self-calls.</li>
 *   <li>A private method's annotation never applies (no proxy can intercept it), whatever the
 *       container; a {@code @PostConstruct} method is called on the bean before its proxy exists.
 *       Protected and package-private methods count as transactional: Spring 6 class-based proxies
 *       (Spring Boot's default) intercept them, and the analysis does not claim what it cannot show.</li>
 *   <li>A class-level annotation covers the class's non-private methods; a method-level one overrides it.</li>
 *   <li>Propagation: {@code REQUIRED} (default), {@code REQUIRES_NEW}, {@code MANDATORY}, {@code NESTED} and
 *       {@code readOnly} run in a transaction; {@code NOT_SUPPORTED} and {@code NEVER} in none;
 *       {@code SUPPORTS} joins the caller's transaction and starts none. JTA's {@code TxType} values
 *       read the same way.</li>
 *   <li>{@code TransactionTemplate.execute/executeWithoutResult} (and jOOQ, JDBI, Micronaut callbacks)
 *       wrap their callback only: a callback that holds nothing but the lock commits before the work
 *       that follows it.</li>
 * </ul>
 * A method without a boundary of its own joins its callers' transactions: the entry points
 * (scheduler, start-up, listeners, {@code main}) have none, and calls from the same class are
 * followed up to a small depth; any other caller is out of sight, so the state stays unknown and the
 * boundary says the callers decide ({@link TransactionBoundary#JOINS_CALLER}).
 */
final class SpringTransactions {

    /**
     * The transaction state at a node.
     *
     * @param state    the state
     * @param evidence why, a short phrase; empty when unknown
     * @param region   where that evidence is, or null
     * @param boundary who decides
     */
    record Tx(TransactionState state, String evidence, SourceRegion region, TransactionBoundary boundary) {
        static final Tx UNKNOWN = new Tx(TransactionState.UNKNOWN, "", null, TransactionBoundary.OWN);
        static final Tx JOINS = new Tx(TransactionState.UNKNOWN, "", null, TransactionBoundary.JOINS_CALLER);
    }

    /** The propagation values of Spring's {@code Propagation} and JTA's {@code TxType}. */
    enum Propagation {
        REQUIRED,
        REQUIRES_NEW,
        SUPPORTS,
        MANDATORY,
        NOT_SUPPORTED,
        NEVER,
        NESTED
    }

    /** Transaction callbacks (jOOQ, JDBI, Vert.x, Spring's {@code TransactionCallback}) and their roles. */
    private static final ApiCatalog API = ApiCatalog.standard();

    private static final Set<String> ENTRY_POINTS = Set.of(
            "Scheduled",
            "PostConstruct",
            "PreDestroy",
            "EventListener",
            "Async",
            "SchedulerLock",
            "KafkaListener",
            "RabbitListener",
            "JmsListener",
            "Startup",
            "Observes");
    /** The propagation {@link #ownPropagation} reports, as it appears in a template callback's evidence. */
    static final String REQUIRES_NEW = "(REQUIRES_NEW)";

    /** How far calls within a class are followed to find a caller's transaction. */
    private static final int MAX_DEPTH = 4;

    private final Function<Node, SourceRegion> regions;

    /** @param regions the source region of a node of the file */
    SpringTransactions(Function<Node, SourceRegion> regions) {
        this.regions = regions;
    }

    /**
     * The transaction at a node: the nearest transaction callback around it, else its method's.
     *
     * @param at         the lock's executing call, or a call of a method that takes a lock
     * @param lockItself true when {@code at} takes the lock, so a boundary holding only it ends before the work
     * @param managed    true when the statement follows Spring's transaction (a Spring JDBC template, JPA,
     *                   a Spring Data query or a helper over them): only then does an entry point or a
     *                   caller's context tell its transaction
     * @return the state; {@link Tx#UNKNOWN} when Spring's annotations and callbacks do not tell it
     */
    Tx at(Node at, boolean lockItself, boolean managed) {
        return at(at, lockItself, managed, 0, new HashSet<>());
    }

    private Tx at(Node at, boolean lockItself, boolean managed, int depth, Set<MethodDeclaration> visiting) {
        for (Node cur = at.getParentNode().orElse(null);
                cur != null;
                cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof LambdaExpr lambda
                    && lambda.getParentNode().orElse(null) instanceof MethodCallExpr call
                    && call.getArguments().contains(lambda)) {
                String name = call.getNameAsString();
                boolean template = isTemplateCall(call);
                if (template || (API.is(Role.BEGINS_TRANSACTION, name) && !projectReceiver(call))) {
                    String propagation = ownPropagation(call); // a receiver given a propagation is a template
                    String what = (template || !propagation.isEmpty() ? "TransactionTemplate" + propagation + "." : "")
                            + name
                            + "(...)";
                    if (template && lockItself && onlyTakesTheLock(lambda.getBody(), at)) {
                        return lockOnlyCallback(call, what, propagation, managed, depth, visiting);
                    }
                    return new Tx(TransactionState.IN_TRANSACTION, what, regions.apply(call), TransactionBoundary.OWN);
                }
            }
            if (cur instanceof MethodDeclaration m
                    && m.getParentNode().orElse(null) instanceof ObjectCreationExpr anonymous) {
                // new TransactionCallback<>() { doInTransaction(..) { .. } } passed to a template: its body is the
                // callback
                Node parent = anonymous.getParentNode().orElse(null);
                if (parent instanceof MethodCallExpr call
                        && call.getArguments().contains(anonymous)
                        && (isTemplateCall(call)
                                || API.is(Role.BEGINS_TRANSACTION, call.getNameAsString())
                                || API.is(Role.BEGINS_TRANSACTION, m.getNameAsString()))) {
                    String what =
                            (isTemplateCall(call) ? "TransactionTemplate." : "") + call.getNameAsString() + "(...)";
                    if (isTemplateCall(call)
                            && lockItself
                            && m.getBody().map(b -> onlyTakesTheLock(b, at)).orElse(false)) {
                        return lockOnlyCallback(call, what, ownPropagation(call), managed, depth, visiting);
                    }
                    return new Tx(TransactionState.IN_TRANSACTION, what, regions.apply(call), TransactionBoundary.OWN);
                }
                continue; // any other anonymous class runs where its enclosing method runs it
            }
            if (cur instanceof MethodDeclaration m) {
                return method(m, at, lockItself, managed, depth, visiting);
            }
            if (cur instanceof TypeDeclaration<?>) {
                break;
            }
        }
        return Tx.UNKNOWN;
    }

    /**
     * The transaction of a template callback that holds nothing but the lock. A template that joins (Spring's default
     * {@code PROPAGATION_REQUIRED}) commits nothing when its callback returns if its caller has a transaction open
     * (Spring Framework reference, "Transaction Propagation"): in one, it is that transaction. Else, and always for
     * {@code REQUIRES_NEW}, it commits as the callback returns: {@link TransactionState#ENDS_BEFORE_WORK}, with
     * {@link TransactionBoundary#NEW_UNLESS_CALLER} where the callers of the method decide (a call of it as a lock
     * helper from a transaction joins that transaction).
     *
     * @param call        the {@code TransactionTemplate.execute/executeWithoutResult} call
     * @param what        how the evidence names the call
     * @param propagation {@link #ownPropagation} of the call
     */
    private Tx lockOnlyCallback(
            MethodCallExpr call,
            String what,
            String propagation,
            boolean managed,
            int depth,
            Set<MethodDeclaration> visiting) {
        if (propagation.isEmpty()) {
            Tx outer = at(call, false, managed, depth, visiting);
            if (outer.state() == TransactionState.IN_TRANSACTION) {
                return outer;
            }
            if (outer.state() == TransactionState.UNKNOWN
                    && (outer.boundary() == TransactionBoundary.JOINS_CALLER
                            || outer.boundary() == TransactionBoundary.JOINS_CALLER_UNLESS_INHERITED)) {
                return new Tx(
                        TransactionState.ENDS_BEFORE_WORK,
                        what + " commits as soon as the callback returns, unless the caller has a transaction",
                        regions.apply(call),
                        TransactionBoundary.NEW_UNLESS_CALLER);
            }
        }
        return new Tx(
                TransactionState.ENDS_BEFORE_WORK,
                what + " commits as soon as the callback returns",
                regions.apply(call),
                TransactionBoundary.OWN);
    }

    /**
     * True when the call's receiver has a declared type for which the catalog gives the method no
     * {@code BEGINS_TRANSACTION} role (a project class's own {@code inTransaction}, {@code transaction}): its
     * callback runs wherever that method runs it, not in a transaction the name suggests. A receiver whose type
     * cannot be seen is not one, and names the catalog matches on any receiver ({@code runInTransaction}) stay.
     */
    private static boolean projectReceiver(MethodCallExpr call) {
        String type = call.getScope().map(JavaScopes::receiverTypeName).orElse(null);
        return type != null
                && !type.equals("var")
                && !API.roles(type, call.getNameAsString(), call.getArguments().size())
                        .contains(Role.BEGINS_TRANSACTION);
    }

    /**
     * @param call a template call ({@link #isTemplateCall})
     * @return {@link #REQUIRES_NEW} when the template's own class makes it start a transaction of its own
     *     ({@link TemplatePropagation}), or empty when it joins its caller's transaction or it is not known
     */
    static String ownPropagation(MethodCallExpr call) {
        return TemplatePropagation.requiresNew(call) ? REQUIRES_NEW : "";
    }

    /**
     * @param evidence a {@link Tx#evidence()} (as an execution context's transaction evidence)
     * @return whether it names a transaction callback ({@code jdbi.useTransaction(...)}, {@code
     *     TransactionTemplate.execute(...)}), as {@link #at} writes it
     */
    static boolean isCallback(String evidence) {
        return evidence.endsWith("(...)");
    }

    /**
     * @param evidence a {@link Tx#evidence()} (as an execution context's transaction evidence)
     * @return whether it names the callback of a template that starts a transaction of its own whatever its caller's
     *     ({@link #ownPropagation}), as {@link #at} writes it
     */
    static boolean isOwnNewTransaction(String evidence) {
        return evidence.startsWith("TransactionTemplate" + REQUIRES_NEW + ".");
    }

    /**
     * {@code TransactionTemplate.execute/executeWithoutResult}, told by a receiver named for transactions or declared
     * as a {@code TransactionTemplate}.
     */
    static boolean isTemplateCall(MethodCallExpr call) {
        String name = call.getNameAsString();
        String scope = call.getScope().map(Node::toString).orElse("").toLowerCase(Locale.ROOT);
        return (name.equals("execute") || name.equals("executeWithoutResult"))
                && (scope.contains("transaction")
                        || scope.contains("tx")
                        || call.getScope()
                                .map(JavaScopes::receiverTypeName)
                                .filter(t -> t.equals("TransactionTemplate"))
                                .isPresent());
    }

    private Tx method(
            MethodDeclaration m,
            Node at,
            boolean lockItself,
            boolean managed,
            int depth,
            Set<MethodDeclaration> visiting) {
        if (!(m.getParentNode().orElse(null) instanceof TypeDeclaration<?> type)) {
            return Tx.UNKNOWN;
        }
        AnnotationExpr own = transactional(m).orElse(null);
        AnnotationExpr a = own != null ? own : transactional(type).orElse(null);
        // an override of a project type declared elsewhere may inherit a @Transactional this file cannot see
        boolean mayInherit = false;
        if (a == null) {
            Optional<AnnotationExpr> inherited = inheritedTransactional(m, type, 0);
            mayInherit = inherited == null;
            own = inherited == null ? null : inherited.orElse(null);
            a = own;
        }
        String where = "method " + m.getNameAsString() + "()";
        String bypass = null;
        boolean supports = false;
        if (a != null) {
            String which = own != null
                    ? "@Transactional on private " + where
                    : "the class's @Transactional on private " + where;
            if (m.isPrivate()) {
                bypass = which + " never applies: no proxy can intercept a private method";
            } else if (annotated(m, "PostConstruct")) {
                bypass = "@PostConstruct " + where + " runs on the bean itself before its transactional proxy exists, "
                        + "so @Transactional does not apply";
            } else {
                Propagation p = propagation(a);
                String on = label(a) + (p == Propagation.REQUIRED ? "" : "(" + p + ")") + " on " + where;
                switch (p) {
                    case NOT_SUPPORTED, NEVER:
                        return new Tx(
                                TransactionState.AUTOCOMMIT,
                                on + " suspends any transaction",
                                regions.apply(a),
                                TransactionBoundary.OWN);
                    case SUPPORTS:
                        if (!managed) {
                            return Tx.UNKNOWN;
                        }
                        supports = true;
                        bypass = on + " joins a caller's transaction but starts none";
                        break;
                    default: {
                        boolean only = lockItself
                                && m.getBody().map(b -> onlyTakesTheLock(b, at)).orElse(false);
                        Tx inside;
                        if (p == Propagation.REQUIRES_NEW && only) {
                            inside = new Tx(
                                    TransactionState.ENDS_BEFORE_WORK,
                                    on + " commits its new transaction when " + m.getNameAsString()
                                            + "() returns, right after the lock",
                                    regions.apply(a),
                                    TransactionBoundary.OWN);
                        } else if ((p == Propagation.REQUIRED || p == Propagation.NESTED) && only && managed) {
                            inside = new Tx(
                                    TransactionState.IN_TRANSACTION,
                                    on + " holds only the lock: unless its caller "
                                            + "has a transaction, it commits when " + m.getNameAsString()
                                            + "() returns",
                                    regions.apply(a),
                                    TransactionBoundary.NEW_UNLESS_CALLER);
                        } else {
                            inside = new Tx(
                                    TransactionState.IN_TRANSACTION,
                                    label(a) + (p == Propagation.REQUIRED ? "" : "(" + p + ")") + " on "
                                            + (own != null ? where : "class " + type.getNameAsString()),
                                    regions.apply(a),
                                    TransactionBoundary.OWN);
                        }
                        if (managed && proxied(a)) {
                            Tx self = selfCallWithoutTransaction(m, depth, visiting);
                            if (self != null) {
                                return self;
                            }
                        }
                        return inside;
                    }
                }
            }
        }
        if (!managed) {
            return Tx.UNKNOWN;
        }
        Tx joined = joins(m, bypass, supports, depth, visiting);
        if (!mayInherit || joined.state() == TransactionState.IN_TRANSACTION) {
            return joined;
        }
        return joined.boundary() == TransactionBoundary.JOINS_CALLER
                ? new Tx(
                        joined.state(),
                        joined.evidence(),
                        joined.region(),
                        TransactionBoundary.JOINS_CALLER_UNLESS_INHERITED)
                : Tx.UNKNOWN;
    }

    /** A call of the method from its own object whose caller runs without a transaction: the proxy is bypassed. */
    private Tx selfCallWithoutTransaction(MethodDeclaration m, int depth, Set<MethodDeclaration> visiting) {
        if (depth >= MAX_DEPTH || !visiting.add(m)) {
            return null;
        }
        try {
            for (MethodCallExpr call : selfCalls(m)) {
                Tx caller = at(call, false, true, depth + 1, visiting);
                if (caller.state() == TransactionState.AUTOCOMMIT) {
                    return new Tx(
                            TransactionState.AUTOCOMMIT,
                            call + " in " + callerName(call) + "() calls "
                                    + m.getNameAsString()
                                    + "() on the object itself, bypassing the transactional proxy, so its "
                                    + "@Transactional does not apply; " + caller.evidence(),
                            regions.apply(call),
                            TransactionBoundary.OWN);
                }
            }
            return null;
        } finally {
            visiting.remove(m);
        }
    }

    /** A method whose annotation does not apply, or says SUPPORTS: its transaction is its callers'. */
    private Tx joins(MethodDeclaration m, String bypass, boolean supports, int depth, Set<MethodDeclaration> visiting) {
        String prefix = bypass == null ? "" : bypass + "; ";
        if (ENTRY_POINTS.stream().anyMatch(e -> annotated(m, e))
                || (m.isStatic() && m.getNameAsString().equals("main"))) {
            return new Tx(
                    TransactionState.AUTOCOMMIT,
                    prefix + "entry point " + m.getNameAsString() + "() runs without a transaction",
                    regions.apply(m.getName()),
                    TransactionBoundary.OWN);
        }
        if (depth >= MAX_DEPTH || !visiting.add(m)) {
            return Tx.JOINS;
        }
        List<Tx> callers = new ArrayList<>();
        try {
            for (MethodCallExpr call : selfCalls(m)) {
                Tx caller = at(call, false, true, depth + 1, visiting);
                if (caller.state() == TransactionState.AUTOCOMMIT) {
                    return new Tx(
                            TransactionState.AUTOCOMMIT,
                            prefix + "called as " + call + " from " + callerName(call) + "(): " + caller.evidence(),
                            regions.apply(call),
                            TransactionBoundary.OWN);
                }
                callers.add(caller);
            }
        } finally {
            visiting.remove(m);
        }
        if (m.isPrivate()
                && !callers.isEmpty()
                && callers.stream().allMatch(c -> c.state() == TransactionState.IN_TRANSACTION)) {
            return new Tx(
                    TransactionState.IN_TRANSACTION,
                    "every caller of private method " + m.getNameAsString() + "() runs in a transaction",
                    callers.get(0).region(),
                    TransactionBoundary.OWN);
        }
        if (m.isPrivate() && bypass != null && !supports) {
            return new Tx(
                    TransactionState.AUTOCOMMIT,
                    bypass + ", and no caller in the class is shown to run in a transaction",
                    regions.apply(transactional(m).map(Node.class::cast).orElse(m.getName())),
                    TransactionBoundary.OWN);
        }
        return Tx.JOINS;
    }

    /**
     * The transaction of a Spring Data repository method's {@code @Query}: the method (or its
     * interface) may carry {@code @Transactional}; declared query methods have none by default and
     * join the caller's transaction (Spring Data JPA reference, "Transactionality").
     *
     * @param m the repository method
     * @return the state at its query
     */
    Tx repositoryMethod(MethodDeclaration m) {
        AnnotationExpr a = transactional(m).orElse(null);
        if (a == null && m.getParentNode().orElse(null) instanceof TypeDeclaration<?> type) {
            a = transactional(type).orElse(null);
        }
        if (a == null) {
            return Tx.JOINS;
        }
        Propagation p = propagation(a);
        String on = "@Transactional" + (p == Propagation.REQUIRED ? "" : "(" + p + ")") + " on repository method "
                + m.getNameAsString() + "()";
        return switch (p) {
            case NOT_SUPPORTED, NEVER ->
                new Tx(
                        TransactionState.AUTOCOMMIT,
                        on + " suspends any transaction",
                        regions.apply(a),
                        TransactionBoundary.OWN);
            case SUPPORTS -> Tx.JOINS;
            case REQUIRES_NEW ->
                new Tx(
                        TransactionState.ENDS_BEFORE_WORK,
                        on + " commits its new transaction when the " + "query returns",
                        regions.apply(a),
                        TransactionBoundary.OWN);
            case MANDATORY -> new Tx(TransactionState.IN_TRANSACTION, on, regions.apply(a), TransactionBoundary.OWN);
            default ->
                new Tx(
                        TransactionState.IN_TRANSACTION,
                        on + " holds only the query: unless its caller has a "
                                + "transaction, it commits when the query returns",
                        regions.apply(a),
                        TransactionBoundary.NEW_UNLESS_CALLER);
        };
    }

    /** Calls of the method on its own object, in its class: no receiver, {@code this.} or {@code Outer.this.}, same arity. */
    private static List<MethodCallExpr> selfCalls(MethodDeclaration m) {
        TypeDeclaration<?> type = (TypeDeclaration<?>) m.getParentNode().orElseThrow();
        List<MethodCallExpr> out = new ArrayList<>();
        for (MethodCallExpr c : JavaScopes.calls(type)) {
            if (c.getNameAsString().equals(m.getNameAsString())
                    && c.getArguments().size() == m.getParameters().size()
                    && c.getScope().map(Expression::isThisExpr).orElse(true)
                    && c.findAncestor(TypeDeclaration.class).orElse(null) == type
                    && c.findAncestor(MethodDeclaration.class).orElse(null) != m) {
                out.add(c);
            }
        }
        return out;
    }

    private static String callerName(Node call) {
        return call.findAncestor(MethodDeclaration.class)
                .map(MethodDeclaration::getNameAsString)
                .orElse("?");
    }

    /** Spring's proxies intercept the annotation: Spring's own, or JTA's in a file that uses Spring. */
    private static boolean proxied(AnnotationExpr a) {
        String name = a.getNameAsString();
        if (name.startsWith("org.springframework.")) {
            return true;
        }
        return a.findCompilationUnit()
                .map(cu -> cu.getImports().stream()
                        .anyMatch(i -> i.getNameAsString().startsWith("org.springframework.")))
                .orElse(false);
    }

    /** {@code java.lang} types a class can extend or implement without an import. */
    private static final Set<String> JAVA_LANG_SUPERTYPES =
            Set.of("Object", "Runnable", "AutoCloseable", "Comparable", "Iterable", "Cloneable", "Thread");

    /**
     * The {@code @Transactional} a method inherits: Spring finds the annotation on the methods it overrides and on
     * its class's super types too (Spring Framework reference, "Using @Transactional": annotations are searched
     * through the type hierarchy, and {@code @Transactional} is {@code @Inherited}). Super types are looked up in
     * the method's file.
     *
     * @return the annotation of an overridden method or of a super type declared in this file; empty when there
     *     is none; null when the method is an {@code @Override} of a project type this file does not declare,
     *     whose annotations are not known here
     */
    private static Optional<AnnotationExpr> inheritedTransactional(
            MethodDeclaration m, TypeDeclaration<?> type, int depth) {
        if (depth > MAX_DEPTH
                || !(type instanceof ClassOrInterfaceDeclaration c)
                || type.findCompilationUnit().isEmpty()) {
            return Optional.empty();
        }
        CompilationUnit unit = type.findCompilationUnit().get();
        List<ClassOrInterfaceType> supers = new ArrayList<>(c.getExtendedTypes());
        supers.addAll(c.getImplementedTypes());
        boolean unseen = false;
        for (ClassOrInterfaceType t : supers) {
            String name = t.getNameAsString();
            Optional<ClassOrInterfaceDeclaration> decl = unit.findFirst(
                    ClassOrInterfaceDeclaration.class, d -> d.getNameAsString().equals(name));
            if (decl.isEmpty()) {
                unseen |= !fromTheJdk(t, unit);
                continue;
            }
            for (MethodDeclaration sm : decl.get().getMethodsByName(m.getNameAsString())) {
                Optional<AnnotationExpr> a =
                        sm.getParameters().size() == m.getParameters().size() ? transactional(sm) : Optional.empty();
                if (a.isPresent()) {
                    return a;
                }
            }
            Optional<AnnotationExpr> onType = transactional(decl.get());
            if (onType.isPresent()) {
                return onType;
            }
            Optional<AnnotationExpr> up = inheritedTransactional(m, decl.get(), depth + 1);
            if (up == null) {
                unseen = true;
            } else if (up.isPresent()) {
                return up;
            }
        }
        return unseen && m.getAnnotationByName("Override").isPresent() ? null : Optional.empty();
    }

    /** @return whether a super type is the JDK's: {@code java.lang}, or imported from {@code java.} */
    private static boolean fromTheJdk(ClassOrInterfaceType t, CompilationUnit unit) {
        String name = t.getNameWithScope();
        if (name.startsWith("java.")) {
            return true;
        }
        if (!name.contains(".") && JAVA_LANG_SUPERTYPES.contains(name)) {
            return true;
        }
        return unit.getImports().stream()
                .anyMatch(i -> !i.isAsterisk()
                        && i.getNameAsString().startsWith("java.")
                        && i.getNameAsString().endsWith("." + name));
    }

    /**
     * The {@code @Transactional} annotation (Spring's, JTA's or any other of that name) of a method or type, or
     * dynamic-datasource's {@code @DSTransactional} (a local transaction, auto-commit off, committed when the method
     * returns).
     */
    static Optional<AnnotationExpr> transactional(NodeWithAnnotations<?> owner) {
        Optional<AnnotationExpr> declared = owner.getAnnotations().stream()
                .filter(a -> {
                    String n = simpleName(a);
                    return n.equals("Transactional") || n.equals("DSTransactional") || n.equals("TransactionAttribute");
                })
                .findFirst();
        if (declared.isPresent() || !(owner instanceof TypeDeclaration<?> type)) {
            return declared;
        }
        // an EJB session or message-driven bean: its business methods run in a container-managed transaction
        // (REQUIRED) unless the bean manages its own (@TransactionManagement(BEAN)); EJB 3.2, section 8.3.7
        boolean beanManaged = type.getAnnotations().stream()
                .anyMatch(a -> simpleName(a).equals("TransactionManagement")
                        && a.toString().contains("BEAN"));
        return beanManaged
                ? Optional.empty()
                : type.getAnnotations().stream()
                        .filter(a -> EJB_COMPONENTS.contains(simpleName(a)) && fromEjb(a))
                        .findFirst();
    }

    /**
     * @return whether an annotation is EJB's ({@code javax.ejb} or {@code jakarta.ejb}): written qualified, or imported
     *     by name or package; JSR-330's {@code jakarta.inject.Singleton} is not
     */
    private static boolean fromEjb(AnnotationExpr a) {
        String written = a.getNameAsString();
        if (written.contains(".")) {
            return written.startsWith("javax.ejb.") || written.startsWith("jakarta.ejb.");
        }
        return a.findCompilationUnit()
                .map(cu -> cu.getImports().stream().anyMatch(i -> {
                    String n = i.getNameAsString();
                    return i.isAsterisk()
                            ? n.equals("javax.ejb") || n.equals("jakarta.ejb")
                            : n.equals("javax.ejb." + written) || n.equals("jakarta.ejb." + written);
                }))
                .orElse(false);
    }

    /** EJB component annotations whose beans run their business methods in container-managed transactions. */
    private static final Set<String> EJB_COMPONENTS = Set.of("Stateless", "Stateful", "Singleton", "MessageDriven");

    private static String simpleName(AnnotationExpr a) {
        return a.getName().getIdentifier();
    }

    /**
     * @param a an annotation {@link #transactional} found
     * @return how evidence names it: {@code @Transactional} (Spring's, JTA's, {@code @DSTransactional}), EJB's
     *     {@code @TransactionAttribute}, or the bean's {@code @Stateless}/{@code @Singleton}/.. for its container's
     *     default
     */
    static String label(AnnotationExpr a) {
        String n = simpleName(a);
        return n.equals("DSTransactional") ? "@Transactional" : "@" + n;
    }

    /**
     * What the lock-state analysis needs to know of a method's own transaction (core.flow): when Spring's
     * proxy runs a call of it in one, {@code transactional}, and {@code readOnly} when that transaction
     * writes nothing. The method's {@code @Transactional} counts, else its class's for a public instance
     * method, else one it inherits from a super type of its file; never for a private or static one; not with {@code SUPPORTS} (the caller decides),
     * {@code NOT_SUPPORTED} or {@code NEVER}.
     *
     * @param c a method or constructor
     * @return those words, possibly none
     */
    static Set<String> flowModifiers(CallableDeclaration<?> c) {
        if (c.isPrivate() || c.isStatic()) {
            return Set.of();
        }
        Optional<AnnotationExpr> a = transactional(c);
        if (a.isEmpty() && c.isPublic()) {
            a = c.findAncestor(TypeDeclaration.class).flatMap(t -> transactional((TypeDeclaration<?>) t));
        }
        if (a.isEmpty()
                && c instanceof MethodDeclaration m
                && m.getParentNode().orElse(null) instanceof TypeDeclaration<?> type) {
            Optional<AnnotationExpr> inherited = inheritedTransactional(m, type, 0);
            a = inherited == null ? Optional.empty() : inherited; // not known: not taken to be transactional
        }
        Propagation p = a.map(SpringTransactions::propagation).orElse(null);
        if (p == null || p == Propagation.SUPPORTS || p == Propagation.NOT_SUPPORTED || p == Propagation.NEVER) {
            return Set.of();
        }
        boolean readOnly = a.get() instanceof NormalAnnotationExpr n
                && n.getPairs().stream()
                        .anyMatch(x -> x.getNameAsString().equals("readOnly")
                                && x.getValue().toString().equals("true"));
        return readOnly ? Set.of("transactional", "readOnly") : Set.of("transactional");
    }

    private static boolean annotated(MethodDeclaration m, String simpleName) {
        return m.getAnnotations().stream().anyMatch(a -> {
            String n = a.getNameAsString();
            return n.equals(simpleName) || n.endsWith("." + simpleName);
        });
    }

    /**
     * @param a a {@code @Transactional}
     * @return its propagation: Spring's {@code propagation = ...}, JTA's {@code value}; REQUIRED when absent
     */
    static Propagation propagation(AnnotationExpr a) {
        List<Expression> values = new ArrayList<>();
        if (a instanceof SingleMemberAnnotationExpr s) {
            values.add(s.getMemberValue());
        } else if (a instanceof NormalAnnotationExpr n) {
            for (MemberValuePair p : n.getPairs()) {
                if (p.getNameAsString().equals("propagation")
                        || p.getNameAsString().equals("value")) {
                    values.add(p.getValue());
                }
            }
        }
        for (Expression v : values) {
            String last = v instanceof FieldAccessExpr f
                    ? f.getNameAsString()
                    : v instanceof NameExpr n ? n.getNameAsString() : "";
            for (Propagation p : Propagation.values()) {
                if (p.name().equals(last)) {
                    return p;
                }
            }
        }
        return Propagation.REQUIRED;
    }

    /**
     * True when a callback or method body is the lock statement alone, optionally followed by a
     * {@code return} of a name or boolean literal.
     */
    static boolean onlyTakesTheLock(Statement body, Node lock) {
        if (inNestedBlock(lock, body)) {
            return false; // jdbc.execute((ConnectionCallback<?>) c -> { lock; work; }): the inner callback does more
        }
        if (body instanceof ExpressionStmt es) {
            return es.getExpression() == lock || isWithin(lock, es.getExpression());
        }
        if (body instanceof BlockStmt b) {
            List<Statement> stmts = b.getStatements();
            if (stmts.isEmpty() || stmts.size() > 2) {
                return false;
            }
            if (!(stmts.get(0) instanceof ExpressionStmt || stmts.get(0) instanceof ReturnStmt)
                    || !isWithin(lock, stmts.get(0))) {
                return false; // a loop, a branch or a try around the lock holds more than the lock
            }
            return stmts.size() == 1
                    || (stmts.get(1) instanceof ReturnStmt r
                            && r.getExpression()
                                    .map(e -> e instanceof NameExpr || e instanceof BooleanLiteralExpr)
                                    .orElse(true));
        }
        return false;
    }

    /**
     * @return whether a lambda with a block body, or an anonymous class, lies between the lock and the callback's body:
     *     the lock is one statement of a nested callback whose other statements run in the same transaction
     */
    private static boolean inNestedBlock(Node lock, Node body) {
        for (Node cur = lock.getParentNode().orElse(null);
                cur != null && cur != body;
                cur = cur.getParentNode().orElse(null)) {
            if ((cur instanceof LambdaExpr l
                            && l.getBody() instanceof BlockStmt b
                            && b.getStatements().size() > 1)
                    || (cur instanceof ObjectCreationExpr o
                            && o.getAnonymousClassBody().isPresent())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isWithin(Node n, Node container) {
        for (Node cur = n; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur == container) {
                return true;
            }
        }
        return false;
    }
}
