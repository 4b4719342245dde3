package io.github.pgadvisorylint.core.flow;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Modifier;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.ContinueStmt;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ExplicitConstructorInvocationStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.LabeledStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.SwitchStmt;
import com.github.javaparser.ast.stmt.SynchronizedStmt;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import com.github.javaparser.ast.type.Type;
import com.github.javaparser.ast.type.UnknownType;
import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.ApiFamily;
import io.github.pgadvisorylint.core.api.ConnectionSource;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Lowers the method bodies of one compilation unit to control-flow graphs of {@link FlowEvent}s
 * ({@link MethodFlow}): statements and calls in evaluation order, with exceptional edges for every call
 * (to the enclosing {@code catch}, {@code finally} or the exceptional exit), {@code finally} blocks and
 * try-with-resources closes copied onto every way out of their {@code try} (normal completion, exception,
 * {@code return}, {@code break}, {@code continue}), loops, {@code switch}, short-circuit conditions and
 * conditional expressions. Lambda and anonymous-class bodies get graphs of their own.
 *
 * <p>JDBC knowledge used here (java.sql javadoc): a {@code Statement}, {@code PreparedStatement} or
 * {@code ResultSet} runs on the connection it came from, so the lowering names it by that connection's
 * access path; {@code setAutoCommit(false)} begins a manual transaction, {@code commit()} and
 * {@code rollback()} end it. Which calls execute SQL, carry their receiver's connection, only log or
 * cannot fail, and what {@code getConnection()} on a type yields, come from the {@link ApiCatalog}.
 */
public final class FlowLowering {

    /** What calls and types do: executing, aliasing, logging, pure and connection-source knowledge. */
    private static final ApiCatalog API = ApiCatalog.standard();
    /** The libraries whose executing calls run SQL on the receiver's connection here. */
    private static final Set<ApiFamily> ON_CONNECTION = EnumSet.of(ApiFamily.JDBC, ApiFamily.SPRING_JDBC);
    /** The library whose parameter setters are not treated as throwing. */
    private static final Set<ApiFamily> JDBC = EnumSet.of(ApiFamily.JDBC);

    private static final Set<ApiFamily> R2DBC = EnumSet.of(ApiFamily.R2DBC);
    /** Largest graph lowered for one method; a larger one is left out (the rules stay silent on it). */
    static final int MAX_NODES = 20_000;
    /** In-memory types whose calls are not treated as throwing (recording a claim in a set, a counter, a stopwatch). */
    private static final Set<String> IN_MEMORY = Set.of(
            "Set",
            "List",
            "Map",
            "Collection",
            "Queue",
            "Deque",
            "HashSet",
            "LinkedHashSet",
            "TreeSet",
            "ArrayList",
            "LinkedList",
            "HashMap",
            "LinkedHashMap",
            "TreeMap",
            "ConcurrentHashMap",
            "ConcurrentMap",
            "AtomicBoolean",
            "AtomicInteger",
            "AtomicLong",
            "AtomicReference",
            "StringBuilder",
            "Optional",
            // timing an operation: Spring's and Commons Lang's StopWatch, Guava's Stopwatch
            "StopWatch",
            "Stopwatch");
    /** Exception types whose {@code catch} takes every exception a call can throw. */
    private static final Set<String> CATCH_ALL = Set.of(
            "Exception",
            "Throwable",
            "RuntimeException",
            "java.lang.Exception",
            "java.lang.Throwable",
            "java.lang.RuntimeException");

    private final Map<Node, List<String>> sitesByNode;
    private final Function<Node, SourceRegion> regions;
    /**
     * Prefix of the value of a lambda or method reference: {@code $fn:Type.method$lambda0/1} names the
     * lambda's graph, {@code $fn:Type.name/?} a method reference whose arity the call that runs it gives.
     */
    static final String FUNCTION = "$fn:";

    /** The functional interfaces of the JDK whose parameters a helper runs as callbacks. */
    private static final Set<String> FUNCTIONAL =
            Set.of("Runnable", "Callable", "Supplier", "Function", "BiFunction", "Consumer", "BiConsumer", "Predicate");

    /** Their single abstract methods. */
    private static final Set<String> CALLBACK_METHODS = Set.of("run", "call", "get", "apply", "accept", "test");

    /** Reactor's publisher types (a static call on them starts a chain; a variable of them is one). */
    private static final Set<String> REACTOR_TYPES = Set.of("Mono", "Flux");

    /** Static Reactor sources of constant signals: nothing runs and nothing fails when they are subscribed. */
    private static final Set<String> CONSTANT_SOURCES = Set.of("empty", "just", "justOrEmpty", "never");

    /**
     * A statement that only opens or ends the session's transaction block (PostgreSQL reference, "BEGIN",
     * "START TRANSACTION", "COMMIT", "END", "ROLLBACK", "ABORT"); {@code ROLLBACK TO SAVEPOINT} and
     * {@code COMMIT PREPARED} are not.
     */
    private static final Pattern TRANSACTION_CONTROL = Pattern.compile(
            "(?i)\\s*(BEGIN|START|COMMIT|END|ROLLBACK|ABORT)(\\s+(WORK|TRANSACTION|ISOLATION|READ)\\b[^;]*)?\\s*;?\\s*");

    /** A property test by its name ({@code isEnabled}, {@code hasLock}): the same answer each time it is asked. */
    private static final Pattern PROPERTY_TEST = Pattern.compile("(is|has)[A-Z]\\w*");

    /** Static Reactor sources whose lambda runs when the chain is subscribed: its body is inlined. */
    private static final Set<String> INLINED_SOURCES = Set.of("defer", "fromCallable", "fromRunnable", "fromSupplier");

    /** Reactor operators whose one-parameter lambda runs after the upstream, in the chain: inlined. */
    private static final Set<String> INLINED_OPERATORS = Set.of(
            "flatMap",
            "flatMapMany",
            "concatMap",
            "flatMapSequential",
            "switchMap",
            "delayUntil",
            "zipWhen",
            "doOnNext",
            "doOnSuccess");

    /** Reactor operators that run a publisher after the upstream completes. */
    private static final Set<String> SEQUENCE_OPERATORS = Set.of("then", "thenMany", "thenEmpty", "concatWith", "and");

    /**
     * Reactor operators that subscribe to the upstream again when it signals an error (Reactor reference,
     * "Retrying"): the chain before them runs once more, from its start, on the same connection when the
     * connection is not a resource of the retried chain.
     */
    private static final Set<String> RETRY_OPERATORS = Set.of("retry", "retryWhen");

    /** Reactor operators that catch the upstream's error signal. */
    private static final Set<String> ERROR_HANDLERS =
            Set.of("onErrorResume", "onErrorReturn", "onErrorComplete", "doOnError");

    /**
     * Vert.x {@code Future} operators (Vert.x core, {@code io.vertx.core.Future}): the function of {@code compose}
     * and {@code flatMap} runs after the upstream succeeded; {@code eventually}, {@code onComplete} and
     * {@code andThen} run on success and failure alike; {@code recover} and {@code otherwise} handle a failure;
     * {@code onFailure} only looks at it.
     */
    private static final Set<String> FUTURE_INLINED = Set.of("compose", "flatMap");

    private static final Set<String> FUTURE_FINALLY = Set.of("eventually", "onComplete", "andThen");

    /**
     * The value of {@code return null}: a helper that returns its lock object or null returns whether it holds,
     * as a try-lock helper returns a boolean ({@code MethodRun} reads it as false, {@code x != null} tests it).
     */
    static final String NULL = "$const:null";

    /**
     * The value of Spring's {@code TransactionSynchronizationManager.isSynchronizationActive()} or
     * {@code isActualTransactionActive()}: true in a method run in a transaction, unknown elsewhere.
     */
    static final String IN_TRANSACTION = "$inTransaction";

    /** Spring's static questions about the thread's transaction, answered by {@link #IN_TRANSACTION}. */
    private static final Set<String> TRANSACTION_QUESTIONS =
            Set.of("isSynchronizationActive", "isActualTransactionActive");

    /**
     * A branch on whether a try-with-resources resource is null ({@code $nullable:lock}): its first successor closes
     * it. {@code MethodRun} takes the second only when the variable is known to hold a helper's {@link #NULL}.
     */
    static final String NULLABLE = "$nullable:";

    /** The parameter of the lambda a method reference in a chain stands for ({@code this::m} as {@code $ref -> this.m($ref)}). */
    private static final String REFERENCE_PARAMETER = "$ref";

    private static final Set<String> FUTURE_RECOVERY = Set.of("recover", "otherwise", "onFailure");

    /**
     * Reactor operators that cancel their upstream on a timer or a signal of their own (Reactor reference, "Timeouts"
     * and {@code take(Duration)}, {@code takeUntilOther}): a cancelled upstream runs neither its later steps nor its
     * error handlers, only {@code doFinally} and {@code usingWhen}'s cleanup (which Reactor runs on cancel too);
     * then {@code timeout} signals an error downstream, {@code take} and {@code takeUntilOther} complete.
     */
    private static final Set<String> CANCELLING_OPERATORS = Set.of("timeout", "take", "takeUntilOther");

    /**
     * Reactor operators that relay their upstream's signals and run no work of their own that can fail in a way the
     * analysis follows (Reactor reference, "Which operator do I need?": filtering, logging, scheduling, collecting):
     * lowered as their upstream, so an error handler before them still covers the chain ({@code take(n)} of a count
     * is one: it completes after n elements). {@code next}, {@code last} and {@code single} are left out: they can
     * signal an error of their own, and their names are other libraries' too.
     */
    private static final Set<String> RELAYING_OPERATORS = Set.of(
            "take",
            "takeLast",
            "log",
            "checkpoint",
            "name",
            "tag",
            "hide",
            "cache",
            "subscribeOn",
            "publishOn",
            "defaultIfEmpty",
            "hasElement",
            "hasElements",
            "count",
            "collectList",
            "elapsed",
            "timestamp",
            "onErrorMap",
            "cast",
            "ofType",
            "distinct");

    /**
     * The prefix of the boolean a cancellation path sets, followed by the operator's name ({@code $cancelled:timeout};
     * {@code MethodRun} keeps it per path): {@link ExitJudgement} reports a lock still held when such a path leaves the
     * method as held because the chain was cancelled.
     */
    static final String CANCELLED = "$cancelled:";

    /** Operator names only Reactor's publishers have: a chain holding one is Reactor's. */
    private static final Set<String> REACTOR_ONLY_OPERATORS = Set.of(
            "usingWhen",
            "thenMany",
            "flatMapMany",
            "thenReturn",
            "doFinally",
            "onErrorResume",
            "then",
            "subscribeOn",
            "publishOn",
            "thenEmpty");

    private final List<MethodFlow> out = new ArrayList<>();
    /** The method, constructor or initializer whose body and nested lambdas are being lowered. */
    private String rootName = "";
    /** Lambdas of {@link #rootName} lowered so far. */
    private int lambdaCount;
    /** The declared type of a field a type inherits, or null. */
    private BiFunction<TypeDeclaration<?>, String, String> inheritedFields = (t, n) -> null;
    /** Whether a statement's SQL text only reads ({@link #lower}'s {@code readsOnly}). */
    private Predicate<String> readsOnlySql = sql -> false;

    /**
     * Whether a call of a project method cannot fail (see {@link #lower(CompilationUnit, IdentityHashMap, Set,
     * Function, Function, Consumer, BiFunction, Predicate, CallOutcome)}).
     */
    @FunctionalInterface
    public interface CallOutcome {
        /**
         * @param type   the receiver's declared type, simple or qualified, or the caller's own type for a call on
         *               {@code this}
         * @param method the method's name
         * @param arity  its number of arguments
         * @return true when the call cannot fail
         */
        boolean cannotFail(String type, String method, int arity);
    }

    private CallOutcome cannotFail = (t, n, a) -> false;
    /** The simple names each type of the file extends and implements. */
    private final Map<String, List<String>> supertypes = new HashMap<>();

    private final Set<Node> helperCalls;
    /**
     * True when the file itself builds an unpooled data source ({@code new SimpleDriverDataSource()}, as
     * test configurations do): a {@code DataSource}-typed source is then not taken to be a pool.
     */
    private boolean unpooledInFile;
    /** Names of the file's methods declared to return a Vert.x {@code Future}: their calls start future chains. */
    private Set<String> futureMethods = Set.of();
    /**
     * True when the file is Quarkus code ({@code io.quarkus.} or {@code io.agroal.} imports): its data sources are
     * Agroal pools that enlist a connection taken inside a JTA transaction in that transaction (Quarkus guide
     * "Datasources", transaction integration on by default).
     */
    private boolean enlistsInJta;

    /**
     * The second callee word of an {@code OPEN} of a connection that a transaction around the method takes in (JTA,
     * {@link #enlistsInJta}; Spring's {@code DataSourceUtils.getConnection}): {@code MethodRun} puts it in the
     * method's transaction.
     */
    static final String ENLISTED = "enlisted";

    /** Names of the file's methods declared to return a Reactor {@code Mono} or {@code Flux}: their calls start chains. */
    private Set<String> reactorMethods = Set.of();
    /** The auto-commit setting of each pool the file builds in code, by the variable or field holding it. */
    private Map<String, AutoCommitSetting> poolSettings = Map.of();

    private FlowLowering(
            Map<Node, List<String>> sitesByNode, Set<Node> helperCalls, Function<Node, SourceRegion> regions) {
        this.sitesByNode = sitesByNode;
        this.helperCalls = helperCalls;
        this.regions = regions;
    }

    /**
     * @param unit        a parsed compilation unit
     * @param sitesByNode lock-site ids by the call that executes them (identity map)
     * @param helperCalls the calls among them that call a lock helper (their effect is the helper's summary)
     * @param facts       words the front end knows of a method, added to its modifiers: {@code transactional}
     *                    when Spring runs it in a transaction, {@code readOnly} when that writes nothing
     * @param regions     the source region of a node
     * @param leftOut     receives a {@code method-budget} warning for a method that executes a lock site but
     *                    cannot be lowered (its graph exceeds {@link #MAX_NODES} nodes, or it nests too deep)
     * @return one graph per method, constructor, lambda and anonymous-class method with a body, in source order
     */
    public static List<MethodFlow> lower(
            CompilationUnit unit,
            IdentityHashMap<Node, List<String>> sitesByNode,
            Set<Node> helperCalls,
            Function<CallableDeclaration<?>, Set<String>> facts,
            Function<Node, SourceRegion> regions,
            Consumer<Notification> leftOut) {
        return lower(
                unit,
                sitesByNode,
                helperCalls,
                facts,
                regions,
                leftOut,
                (t, n) -> null,
                sql -> false,
                (t, n, a) -> false);
    }

    /**
     * As {@link #lower(CompilationUnit, IdentityHashMap, Set, Function, Function, Consumer)}, with the fields a type
     * inherits from the project's super classes, and told which SQL text only reads.
     *
     * @param inheritedFields the declared type of a field a type inherits ({@code (type, name) -> "Connection"}),
     *                        or null when it inherits none of that name
     * @param readsOnly whether the text of a statement the code runs (a literal, or a concatenation of literals) only
     *                  reads: such a statement is marked {@link FlowEvent#writesNothing()}; the Java front end passes
     *                  {@code core.sql.ReadOnlySql::readsOnly}
     * @param cannotFail whether a call of a project method cannot fail, by receiver type (the caller's own for a call on
     *                   {@code this}), name and arity: a getter or setter; such a call gets no exception edge. The
     *                   Java front end passes {@code JavaScopes::cannotFail}
     */
    public static List<MethodFlow> lower(
            CompilationUnit unit,
            IdentityHashMap<Node, List<String>> sitesByNode,
            Set<Node> helperCalls,
            Function<CallableDeclaration<?>, Set<String>> facts,
            Function<Node, SourceRegion> regions,
            Consumer<Notification> leftOut,
            BiFunction<TypeDeclaration<?>, String, String> inheritedFields,
            Predicate<String> readsOnly,
            CallOutcome cannotFail) {
        FlowLowering lowering = new FlowLowering(sitesByNode, helperCalls, regions);
        lowering.inheritedFields = inheritedFields;
        lowering.cannotFail = cannotFail;
        lowering.readsOnlySql = readsOnly;
        lowering.poolSettings = PoolSettings.of(unit, regions);
        lowering.futureMethods = unit.findAll(MethodDeclaration.class).stream()
                .filter(m -> simpleType(m.getType()).equals("Future"))
                .map(MethodDeclaration::getNameAsString)
                .collect(Collectors.toUnmodifiableSet());
        lowering.enlistsInJta = unit.getImports().stream()
                .map(i -> i.getNameAsString())
                .anyMatch(n -> n.startsWith("io.quarkus.") || n.startsWith("io.agroal."));
        lowering.reactorMethods = unit.findAll(MethodDeclaration.class).stream()
                .filter(m -> REACTOR_TYPES.contains(simpleType(m.getType())))
                .map(MethodDeclaration::getNameAsString)
                .collect(Collectors.toUnmodifiableSet());
        lowering.unpooledInFile = unit.findAll(ObjectCreationExpr.class).stream()
                .anyMatch(o -> API.connectionKind(o.getType().getNameAsString())
                        .filter(k -> k == ConnectionSource.UNPOOLED)
                        .isPresent());
        for (TypeDeclaration<?> t : unit.findAll(TypeDeclaration.class)) {
            lowering.supertypes.putIfAbsent(t.getNameAsString(), directSupertypes(t));
        }
        for (CallableDeclaration<?> c : unit.findAll(CallableDeclaration.class)) {
            BlockStmt body = c instanceof MethodDeclaration m
                    ? m.getBody().orElse(null)
                    : c instanceof ConstructorDeclaration k ? k.getBody() : null;
            if (body == null) {
                continue;
            }
            String type = c.findAncestor(TypeDeclaration.class)
                    .map(TypeDeclaration::getNameAsString)
                    .orElse("");
            String name = c instanceof ConstructorDeclaration ? "<init>" : c.getNameAsString();
            Set<String> mods = new TreeSet<>();
            for (Modifier m : c.getModifiers()) {
                mods.add(m.getKeyword().asString());
            }
            c.getAnnotations().forEach(a -> mods.add("@" + a.getName().getIdentifier()));
            mods.addAll(facts.apply(c)); // the transaction Spring runs it in ("transactional", "readOnly")
            if (c instanceof MethodDeclaration md) {
                mods.addAll(AspectAdvice.modifiers(md)); // @Around advice an annotation selects
            }
            int before = lowering.out.size();
            lowering.rootName = name;
            lowering.lambdaCount = 0;
            try {
                lowering.lowerBody(type, name, c.getParameters(), body, mods, c, regions.apply(c.getName()));
            } catch (RuntimeException | StackOverflowError e) {
                // a body too deep or too odd to lower: left out, so the rules stay silent on it, and said
                while (lowering.out.size() > before) {
                    lowering.out.remove(lowering.out.size() - 1);
                }
                if (sitesByNode.keySet().stream().anyMatch(n -> n.isDescendantOf(c))) {
                    leftOut.accept(new Notification(
                            Severity.WARNING,
                            LockPaths.METHOD_BUDGET,
                            "the lock-state analysis left out " + type + "." + name + "/"
                                    + c.getParameters().size()
                                    + ": "
                                    + (e instanceof StackOverflowError
                                            ? "its statements nest too deep to follow"
                                            : "its control-flow graph exceeds " + MAX_NODES
                                                    + " nodes (finally blocks are copied onto every exit)")
                                    + "; findings that need its paths are not reported",
                            regions.apply(c.getName())));
                }
            }
        }
        return lowering.out;
    }

    private void lowerBody(
            String type,
            String name,
            NodeList<Parameter> parameters,
            Statement body,
            Set<String> mods,
            Node owner,
            SourceRegion region) {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (Parameter p : parameters) {
            names.add(p.getNameAsString());
            types.add(simpleType(p.getType()));
        }
        Builder b = new Builder(type, owner);
        names.forEach(b.locals::add);
        b.params.addAll(names);
        for (int i = 0; i < names.size(); i++) {
            b.types.put(names.get(i), types.get(i));
        }
        List<End> ends = b.statement(body, List.of(new End(MethodFlow.ENTRY, 0)));
        b.link(ends, MethodFlow.EXIT);
        out.add(new MethodFlow(
                type, supertypes.getOrDefault(type, List.of()), name, names, types, mods, b.build(), region));
        for (Runnable nested : b.pendingNested) {
            nested.run();
        }
    }

    /** @return the simple names a type extends and implements, in source order */
    private static List<String> directSupertypes(TypeDeclaration<?> t) {
        List<String> out = new ArrayList<>();
        if (t instanceof ClassOrInterfaceDeclaration c) {
            c.getExtendedTypes().forEach(x -> out.add(x.getNameAsString()));
            c.getImplementedTypes().forEach(x -> out.add(x.getNameAsString()));
        } else if (t instanceof EnumDeclaration e) {
            e.getImplementedTypes().forEach(x -> out.add(x.getNameAsString()));
        } else if (t instanceof RecordDeclaration r) {
            r.getImplementedTypes().forEach(x -> out.add(x.getNameAsString()));
        }
        return out;
    }

    /**
     * @return the declared simple type of a variable a lambda or local class reads from an enclosing method (a local
     *     declared earlier in an enclosing block, or an enclosing method's parameter), or null: a lambda body is
     *     lowered on its own and does not see those declarations
     */
    private static String capturedType(Expression scope) {
        if (!(scope instanceof NameExpr n)) {
            return null;
        }
        String name = n.getNameAsString();
        for (Node cur = n.getParentNode().orElse(null);
                cur != null;
                cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof BlockStmt b) {
                for (Statement st : b.getStatements()) {
                    if (st instanceof ExpressionStmt es && es.getExpression() instanceof VariableDeclarationExpr v) {
                        for (VariableDeclarator d : v.getVariables()) {
                            if (d.getNameAsString().equals(name) && !d.getType().isVarType()) {
                                return simpleType(d.getType());
                            }
                        }
                    }
                }
            }
            if (cur instanceof CallableDeclaration<?> c) {
                for (Parameter p : c.getParameters()) {
                    if (p.getNameAsString().equals(name)) {
                        return simpleType(p.getType());
                    }
                }
            }
            if (cur instanceof TypeDeclaration<?>) {
                return null;
            }
        }
        return null;
    }

    /**
     * @return the text of a string literal, a text block, or a {@code +} concatenation of them; null for anything else
     *     (a variable, a call, a constant of another class)
     */
    private static String literalText(Expression e) {
        if (e instanceof StringLiteralExpr s) {
            return s.getValue();
        }
        if (e instanceof TextBlockLiteralExpr t) {
            return t.getValue();
        }
        if (e instanceof EnclosedExpr en) {
            return literalText(en.getInner());
        }
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
            String left = literalText(b.getLeft());
            String right = left == null ? null : literalText(b.getRight());
            return right == null ? null : left + right;
        }
        return null;
    }

    private static String simpleType(Type t) {
        String s = t.isClassOrInterfaceType() ? t.asClassOrInterfaceType().getNameAsString() : t.asString();
        int dot = s.lastIndexOf('.');
        return dot >= 0 ? s.substring(dot + 1) : s;
    }

    /** A dangling successor slot: {@code next[slot]} of node {@code node} is still to be linked. */
    private record End(int node, int slot) {}

    /** A pending {@code finally} action: a block, or the closes of try-with-resources. */
    /**
     * Code run on every way out of a region: a {@code finally} block, the closes of try-with-resources, or an
     * expression (a Reactor cleanup lambda's body, {@link Expression}); the handler its exceptions go to.
     */
    private record Finally(BlockStmt block, List<String> closes, Expression expression, int handler, int depth) {}

    /**
     * A cancelling Reactor operator whose upstream is being lowered.
     *
     * @param finallyDepth how many finallies were pending at the operator: a cancellation runs the ones above
     * @param handler      the handler the operator's own error signal goes to
     * @param at           the operator's call
     * @param completions  where a cancellation goes on when the operator then completes downstream ({@code take},
     *                     {@code takeUntilOther}); null when it signals an error ({@code timeout})
     */
    private record Canceller(int finallyDepth, int handler, MethodCallExpr at, List<End> completions) {}

    /** What a {@code break} or {@code continue} can leave. */
    private enum JumpKind {
        /** A loop: {@code break} and {@code continue}, labelled or not. */
        LOOP,
        /** A {@code switch}: an unlabelled or labelled {@code break}. */
        SWITCH,
        /** A labelled block: only a {@code break} naming it. */
        BLOCK
    }

    /** A loop, switch or labelled block that {@code break} and {@code continue} can leave. */
    private static final class Jump {
        final String label;
        final JumpKind kind;
        final int finallyDepth;
        final List<End> breaks = new ArrayList<>();
        final List<End> continues = new ArrayList<>();

        Jump(String label, JumpKind kind, int finallyDepth) {
            this.label = label;
            this.kind = kind;
            this.finallyDepth = finallyDepth;
        }
    }

    /** Mutable node under construction. */
    private static final class Draft {
        FlowEvent event;
        final List<Integer> next = new ArrayList<>();
        int onException = -1;
        SourceRegion region;
        boolean inFinally;
        boolean inCatch;
    }

    private final class Builder {
        final String type;
        final List<Draft> nodes = new ArrayList<>();
        final Set<String> locals = new HashSet<>();
        /** The method's parameters: a callback passed in runs when one of them is called. */
        final Set<String> params = new HashSet<>();

        final Map<String, String> types = new HashMap<>();
        final Map<String, String> fieldTypes = new HashMap<>();
        final Deque<Integer> handlers = new ArrayDeque<>();
        final List<Finally> finallies = new ArrayList<>();
        final Deque<Jump> jumps = new ArrayDeque<>();
        int finallyNesting;
        /** Above 0 while a {@code catch} block is lowered. */
        int catchNesting;

        int temps;
        String pendingLabel;
        final List<Runnable> pendingNested = new ArrayList<>();
        /** Temporaries holding the value of a lock statement, whose chained calls still execute it. */
        final Set<String> lockResults = new HashSet<>();
        /** Future variables whose chain is lowered where they are awaited ({@link #awaitedOnce}), by name. */
        final Map<String, Expression> deferred = new HashMap<>();
        /** Above 0 while the arguments of a call on a lock statement are lowered: their calls do not throw. */
        int quiet;
        /** The cancelling operators whose upstream is being lowered, innermost first. */
        final Deque<Canceller> cancellers = new ArrayDeque<>();
        /**
         * True while a cancellation path or a {@code usingWhen} resource is lowered: its steps are not cancelled
         * (again).
         */
        boolean cancelling;
        /** The type whose body this is, for the fields it inherits; null outside a type. */
        TypeDeclaration<?> ownerType;

        Builder(String type, Node owner) {
            this.type = type;
            add(FlowEvent.NOTHING, null); // entry
            add(FlowEvent.NOTHING, null); // exit
            add(FlowEvent.NOTHING, null); // exceptional exit
            handlers.push(MethodFlow.EXCEPTIONAL_EXIT);
            owner.findAncestor(TypeDeclaration.class).ifPresent(t -> {
                ownerType = t;
                for (Object f : t.getFields()) {
                    for (VariableDeclarator v : ((FieldDeclaration) f).getVariables()) {
                        fieldTypes.put(v.getNameAsString(), simpleType(v.getType()));
                    }
                }
            });
        }

        List<FlowNode> build() {
            List<FlowNode> result = new ArrayList<>(nodes.size());
            for (int i = 0; i < nodes.size(); i++) {
                Draft d = nodes.get(i);
                List<Integer> next = new ArrayList<>();
                for (Integer n : d.next) {
                    next.add(n == null ? MethodFlow.EXCEPTIONAL_EXIT : n);
                }
                result.add(new FlowNode(
                        i,
                        d.event,
                        next,
                        d.onException < 0 ? List.of() : List.of(d.onException),
                        d.region,
                        d.inFinally,
                        d.inCatch));
            }
            return result;
        }

        int add(FlowEvent event, Node ast) {
            if (nodes.size() >= MAX_NODES) {
                // finally blocks nested in finally blocks are copied per exit, which can grow exponentially
                throw new IllegalStateException("method graph over " + MAX_NODES + " nodes");
            }
            Draft d = new Draft();
            d.event = event;
            d.region = ast == null ? null : regions.apply(ast);
            d.inFinally = finallyNesting > 0;
            d.inCatch = catchNesting > 0;
            nodes.add(d);
            return nodes.size() - 1;
        }

        /**
         * Adds a node that may throw, linked after {@code ends}; returns its single normal end. An acquisition under a
         * cancelling operator is followed by a choice: go on, or be cancelled ({@link #cancellation}).
         */
        List<End> step(FlowEvent event, Node ast, List<End> ends, boolean throwing) {
            int id = add(event, ast);
            if (throwing) {
                nodes.get(id).onException = handlers.peek();
            }
            link(ends, id);
            boolean acquires = event.kind() == FlowEvent.Kind.LOCK
                    || (event.kind() == FlowEvent.Kind.CALL
                            && event.sites() != null
                            && !event.sites().isEmpty());
            if (acquires && !cancellers.isEmpty() && !cancelling) {
                return cancellation(id);
            }
            return List.of(new End(id, 0));
        }

        /**
         * After node {@code id}, inside the upstream of the innermost cancelling operator: either the chain goes on,
         * or it is cancelled there. The cancellation sets {@link #CANCELLED}, runs the Reactor cleanups between the
         * node and the operator ({@code doFinally}, {@code usingWhen}'s), not the error handlers, and goes on as the
         * operator's error signal ({@code TimeoutException}) to the handlers downstream of it.
         */
        private List<End> cancellation(int id) {
            Canceller c = cancellers.peek();
            int choice = add(FlowEvent.branch(null, false), null);
            link(List.of(new End(id, 0)), choice);
            cancelling = true;
            try {
                List<End> cancelled = step(
                        FlowEvent.assign(CANCELLED + c.at().getNameAsString(), "$const:true"),
                        c.at().getName(),
                        List.of(new End(choice, 1)),
                        false);
                List<End> cleaned = throughFinally(cancelled, c.finallyDepth());
                if (c.completions() != null) {
                    c.completions().addAll(cleaned);
                } else {
                    link(cleaned, c.handler());
                }
            } finally {
                cancelling = false;
            }
            return List.of(new End(choice, 0));
        }

        void link(List<End> ends, int target) {
            for (End e : ends) {
                List<Integer> next = nodes.get(e.node).next;
                while (next.size() <= e.slot) {
                    next.add(null);
                }
                next.set(e.slot, target);
            }
        }

        String temp() {
            return "$" + (temps++);
        }

        // ---------------------------------------------------------------- statements

        List<End> statements(List<Statement> list, List<End> ends) {
            List<End> cur = ends;
            for (Statement s : list) {
                cur = statement(s, cur);
            }
            return cur;
        }

        List<End> statement(Statement s, List<End> ends) {
            if (ends.isEmpty()) {
                return ends; // unreachable code
            }
            if (s instanceof BlockStmt b) {
                return statements(b.getStatements(), ends);
            }
            if (s instanceof ExpressionStmt e) {
                Expression guarded = guardedCondition(e.getExpression());
                if (guarded != null) {
                    // checkState(locked, ..): throws when the condition is false, goes on when it is true
                    Cond c = condition(guarded, ends);
                    link(c.whenFalse, handlers.peek());
                    return c.whenTrue;
                }
                Value v = value(e.getExpression(), ends);
                if (e.getParentNode().orElse(null) instanceof LambdaExpr) {
                    // an expression lambda returns its expression's value (a try-lock helper's boolean)
                    List<End> cur = step(
                            new FlowEvent(FlowEvent.Kind.RETURN, v.path, null, null, null, null, false),
                            e,
                            v.ends,
                            false);
                    link(cur, MethodFlow.EXIT);
                    return List.of();
                }
                return v.ends;
            }
            if (s instanceof IfStmt i) {
                Cond c = condition(i.getCondition(), ends);
                List<End> out = new ArrayList<>(statement(i.getThenStmt(), c.whenTrue));
                out.addAll(i.getElseStmt().map(e -> statement(e, c.whenFalse)).orElse(c.whenFalse));
                return out;
            }
            if (s instanceof WhileStmt w) {
                int head = add(FlowEvent.NOTHING, null);
                link(ends, head);
                Cond c = condition(w.getCondition(), List.of(new End(head, 0)));
                Jump j = enterLoop();
                link(statement(w.getBody(), c.whenTrue), head);
                link(j.continues, head);
                jumps.pop();
                List<End> out = new ArrayList<>(c.whenFalse);
                out.addAll(j.breaks);
                return out;
            }
            if (s instanceof DoStmt d) {
                int head = add(FlowEvent.NOTHING, null);
                link(ends, head);
                Jump j = enterLoop();
                List<End> body = new ArrayList<>(statement(d.getBody(), List.of(new End(head, 0))));
                body.addAll(j.continues);
                jumps.pop();
                Cond c = condition(d.getCondition(), body);
                link(c.whenTrue, head);
                List<End> out = new ArrayList<>(c.whenFalse);
                out.addAll(j.breaks);
                return out;
            }
            if (s instanceof ForStmt f) {
                List<End> cur = ends;
                for (Expression init : f.getInitialization()) {
                    cur = value(init, cur).ends;
                }
                int head = add(FlowEvent.NOTHING, null);
                link(cur, head);
                Cond c = f.getCompare().isPresent()
                        ? condition(f.getCompare().get(), List.of(new End(head, 0)))
                        : new Cond(List.of(new End(head, 0)), List.of());
                Jump j = enterLoop();
                List<End> body = new ArrayList<>(statement(f.getBody(), c.whenTrue));
                body.addAll(j.continues);
                jumps.pop();
                for (Expression u : f.getUpdate()) {
                    body = new ArrayList<>(value(u, body).ends);
                }
                link(body, head);
                List<End> out = new ArrayList<>(c.whenFalse);
                out.addAll(j.breaks);
                return out;
            }
            if (s instanceof ForEachStmt f) {
                List<End> cur = value(f.getIterable(), ends).ends;
                int head = add(FlowEvent.NOTHING, null);
                link(cur, head);
                int test = add(FlowEvent.branch(null, false), f);
                link(List.of(new End(head, 0)), test);
                locals.add(f.getVariableDeclarator().getNameAsString());
                List<End> bodyStart = step(
                        FlowEvent.assign(f.getVariableDeclarator().getNameAsString(), null),
                        null,
                        List.of(new End(test, 0)),
                        false);
                Jump j = enterLoop();
                List<End> body = new ArrayList<>(statement(f.getBody(), bodyStart));
                body.addAll(j.continues);
                jumps.pop();
                link(body, head);
                List<End> out = new ArrayList<>(List.of(new End(test, 1)));
                out.addAll(j.breaks);
                return out;
            }
            if (s instanceof SwitchStmt sw) {
                List<End> cur = value(sw.getSelector(), ends).ends;
                int dispatch = add(FlowEvent.NOTHING, null);
                link(cur, dispatch);
                Jump j = new Jump(takeLabel(), JumpKind.SWITCH, finallies.size());
                jumps.push(j);
                List<End> fall = List.of();
                boolean hasDefault = false;
                int slot = 0;
                for (SwitchEntry entry : sw.getEntries()) {
                    hasDefault |= entry.getLabels().isEmpty();
                    List<End> start = new ArrayList<>(fall);
                    start.add(new End(dispatch, slot++));
                    fall = statements(entry.getStatements(), start);
                    if (entry.getType() != SwitchEntry.Type.STATEMENT_GROUP) {
                        j.breaks.addAll(fall); // arrow cases do not fall through
                        fall = List.of();
                    }
                }
                jumps.pop();
                List<End> out = new ArrayList<>(fall);
                out.addAll(j.breaks);
                if (!hasDefault) {
                    out.add(new End(dispatch, slot));
                }
                return out;
            }
            if (s instanceof TryStmt t) {
                return tryStatement(t, ends);
            }
            if (s instanceof ReturnStmt r) {
                Value v = r.getExpression()
                        .map(e -> e.isNullLiteralExpr() ? new Value(ends, NULL) : value(e, ends))
                        .orElse(new Value(ends, null));
                List<End> cur = step(
                        new FlowEvent(FlowEvent.Kind.RETURN, v.path, null, null, null, null, false), r, v.ends, false);
                link(throughFinally(cur, 0), MethodFlow.EXIT);
                return List.of();
            }
            if (s instanceof ThrowStmt t) {
                List<End> cur = value(t.getExpression(), ends).ends;
                link(cur, handlers.peek());
                return List.of();
            }
            if (s instanceof BreakStmt br) {
                Jump target = target(br.getLabel().map(l -> l.getIdentifier()).orElse(null), false);
                if (target == null) {
                    return List.of();
                }
                target.breaks.addAll(throughFinally(ends, target.finallyDepth));
                return List.of();
            }
            if (s instanceof ContinueStmt co) {
                Jump target = target(co.getLabel().map(l -> l.getIdentifier()).orElse(null), true);
                if (target == null) {
                    return List.of();
                }
                target.continues.addAll(throughFinally(ends, target.finallyDepth));
                return List.of();
            }
            if (s instanceof LabeledStmt l) {
                pendingLabel = l.getLabel().getIdentifier();
                if (!(l.getStatement() instanceof WhileStmt
                        || l.getStatement() instanceof ForStmt
                        || l.getStatement() instanceof ForEachStmt
                        || l.getStatement() instanceof DoStmt
                        || l.getStatement() instanceof SwitchStmt)) {
                    Jump j = new Jump(takeLabel(), JumpKind.BLOCK, finallies.size());
                    jumps.push(j);
                    List<End> out = new ArrayList<>(statement(l.getStatement(), ends));
                    jumps.pop();
                    out.addAll(j.breaks);
                    return out;
                }
                return statement(l.getStatement(), ends);
            }
            if (s instanceof SynchronizedStmt sy) {
                return statement(sy.getBody(), value(sy.getExpression(), ends).ends);
            }
            if (s instanceof ExplicitConstructorInvocationStmt ex) {
                List<End> cur = ends;
                for (Expression a : ex.getArguments()) {
                    cur = value(a, cur).ends;
                }
                return cur;
            }
            return ends; // assert, empty, local class and record declarations: nothing the analysis follows
        }

        private String takeLabel() {
            String l = pendingLabel;
            pendingLabel = null;
            return l;
        }

        private Jump enterLoop() {
            Jump j = new Jump(takeLabel(), JumpKind.LOOP, finallies.size());
            jumps.push(j);
            return j;
        }

        /**
         * The statement a jump leaves (JLS 14.15, 14.16): a labelled jump the statement with that label; an
         * unlabelled {@code continue} the innermost loop; an unlabelled {@code break} the innermost loop or
         * {@code switch}, never a labelled block.
         */
        private Jump target(String label, boolean isContinue) {
            for (Jump j : jumps) {
                boolean fits = label != null
                        ? label.equals(j.label)
                        : isContinue ? j.kind == JumpKind.LOOP : j.kind != JumpKind.BLOCK;
                if (fits) {
                    return j;
                }
            }
            return null;
        }

        /** Runs copies of the pending {@code finally} actions down to {@code depth}, innermost first. */
        private List<End> throughFinally(List<End> ends, int depth) {
            List<End> cur = ends;
            List<Finally> saved = new ArrayList<>(finallies);
            Deque<Integer> savedHandlers = new ArrayDeque<>(handlers);
            for (int i = saved.size() - 1; i >= depth; i--) {
                Finally f = saved.get(i);
                while (finallies.size() > i) {
                    finallies.remove(finallies.size() - 1);
                }
                handlers.clear();
                handlers.push(f.handler);
                cur = runFinally(f, cur);
            }
            finallies.clear();
            finallies.addAll(saved);
            handlers.clear();
            List<Integer> h = new ArrayList<>(savedHandlers);
            for (int i = h.size() - 1; i >= 0; i--) {
                handlers.push(h.get(i));
            }
            return cur;
        }

        private List<End> runFinally(Finally f, List<End> ends) {
            finallyNesting++;
            try {
                if (f.block != null) {
                    return statement(f.block, ends);
                }
                if (f.expression != null) {
                    return value(f.expression, ends).ends;
                }
                List<End> cur = ends;
                for (int i = f.closes.size() - 1; i >= 0; i--) {
                    String[] typed = f.closes.get(i).split(" ", -1);
                    List<End> skipped = List.of();
                    if (typed.length > 1 && !cur.isEmpty()) {
                        // a null resource is not closed (JLS 14.20.3.1): a lock helper's null when it took nothing
                        int test = add(FlowEvent.branch(NULLABLE + typed[1], false), null);
                        link(cur, test);
                        cur = List.of(new End(test, 0));
                        skipped = List.of(new End(test, 1));
                    }
                    cur = typed.length == 1
                            ? step(FlowEvent.on(FlowEvent.Kind.CLOSE, typed[0]), null, cur, false)
                            : step(
                                    new FlowEvent(
                                            FlowEvent.Kind.CALL,
                                            null,
                                            typed[1],
                                            null,
                                            List.of(typed[0] + ".close/0", "*.close/0"),
                                            null,
                                            false),
                                    null,
                                    cur,
                                    false);
                    if (!skipped.isEmpty()) {
                        List<End> both = new ArrayList<>(cur);
                        both.addAll(skipped);
                        cur = both;
                    }
                }
                return cur;
            } finally {
                finallyNesting--;
            }
        }

        private List<End> tryStatement(TryStmt t, List<End> ends) {
            List<End> cur = ends;
            if (t.getFinallyBlock().isPresent()) {
                Finally f = new Finally(t.getFinallyBlock().get(), null, null, handlers.peek(), finallies.size());
                return withFinally(f, cur, e -> catches(t, e));
            }
            return catches(t, cur);
        }

        /** Lowers {@code body} with {@code f} run on every way out of it. */
        private List<End> withFinally(Finally f, List<End> ends, Function<List<End>, List<End>> body) {
            int onThrow = add(FlowEvent.NOTHING, null);
            finallies.add(f);
            handlers.push(onThrow);
            List<End> normal = body.apply(ends);
            handlers.pop();
            finallies.remove(finallies.size() - 1);
            List<End> out = runFinally(f, normal);
            List<End> rethrow = runFinally(f, List.of(new End(onThrow, 0)));
            link(rethrow, f.handler);
            return out;
        }

        private List<End> catches(TryStmt t, List<End> ends) {
            if (t.getCatchClauses().isEmpty()) {
                return resources(t, ends);
            }
            int dispatch = add(FlowEvent.NOTHING, null);
            handlers.push(dispatch);
            List<End> out = new ArrayList<>(resources(t, ends));
            handlers.pop();
            int slot = 0;
            boolean all = false;
            for (CatchClause c : t.getCatchClauses()) {
                String p = c.getParameter().getNameAsString();
                locals.add(p);
                all |= c.getParameter().getType().asString().split("\\|").length > 0
                        && Arrays.stream(c.getParameter().getType().asString().split("\\|"))
                                .map(String::trim)
                                .anyMatch(CATCH_ALL::contains);
                List<End> start = step(FlowEvent.assign(p, null), c, List.of(new End(dispatch, slot++)), false);
                catchNesting++;
                try {
                    out.addAll(statement(c.getBody(), start));
                } finally {
                    catchNesting--;
                }
            }
            if (!all) {
                boolean sqlCaught = t.getCatchClauses().stream()
                        .flatMap(c -> Arrays.stream(
                                c.getParameter().getType().asString().split("\\|")))
                        .map(String::trim)
                        .anyMatch(n -> n.endsWith("SQLException") || n.endsWith("DataAccessException"));
                if (sqlCaught) {
                    int rest =
                            add(new FlowEvent(FlowEvent.Kind.NOT_SQL_ERROR, null, null, null, null, null, false), null);
                    link(List.of(new End(dispatch, slot)), rest);
                    link(List.of(new End(rest, 0)), handlers.peek());
                } else {
                    link(List.of(new End(dispatch, slot)), handlers.peek());
                }
            }
            return out;
        }

        private List<End> resources(TryStmt t, List<End> ends) {
            return resources(t, 0, ends);
        }

        /** Resource {@code i} is opened, then closed on every way out of the rest (JLS 14.20.3). */
        private List<End> resources(TryStmt t, int i, List<End> ends) {
            if (i >= t.getResources().size()) {
                return statement(t.getTryBlock(), ends);
            }
            Expression r = t.getResources().get(i);
            List<End> cur = value(r, ends).ends;
            String name = r instanceof VariableDeclarationExpr v
                    ? v.getVariables().get(0).getNameAsString()
                    : path(r);
            String declared = r instanceof VariableDeclarationExpr v
                    ? simpleType(v.getVariables().get(0).getType())
                    : r instanceof NameExpr n ? types.get(n.getNameAsString()) : null;
            if (name == null
                    || closesNoConnection(declared)
                    || ((declared == null || declared.equals("var")) && madeByStatementFactory(r))) {
                return resources(t, i + 1, cur);
            }
            String close = declared == null || declared.equals("var") || declared.endsWith("Connection")
                    ? name
                    : declared + " " + name;
            Finally f = new Finally(null, List.of(close), null, handlers.peek(), finallies.size());
            return withFinally(f, cur, e -> resources(t, i + 1, e));
        }

        // ---------------------------------------------------------------- expressions

        /** Lowered expression: where control continues and the access path naming its value (or null). */
        private record Value(List<End> ends, String path) {}

        /** Lowered condition: ends reached when it is true and when it is false. */
        private record Cond(List<End> whenTrue, List<End> whenFalse) {}

        Value value(Expression e, List<End> ends) {
            if (ends.isEmpty()) {
                return new Value(ends, null);
            }
            if (e instanceof EnclosedExpr en) {
                return value(en.getInner(), ends);
            }
            if (e instanceof CastExpr c) {
                return value(c.getExpression(), ends);
            }
            if (e instanceof NameExpr n && deferred.containsKey(n.getNameAsString())) {
                return value(deferred.remove(n.getNameAsString()), ends); // the future's chain, where it is awaited
            }
            if (e instanceof NameExpr || e instanceof FieldAccessExpr || e instanceof ThisExpr) {
                return new Value(ends, path(e));
            }
            if (e instanceof BooleanLiteralExpr b) {
                return new Value(ends, "$const:" + b.getValue());
            }
            if (e instanceof VariableDeclarationExpr v) {
                List<End> cur = ends;
                for (VariableDeclarator d : v.getVariables()) {
                    locals.add(d.getNameAsString());
                    types.put(d.getNameAsString(), simpleType(d.getType()));
                    if (d.getInitializer().isPresent() && awaitedOnce(d)) {
                        deferred.put(d.getNameAsString(), d.getInitializer().get());
                        continue;
                    }
                    if (d.getInitializer().isPresent()) {
                        Value init = value(d.getInitializer().get(), cur);
                        if (init.path != null && lockResults.contains(init.path)) {
                            lockResults.add(d.getNameAsString()); // a statement prepared with lock SQL
                        }
                        cur = step(FlowEvent.assign(d.getNameAsString(), init.path), null, init.ends, false);
                    }
                }
                return new Value(cur, null);
            }
            if (e instanceof AssignExpr a) {
                Value v = value(a.getValue(), ends);
                String target = path(a.getTarget());
                if (target == null) {
                    return v;
                }
                String source = a.getOperator() == AssignExpr.Operator.ASSIGN ? v.path : null;
                return new Value(step(FlowEvent.assign(target, source), null, v.ends, false), target);
            }
            if (e instanceof ConditionalExpr c) {
                Cond cond = condition(c.getCondition(), ends);
                String tmp = temp();
                Value a = value(c.getThenExpr(), cond.whenTrue);
                List<End> out = new ArrayList<>(step(FlowEvent.assign(tmp, a.path), null, a.ends, false));
                Value b = value(c.getElseExpr(), cond.whenFalse);
                out.addAll(step(FlowEvent.assign(tmp, b.path), null, b.ends, false));
                return new Value(out, tmp);
            }
            if (e instanceof BinaryExpr b
                    && (b.getOperator() == BinaryExpr.Operator.AND || b.getOperator() == BinaryExpr.Operator.OR)) {
                Cond cond = condition(b, ends);
                String tmp = temp();
                List<End> out = new ArrayList<>(step(FlowEvent.assign(tmp, "$const:true"), null, cond.whenTrue, false));
                out.addAll(step(FlowEvent.assign(tmp, "$const:false"), null, cond.whenFalse, false));
                return new Value(out, tmp);
            }
            if (e instanceof LambdaExpr l) {
                // the value of a lambda names its graph, so that a callee that runs it can be bound to it
                return new Value(ends, FUNCTION + lowerLambda(l));
            }
            if (e instanceof MethodReferenceExpr r) {
                String owner = r.getScope() instanceof ThisExpr
                        ? type
                        : r.getScope().isTypeExpr()
                                ? r.getScope().asTypeExpr().getType().asString()
                                : typeOf(r.getScope());
                if (owner != null && !r.getIdentifier().equals("new")) {
                    int dot = owner.lastIndexOf('.');
                    // the arity is the one the callee calls it with: bound in LockStateAnalysis
                    return new Value(ends, FUNCTION + owner.substring(dot + 1) + "." + r.getIdentifier() + "/?");
                }
                return new Value(ends, null);
            }
            if (e instanceof ObjectCreationExpr o) {
                List<End> cur = ends;
                if (o.getScope().isPresent()) {
                    cur = value(o.getScope().get(), cur).ends;
                }
                List<String> args = new ArrayList<>();
                for (Expression a : o.getArguments()) {
                    Value v = value(a, cur);
                    cur = v.ends;
                    args.add(v.path);
                }
                o.getAnonymousClassBody()
                        .ifPresent(body -> body.forEach(m -> {
                            if (m instanceof MethodDeclaration md
                                    && md.getBody().isPresent()) {
                                lowerNested(
                                        md.getNameAsString(),
                                        md.getParameters(),
                                        md.getBody().get(),
                                        md);
                            }
                        }));
                String typeName = o.getType().getNameAsString();
                List<String> sites = sitesByNode.getOrDefault(o, List.of());
                String tmp = temp();
                FlowEvent call = new FlowEvent(
                        FlowEvent.Kind.CALL,
                        tmp,
                        null,
                        sites,
                        List.of(typeName + ".<init>/" + args.size()),
                        args,
                        false);
                return new Value(step(call, o, cur, !sites.isEmpty()), tmp);
            }
            if (e instanceof MethodCallExpr m) {
                return call(m, ends);
            }
            // other expressions: evaluate the calls inside, in source order
            List<End> cur = ends;
            for (Node child : e.getChildNodes()) {
                if (child instanceof Expression ce) {
                    cur = value(ce, cur).ends;
                }
            }
            return new Value(cur, null);
        }

        /** @return the key of the lambda's graph, {@code Type.method$lambdaN/arity} */
        private String lowerLambda(LambdaExpr l) {
            Statement body = l.getBody();
            // numbered per top-level method, nested lambdas included: a name never grows with the nesting
            String name = rootName + "$lambda" + (lambdaCount++);
            lowerNested(name, l.getParameters(), body, l);
            return type + "." + name + "/" + l.getParameters().size();
        }

        private void lowerNested(String name, NodeList<Parameter> params, Statement body, Node owner) {
            // a nested body is a graph of its own; it is lowered after this one to keep builders separate
            pendingNested.add(() -> lowerBody(type, name, params, body, Set.of(), owner, regions.apply(owner)));
        }

        private Value call(MethodCallExpr m, List<End> ends) {
            Value reactive = reactive(m, ends);
            if (reactive != null) {
                return reactive;
            }
            Value each = forEach(m, ends);
            if (each != null) {
                return each;
            }
            String name = m.getNameAsString();
            List<End> cur = ends;
            String receiver = null;
            String receiverType = null;
            if (m.getScope().isPresent()) {
                Expression scope = m.getScope().get();
                Value r = value(scope, cur);
                cur = r.ends;
                receiver = r.path;
                receiverType = typeOf(scope);
            }
            List<String> args = new ArrayList<>();
            List<String> argTypes = new ArrayList<>();
            // the arguments of a call on the lock statement (bind values, Vert.x's execute(Tuple.of(k))) are evaluated
            // before it runs: their calls cannot fail after the lock is taken
            boolean onLock = receiver != null && lockResults.contains(receiver);
            quiet += onLock ? 1 : 0;
            try {
                for (Expression a : m.getArguments()) {
                    Value v = value(a, cur);
                    cur = v.ends;
                    args.add(v.path);
                    argTypes.add(argumentType(a));
                }
            } finally {
                quiet -= onLock ? 1 : 0;
            }
            List<String> sites = sitesByNode.getOrDefault(m, List.of());
            if (sites.isEmpty()
                    && name.equals("equals")
                    && args.size() == 1
                    && m.getScope().isPresent()
                    && m.getScope().get().toString().matches("(java\\.lang\\.)?Boolean\\.TRUE")) {
                return new Value(cur, args.get(0)); // Boolean.TRUE.equals(x) is x, null being false
            }
            if (sites.isEmpty()
                    && "Optional".equals(scopeName(m))
                    && (name.equals("of") || name.equals("ofNullable"))
                    && args.size() == 1
                    && args.get(0) != null
                    && !args.get(0).startsWith("$const")) {
                // an Optional is its value or null: the lock object in it goes with it, and the caller's
                // isPresent()/isEmpty() is a null test (Optional.empty() below is null)
                return new Value(cur, args.get(0));
            }
            if (sites.isEmpty() && "Optional".equals(scopeName(m)) && name.equals("empty") && args.isEmpty()) {
                return new Value(cur, NULL);
            }
            if (sites.isEmpty()
                    && (name.equals("get") || name.equals("orElseThrow"))
                    && receiver != null
                    && "Optional".equals(receiverType)) {
                return new Value(cur, receiver); // the value itself, present on this path
            }
            if (sites.isEmpty() && "Optional".equals(scopeName(m)) && (name.equals("of") || name.equals("empty"))) {
                if (!args.isEmpty() && args.get(0) != null) {
                    // the value goes with it to whoever receives the Optional: a connection or lock object
                    // handed over, not one this method drops
                    cur = step(
                            new FlowEvent(
                                    FlowEvent.Kind.CALL, temp(), null, null, List.of("Optional.of/1"), args, false),
                            m,
                            cur,
                            false);
                }
                return new Value(cur, "$const:" + name.equals("of")); // present or not: a try helper's outcome
            }
            if (sites.isEmpty() && name.equals("isPresent") && args.isEmpty() && receiver != null) {
                return new Value(cur, receiver);
            }
            if (sites.isEmpty()
                    && args.isEmpty()
                    && TRANSACTION_QUESTIONS.contains(name)
                    && "TransactionSynchronizationManager".equals(scopeName(m))) {
                return new Value(cur, IN_TRANSACTION);
            }
            if (sites.isEmpty() && receiver != null && "AtomicBoolean".equals(receiverType)) {
                // a flag kept in an AtomicBoolean is its boolean: get() reads it, set(v) writes it
                Set<Role> roles = API.roles(receiverType, name, args.size());
                if (roles.contains(Role.CARRIES_RECEIVER) && args.isEmpty()) {
                    return new Value(cur, receiver);
                }
                if (roles.contains(Role.STORES_ARGUMENT) && args.size() == 1) {
                    return new Value(step(FlowEvent.assign(receiver, args.get(0)), m, cur, false), null);
                }
            }
            if (sites.isEmpty()
                    && (name.equals("valueOf") || name.equals("parseBoolean"))
                    && args.size() == 1
                    && "Boolean".equals(scopeName(m))) {
                return new Value(cur, args.get(0));
            }
            if (sites.isEmpty()
                    && receiver != null
                    && lockResults.contains(receiver)
                    && !(name.equals("next") && args.isEmpty())) { // a result set's row test: $next below
                return new Value(cur, receiver); // the rest of the lock statement's chain: bind, map, one, block
            }
            if (sites.isEmpty()
                    && m.getScope().isPresent()
                    && args.size() == 1
                    && lockResults.contains(args.get(0))
                    && m.getScope().get() instanceof NameExpr n
                    && Character.isUpperCase(n.getNameAsString().charAt(0))) {
                return new Value(cur, args.get(0)); // Mono.from(lock statement), Flux.from(...)
            }
            if (sites.isEmpty()
                    && !args.isEmpty()
                    && args.get(0) != null
                    && scopeName(m) != null
                    && API.roles(scopeName(m), name, args.size()).contains(Role.CARRIES_ARGUMENT)) {
                return new Value(cur, args.get(0)); // DSL.using(cfg): the argument's connection
            }
            boolean benign = sites.isEmpty()
                    && !runsCallback(m)
                    && (projectCallCannotFail(m, receiverType, args.size())
                            || API.isLoggerReceiver(
                                    m.getScope().map(Node::toString).orElse(""))
                            || API.isMetricsReceiver(
                                    m.getScope().map(Node::toString).orElse(""))
                            || (API.is(Role.PURE, name) && !API.is(Role.EXECUTES_SQL, name, ON_CONNECTION))
                            || (receiverType != null
                                    && API.roles(receiverType, name, args.size(), JDBC)
                                            .contains(Role.BINDS_PARAMETER))
                            || IN_MEMORY.contains(
                                    receiverType != null
                                            ? receiverType
                                            : m.getScope()
                                                    .map(FlowLowering::capturedType)
                                                    .orElse("")));
            if (!sites.isEmpty() && !isHelperCall(m)) {
                String tmp = temp();
                lockResults.add(tmp);
                String on = receiver != null ? receiver : connectionArgument(m, args);
                FlowEvent lock = new FlowEvent(FlowEvent.Kind.LOCK, tmp, on, sites, null, null, false);
                return new Value(step(lock, m, cur, true), tmp);
            }
            if (sites.isEmpty() && receiver != null && receiverType != null) {
                // an R2DBC connection's transaction, from the catalog
                Set<Role> roles = API.roles(receiverType, name, args.size(), R2DBC);
                if (roles.contains(Role.BEGINS_TRANSACTION)) {
                    return new Value(step(FlowEvent.on(FlowEvent.Kind.BEGIN, receiver), m, cur, true), receiver);
                }
                if (roles.contains(Role.COMMITS) || roles.contains(Role.ROLLS_BACK)) {
                    return new Value(endTransaction(receiver, roles.contains(Role.ROLLS_BACK), m, cur), receiver);
                }
            }
            if (sites.isEmpty()) {
                switch (name) {
                    case "getConnection" -> {
                        if (receiverType != null
                                || (receiver != null && !locals.contains(root(receiver)))
                                || "DriverManager".equals(scopeName(m))) {
                            String staticType = scopeName(m) != null
                                            && !locals.contains(scopeName(m))
                                            && Character.isUpperCase(
                                                    scopeName(m).charAt(0))
                                    ? scopeName(m)
                                    : null;
                            String t = receiverType != null ? receiverType : staticType;
                            Optional<ConnectionKind> known = t == null ? Optional.empty() : cataloguedKind(t);
                            ConnectionKind kind = t == null
                                    ? ConnectionKind.UNKNOWN
                                    : known.isPresent()
                                            ? known.get()
                                            : t.endsWith("Statement") || t.equals("ResultSet")
                                                    ? null
                                                    : ConnectionKind.UNKNOWN;
                            // Spring's DataSourceUtils.getConnection(ds): the thread's transaction connection inside a
                            // Spring transaction, else one borrowed from ds; either way a pooled connection that goes
                            // back to its pool (at releaseConnection, or at the commit) with its session
                            boolean springBorrow = "DataSourceUtils".equals(t)
                                    && m.getArguments().size() == 1;
                            if (springBorrow) {
                                kind = ConnectionKind.POOLED;
                            }
                            if (kind == ConnectionKind.POOLED
                                    && unpooledInFile
                                    && ("DataSource".equals(t) || springBorrow)) {
                                kind = ConnectionKind.UNKNOWN;
                            }
                            if (kind == null) {
                                return new Value(cur, receiver);
                            }
                            String tmp = temp();
                            String holder = receiver == null ? null : LockStateAnalysis.written(receiver);
                            FlowEvent open = new FlowEvent(
                                    FlowEvent.Kind.OPEN,
                                    tmp,
                                    null,
                                    null,
                                    (enlistsInJta || springBorrow) && kind == ConnectionKind.POOLED
                                            ? List.of(kind.name(), ENLISTED)
                                            : List.of(kind.name()),
                                    null,
                                    null,
                                    holder == null ? null : poolSettings.get(holder),
                                    false,
                                    false);
                            return new Value(step(open, m, cur, true), tmp);
                        }
                    }
                    case "close" -> {
                        if (receiver != null
                                && m.getArguments().isEmpty()
                                && receiverType != null
                                && receiverType.endsWith("Connection")) {
                            return new Value(step(FlowEvent.on(FlowEvent.Kind.CLOSE, receiver), m, cur, true), null);
                        }
                    }
                    case "setAutoCommit" -> {
                        if (receiver != null && m.getArguments().size() == 1) {
                            boolean off = m.getArgument(0) instanceof BooleanLiteralExpr b && !b.getValue();
                            return new Value(
                                    step(
                                            new FlowEvent(
                                                    FlowEvent.Kind.AUTOCOMMIT, null, receiver, null, null, null, off),
                                            m,
                                            cur,
                                            true),
                                    null);
                        }
                    }
                    case "commit", "rollback" -> {
                        if (receiver != null && m.getArguments().isEmpty()) {
                            return new Value(endTransaction(receiver, name.equals("rollback"), m, cur), null);
                        }
                    }
                    case "next" -> {
                        if (receiver != null && m.getArguments().isEmpty()) {
                            return new Value(cur, "$next:" + receiver);
                        }
                    }
                    default -> {}
                }
                if (receiver != null
                        && API.is(Role.EXECUTES_SQL, name, ON_CONNECTION)
                        && isJdbcLike(receiverType)
                        && !API.roles(receiverType, name, args.size()).contains(Role.RUNS_IN_TRANSACTION)) {
                    Matcher control = m.getArguments().size() == 1 && m.getArgument(0) instanceof StringLiteralExpr sql
                            ? TRANSACTION_CONTROL.matcher(sql.getValue())
                            : null;
                    if (control != null && control.matches()) {
                        // st.execute("BEGIN"), "COMMIT", "ROLLBACK": the session's transaction block, as SQL
                        String verb = control.group(1).toUpperCase(Locale.ROOT);
                        return new Value(
                                verb.equals("BEGIN") || verb.equals("START")
                                        ? step(FlowEvent.on(FlowEvent.Kind.BEGIN, receiver), m, cur, true)
                                        : endTransaction(
                                                receiver, verb.equals("ROLLBACK") || verb.equals("ABORT"), m, cur),
                                null);
                    }
                    String tmp = temp();
                    boolean lends =
                            API.roles(receiverType, name, args.size()).contains(Role.LENDS_TRANSACTION_CONNECTION)
                                    && args.stream().anyMatch(a -> a != null && a.startsWith(FUNCTION));
                    // jdbc.execute(con -> ..): the callback it runs, for core.flow.CallingContexts
                    String literal = m.getArguments().isEmpty() ? null : literalText(m.getArgument(0));
                    List<End> after = step(
                            new FlowEvent(
                                    FlowEvent.Kind.EXECUTE,
                                    tmp,
                                    receiver,
                                    null,
                                    lends ? List.of(receiverType + "." + name + "/" + args.size()) : null,
                                    lends ? args : null,
                                    null,
                                    null,
                                    false,
                                    literal != null && readsOnlySql.test(literal)),
                            m,
                            cur,
                            true);
                    return new Value(after, API.is(Role.CARRIES_RECEIVER, name) ? receiver : tmp);
                }
                if (receiver != null
                        && API.is(Role.CARRIES_RECEIVER, name)
                        && (isJdbcLike(receiverType) || receiverType == null)
                        && !runsCallback(m)) {
                    return new Value(cur, receiver);
                }
            }
            if (sites.isEmpty() && API.is(Role.RETURNS_CONNECTION, name)) {
                for (int i = 0; i < m.getArguments().size(); i++) {
                    Expression a = m.getArgument(i);
                    if (a instanceof NameExpr n
                            && "Connection".equals(types.get(n.getNameAsString()))
                            && args.get(i) != null) {
                        // DataSourceUtils.releaseConnection(c, ds), DbUtils.closeQuietly(c), a pool's
                        // closeConnection(name, c)
                        return new Value(step(FlowEvent.on(FlowEvent.Kind.CLOSE, args.get(i)), m, cur, false), null);
                    }
                }
            }
            String tmp = temp();
            List<String> callee = new ArrayList<>();
            if (m.getScope().isEmpty() || m.getScope().get() instanceof ThisExpr) {
                callee.add(type + "." + name + "/" + args.size());
            } else if (receiverType != null) {
                callee.add(receiverType + "." + name + "/" + args.size());
            } else if (m.getScope().get() instanceof NameExpr n
                    && Character.isUpperCase(n.getNameAsString().charAt(0))
                    && !locals.contains(n.getNameAsString())) {
                callee.add(n.getNameAsString() + "." + name + "/" + args.size()); // a static call
            }
            callee.add("*." + name + "/" + args.size());
            // a REQUIRES_NEW template commits its callback's writes before it returns: none stays pending here
            boolean ownTransaction = receiverType != null
                    && API.roles(receiverType, name, args.size()).contains(Role.RUNS_IN_TRANSACTION)
                    && TemplatePropagation.requiresNew(m);
            FlowEvent event = new FlowEvent(
                    FlowEvent.Kind.CALL, tmp, receiver, sites, callee, args, argTypes, null, false, ownTransaction);
            return new Value(step(event, m, cur, !benign && quiet == 0), tmp);
        }

        /**
         * @return whether {@code m} calls a project method that cannot fail ({@link CallOutcome}): on {@code this}, or
         *     on a receiver whose declared type is known
         */
        private boolean projectCallCannotFail(MethodCallExpr m, String receiverType, int arity) {
            boolean onThis = m.getScope().isEmpty() || m.getScope().get() instanceof ThisExpr;
            String on = onThis ? type : receiverType;
            return on != null && cannotFail.cannotFail(on, m.getNameAsString(), arity);
        }

        /** A commit or rollback of {@code connection}'s transaction: an {@code END} event that can throw. */
        private List<End> endTransaction(String connection, boolean rollback, Node at, List<End> ends) {
            return step(
                    new FlowEvent(FlowEvent.Kind.END, null, connection, null, null, null, rollback), at, ends, true);
        }

        // ---------------------------------------------------------------- Reactor (and RxJava) chains

        /**
         * Lowers a Reactor operator whose lambdas run as part of the chain, in the order the chain runs them
         * when subscribed (Reactor reference, "Which operator do I need?"): {@code Mono/Flux.usingWhen(resource,
         * r -> body, cleanup)} as try-with-resources over the resource (a {@code ConnectionFactory.create()} opens a
         * connection; {@code Connection::close} or a cleanup lambda runs on every way out); {@code flatMap} and its
         * kin, {@code Mono.defer}/{@code fromCallable}, with their lambda's body inlined after the upstream;
         * {@code doFinally} as a finally; {@code onErrorResume}, {@code onErrorReturn}, {@code onErrorComplete} and
         * {@code doOnError} as a catch of the upstream's failures. Only chains recognisably Reactor's (a
         * {@code Mono}/{@code Flux} root, or an operator only Reactor has) and expression lambdas (or
         * {@code { return expr; }}) are lowered so; everything else is an ordinary call.
         *
         * @return the lowered value, or null when {@code m} is not such an operator
         */
        private Value reactive(MethodCallExpr m, List<End> ends) {
            String name = m.getNameAsString();
            Expression scope = m.getScope().orElse(null);
            boolean staticReactor = scope instanceof NameExpr n
                    && REACTOR_TYPES.contains(n.getNameAsString())
                    && !locals.contains(n.getNameAsString());
            if (staticReactor
                    && (name.equals("usingWhen") || name.equals("using"))
                    && m.getArguments().size() >= 3) {
                return usingWhen(m, ends);
            }
            if (staticReactor && name.equals("error") && m.getArguments().size() == 1) {
                // Mono.error(e): a publisher that only signals an error, as the chain that returns it does
                List<End> cur = value(m.getArgument(0), ends).ends;
                mayFail(m, cur);
                return new Value(List.of(), null);
            }
            if (staticReactor && CONSTANT_SOURCES.contains(name)) {
                List<End> cur = ends;
                for (Expression a : m.getArguments()) {
                    cur = value(a, cur).ends;
                }
                return new Value(cur, null); // Mono.empty(), Mono.just(x): nothing runs, nothing fails
            }
            if (staticReactor
                    && INLINED_SOURCES.contains(name)
                    && m.getArguments().size() == 1) {
                Expression body = inlineBody(m.getArgument(0), 0);
                return body == null ? null : new Value(value(body, ends).ends, null);
            }
            boolean future = scope != null && vertxFuture(scope);
            if (scope == null || !(future || reactorChain(scope))) {
                return null;
            }
            if ((future ? FUTURE_INLINED : INLINED_OPERATORS).contains(name)
                    && m.getArguments().size() == 1) {
                Expression function = asLambda(m.getArgument(0));
                Expression body = inlineBody(function, 1);
                if (body == null) {
                    return null;
                }
                Value up = value(scope, ends);
                List<End> cur = bindParameter((LambdaExpr) function, up.path, up.ends);
                int before = nodes.size();
                Value v = value(body, cur);
                if (nodes.size() == before && up.path != null && lockResults.contains(up.path)) {
                    // the body only reads the lock statement's own result (r -> Mono.from(r.map(row -> ..))): the
                    // lock's outcome, not work that can fail once it is held
                    return v;
                }
                if (!publishesWork(body)) {
                    return v; // Mono.just(x), Mono.empty(), Mono.error(e): nothing that fails after the body
                }
                return new Value(mayFail(m, v.ends), v.path); // an error signal downstream of the body
            }
            if (!future && RETRY_OPERATORS.contains(name) && m.getArguments().size() <= 1) {
                return retry(m, scope, ends);
            }
            if (!future && RELAYING_OPERATORS.contains(name) && !cancels(m) && relaysOnly(m)) {
                Value up = value(scope, ends);
                return new Value(up.ends, null);
            }
            if (!future && cancels(m)) {
                List<End> completions = name.equals("timeout") ? null : new ArrayList<>();
                cancellers.push(new Canceller(finallies.size(), handlers.peek(), m, completions));
                Value up;
                try {
                    up = upstream(scope, ends, m);
                } finally {
                    cancellers.pop();
                }
                if (completions == null || completions.isEmpty()) {
                    return up;
                }
                List<End> out = new ArrayList<>(up.ends);
                out.addAll(completions); // take and takeUntilOther complete downstream after cancelling upstream
                return new Value(out, up.path);
            }
            if (!future && SEQUENCE_OPERATORS.contains(name) && m.getArguments().size() <= 1) {
                // upstream, then the argument publisher, which can fail (an error signal goes downstream)
                Value up = value(scope, ends);
                if (m.getArguments().isEmpty()) {
                    return new Value(up.ends, null); // then(): the upstream's completion, nothing that can fail
                }
                Expression a = m.getArgument(0);
                boolean fails = a instanceof MethodCallExpr err
                        && err.getNameAsString().equals("error")
                        && err.getScope().orElse(null) instanceof NameExpr n
                        && REACTOR_TYPES.contains(n.getNameAsString());
                List<End> cur = value(a, up.ends).ends;
                if (!fails
                        && a instanceof MethodCallExpr handled
                        && (ERROR_HANDLERS.contains(handled.getNameAsString())
                                || handled.getNameAsString().equals("doFinally"))) {
                    return new Value(cur, null); // the argument's own error handling says how it fails
                }
                List<End> after = mayFail(m, cur);
                return new Value(fails ? List.of() : after, null); // Mono.error(e) never completes
            }
            if ((future ? FUTURE_FINALLY.contains(name) : name.equals("doFinally"))
                    && m.getArguments().size() == 1) {
                Expression body = inlineBody(m.getArgument(0), 1);
                if (body == null && future) {
                    body = inlineBody(m.getArgument(0), 0); // eventually(() -> ..) of Vert.x 5
                }
                if (body == null) {
                    return null;
                }
                Finally f = new Finally(null, null, body, handlers.peek(), finallies.size());
                String[] path = new String[1];
                List<End> out = withFinally(f, ends, e -> {
                    Value up = upstream(scope, e, m);
                    path[0] = up.path;
                    return up.ends;
                });
                return new Value(out, path[0]);
            }
            if ((future ? FUTURE_RECOVERY : ERROR_HANDLERS).contains(name)) {
                Expression handler = m.getArguments().isEmpty()
                        ? null
                        : m.getArguments().get(m.getArguments().size() - 1);
                Expression body = handler instanceof LambdaExpr ? inlineBody(handler, 1) : null;
                if (handler instanceof LambdaExpr && body == null) {
                    return null;
                }
                int dispatch = add(FlowEvent.NOTHING, null);
                handlers.push(dispatch);
                Value up;
                try {
                    up = upstream(scope, ends, m);
                } finally {
                    handlers.pop();
                }
                List<End> out = new ArrayList<>(up.ends);
                List<End> caught = List.of(new End(dispatch, 0));
                if (body != null) {
                    caught = bindParameter((LambdaExpr) handler, null, caught);
                    caught = value(body, caught).ends;
                }
                if (name.equals("doOnError") || name.equals("onFailure")) {
                    link(caught, handlers.peek()); // it only looks: the error goes on downstream
                } else {
                    out.addAll(caught);
                }
                return new Value(out, up.path);
            }
            return null;
        }

        /**
         * @return false when every value the expression can have is a constant publisher ({@code Mono.just(x)},
         *     {@code Mono.empty()}) or an error ({@code Mono.error(e)}, whose own node signals it): such a publisher
         *     adds no failure once it is returned; true for anything else
         */
        private boolean publishesWork(Expression e) {
            Expression x = e;
            while (x instanceof EnclosedExpr p) {
                x = p.getInner();
            }
            if (x instanceof ConditionalExpr c) {
                return publishesWork(c.getThenExpr()) || publishesWork(c.getElseExpr());
            }
            return !(x instanceof MethodCallExpr call
                    && call.getScope().orElse(null) instanceof NameExpr n
                    && REACTOR_TYPES.contains(n.getNameAsString())
                    && !locals.contains(n.getNameAsString())
                    && (CONSTANT_SOURCES.contains(call.getNameAsString())
                            || call.getNameAsString().equals("error")));
        }

        /**
         * @param m    a call that runs lock SQL with no receiver: a query helper of the project ({@code run(c, sql)})
         * @param args the paths of its arguments
         * @return the one argument declared a connection ({@code Connection}, {@code SqlConnection}), which the helper
         *     runs the SQL on; else null
         */
        private String connectionArgument(MethodCallExpr m, List<String> args) {
            if (m.getScope().isPresent() && !(m.getScope().get() instanceof ThisExpr)) {
                return null;
            }
            String found = null;
            for (int i = 0; i < m.getArguments().size() && i < args.size(); i++) {
                String t = m.getArgument(i) instanceof NameExpr n ? types.get(n.getNameAsString()) : null;
                if (t != null && t.endsWith("Connection") && args.get(i) != null) {
                    if (found != null) {
                        return null;
                    }
                    found = args.get(i);
                }
            }
            return found;
        }

        /** @return true when the operator's arguments are values, not functions or publishers it would run */
        private static boolean relaysOnly(MethodCallExpr m) {
            return m.getArguments().stream()
                    .noneMatch(a -> a instanceof LambdaExpr
                            || a instanceof MethodReferenceExpr
                            || (a instanceof MethodCallExpr c && c.getScope().isPresent()));
        }

        /**
         * @return true for {@code timeout(..)}, {@code takeUntilOther(..)} and {@code take(duration)}: operators
         *     that may cancel their upstream before it completes ({@code take(n)} of a count is not one: it cancels
         *     only after n elements, which a lock's chain rarely emits)
         */
        private boolean cancels(MethodCallExpr m) {
            String name = m.getNameAsString();
            if (!CANCELLING_OPERATORS.contains(name) || m.getArguments().isEmpty()) {
                return false;
            }
            Expression a = m.getArgument(0);
            return !name.equals("take")
                    || a.toString().startsWith("Duration.")
                    || (a instanceof NameExpr n && "Duration".equals(types.get(n.getNameAsString())));
        }

        /**
         * {@code upstream.retry(..)} and {@code retryWhen(..)}: the upstream from a join node at its start; its error
         * signal goes to a choice that either subscribes again (back to the start) or gives up (the error goes on).
         */
        private Value retry(MethodCallExpr m, Expression scope, List<End> ends) {
            int start = add(FlowEvent.NOTHING, m);
            link(ends, start);
            int dispatch = add(FlowEvent.branch(null, false), m);
            handlers.push(dispatch);
            Value up;
            try {
                up = upstream(scope, List.of(new End(start, 0)), m);
            } finally {
                handlers.pop();
            }
            link(List.of(new End(dispatch, 0)), start); // subscribe again
            link(List.of(new End(dispatch, 1)), handlers.peek()); // retries exhausted: the error goes downstream
            return new Value(up.ends, up.path);
        }

        /**
         * Lowers the upstream of an error operator: when it is opaque (a publisher variable or a call that lowers
         * to nothing, {@code work.onErrorResume(..)}), a node that can fail stands for the error it may signal, so
         * the handler is reachable.
         */
        private Value upstream(Expression scope, List<End> ends, Node at) {
            int before = nodes.size();
            Value up = value(scope, ends);
            if (nodes.size() != before) {
                return up;
            }
            return new Value(mayFail(at, up.ends), up.path);
        }

        /** @return the end of a node that does nothing but may fail: a publisher's possible error signal */
        private List<End> mayFail(Node at, List<End> ends) {
            return step(
                    new FlowEvent(FlowEvent.Kind.CALL, temp(), null, null, List.of(), List.of(), false),
                    at,
                    ends,
                    true);
        }

        /** @return the connection kind the catalog gives a connection source's type: pooled, unpooled, or unknown */
        private static Optional<ConnectionKind> cataloguedKind(String type) {
            return API.connectionKind(type)
                    .map(k -> k == ConnectionSource.UNPOOLED ? ConnectionKind.UNPOOLED : ConnectionKind.POOLED);
        }

        /** {@code Mono/Flux.usingWhen(resource, r -> body, cleanup, ...)} (and {@code using}) as try-with-resources. */
        private Value usingWhen(MethodCallExpr m, List<End> ends) {
            Expression resource = m.getArgument(0);
            Expression body = inlineBody(m.getArgument(1), 1);
            Expression cleanup = m.getArgument(2);
            boolean closes = cleanup instanceof MethodReferenceExpr r
                    && r.getIdentifier().equals("close");
            Expression cleanupBody = cleanup instanceof LambdaExpr ? inlineBody(cleanup, 1) : null;
            if (body == null || (!closes && cleanupBody == null)) {
                return null;
            }
            if (m.getNameAsString().equals("using")) {
                resource = inlineBody(resource, 0); // using(() -> resource, ...): the supplier's value
                if (resource == null) {
                    return null;
                }
            }
            List<End> cur = ends;
            String res;
            boolean opened = resource instanceof MethodCallExpr c
                    && c.getNameAsString().equals("create")
                    && c.getArguments().isEmpty()
                    && c.getScope().isPresent();
            if (opened) {
                MethodCallExpr create = (MethodCallExpr) resource;
                // ConnectionFactory.create(): a connection of its own, from a pool when the factory is one
                cur = value(create.getScope().get(), cur).ends;
                String factory = typeOf(create.getScope().get());
                ConnectionKind kind = factory == null
                        ? ConnectionKind.UNKNOWN
                        : cataloguedKind(factory).orElse(ConnectionKind.UNKNOWN);
                res = temp();
                cur = step(
                        new FlowEvent(FlowEvent.Kind.OPEN, res, null, null, List.of(kind.name()), null, false),
                        create,
                        cur,
                        true);
            } else {
                // the resource's own lock: Reactor arms the cleanup as the resource is emitted, so a cancellation
                // after it runs the cleanup (the lowering cannot place it between the two)
                boolean was = cancelling;
                cancelling = true;
                Value r;
                try {
                    r = value(resource, cur);
                } finally {
                    cancelling = was;
                }
                cur = r.ends;
                res = r.path;
            }
            LambdaExpr use = (LambdaExpr) m.getArgument(1);
            String p = use.getParameters().get(0).getNameAsString();
            cur = bindParameter(use, res, cur);
            if (opened) {
                types.put(p, "Connection"); // the R2DBC connection the factory made
            }
            if (cleanup instanceof LambdaExpr l && !l.getParameters().isEmpty()) {
                cur = bindParameter(l, res, cur);
            }
            Finally f = closes
                    ? new Finally(null, List.of(p), null, handlers.peek(), finallies.size())
                    : new Finally(null, null, cleanupBody, handlers.peek(), finallies.size());
            List<End> out = withFinally(f, cur, e -> value(body, e).ends);
            return new Value(out, null);
        }

        /**
         * @return the expression a lambda of {@code arity} parameters evaluates (its expression body, or the
         *     expression of a body that is one {@code return}), else null
         */
        /**
         * Lowers {@code items.forEach(x -> body)} (and {@code forEachOrdered}) as the loop it is: the JDK runs the
         * lambda at once, on this thread, zero or more times, so a lock or unlock in it is this method's
         * (a session-level unlock in it runs inside this method's transaction). Only expression lambdas of one
         * parameter, or two ({@code Map.forEach}), on a receiver that is not a Reactor chain; else null.
         */
        private Value forEach(MethodCallExpr m, List<End> ends) {
            String name = m.getNameAsString();
            if (!(name.equals("forEach") || name.equals("forEachOrdered"))
                    || m.getArguments().size() != 1
                    || m.getScope().isEmpty()
                    || reactorChain(m.getScope().get())) {
                return null;
            }
            Expression body = inlineBody(m.getArgument(0), 1);
            if (body == null) {
                body = inlineBody(m.getArgument(0), 2); // Map.forEach((k, v) -> ..)
            }
            if (body == null) {
                return null;
            }
            LambdaExpr l = (LambdaExpr) m.getArgument(0);
            List<End> cur = value(m.getScope().get(), ends).ends;
            int head = add(FlowEvent.NOTHING, null);
            link(cur, head);
            int test = add(FlowEvent.branch(null, false), m);
            link(List.of(new End(head, 0)), test);
            List<End> start = bindParameter(l, null, List.of(new End(test, 0)));
            link(value(body, start).ends, head);
            return new Value(List.of(new End(test, 1)), null);
        }

        /**
         * @param e an operator's argument
         * @return a method reference on a receiver ({@code this::recompute}, {@code repo::save}) as the lambda it
         *     stands for, {@code $ref -> this.recompute($ref)}, placed at the reference (so its call is reported
         *     there); any other argument as it is
         */
        private Expression asLambda(Expression e) {
            if (!(e instanceof MethodReferenceExpr r)
                    || r.getIdentifier().equals("new")
                    || r.getScope().isTypeExpr()
                    || r.getTypeArguments().isPresent()) {
                return e;
            }
            MethodCallExpr call = new MethodCallExpr(
                    r.getScope().clone(), r.getIdentifier(), new NodeList<>(new NameExpr(REFERENCE_PARAMETER)));
            LambdaExpr lambda = new LambdaExpr(
                    new NodeList<>(new Parameter(new UnknownType(), REFERENCE_PARAMETER)),
                    new ExpressionStmt(call),
                    false);
            r.getRange().ifPresent(range -> {
                call.setRange(range);
                call.getName().setRange(range);
                lambda.setRange(range);
            });
            return lambda;
        }

        private Expression inlineBody(Expression e, int arity) {
            if (!(e instanceof LambdaExpr l) || l.getParameters().size() != arity) {
                return null;
            }
            if (l.getExpressionBody().isPresent()) {
                return l.getExpressionBody().get();
            }
            if (l.getBody() instanceof BlockStmt b
                    && b.getStatements().size() == 1
                    && b.getStatement(0) instanceof ReturnStmt r
                    && r.getExpression().isPresent()) {
                return r.getExpression().get();
            }
            return null;
        }

        /** Makes the lambda's parameters locals of this method, the first one bound to {@code value}. */
        private List<End> bindParameter(LambdaExpr l, String value, List<End> ends) {
            for (Parameter p : l.getParameters()) {
                locals.add(p.getNameAsString());
                types.remove(p.getNameAsString());
            }
            if (l.getParameters().isEmpty()) {
                return ends;
            }
            if (value != null && lockResults.contains(value)) {
                lockResults.add(l.getParameters().get(0).getNameAsString()); // the lock's result, read further
            }
            return step(FlowEvent.assign(l.getParameters().get(0).getNameAsString(), value), null, ends, false);
        }

        /** @return whether the chain under {@code e} is recognisably Reactor's */
        /**
         * Whether a local {@code Future} variable holds a Vert.x chain that the code uses once, as the start of a
         * further operator ({@code work.eventually(..)}): the chain's failure reaches that operator, so the chain is
         * lowered there, in the operator's scope, rather than where the variable is declared.
         * A {@code Mono} or {@code Flux} variable of a Reactor chain used once is lowered where it is used: nothing
         * runs before the chain it joins is subscribed.
         */
        private boolean awaitedOnce(VariableDeclarator d) {
            String type = simpleType(d.getType());
            boolean publisher = REACTOR_TYPES.contains(type)
                    && reactorChain(d.getInitializer().get());
            if (!publisher
                    && (!"Future".equals(type)
                            || !vertxFuture(d.getInitializer().get()))) {
                return false;
            }
            Node body = d.findAncestor(LambdaExpr.class)
                    .map(Node.class::cast)
                    .or(() -> d.findAncestor(CallableDeclaration.class).map(Node.class::cast))
                    .orElse(null);
            if (body == null) {
                return false;
            }
            List<NameExpr> uses =
                    body.findAll(NameExpr.class, n -> n.getNameAsString().equals(d.getNameAsString()));
            if (publisher) {
                return uses.size() == 1; // a Mono or Flux runs when the chain it is used in is subscribed: there
            }
            return uses.size() == 1
                    && uses.get(0).getParentNode().orElse(null) instanceof MethodCallExpr call
                    && call.getScope().orElse(null) == uses.get(0)
                    && (FUTURE_FINALLY.contains(call.getNameAsString())
                            || FUTURE_RECOVERY.contains(call.getNameAsString())
                            || FUTURE_INLINED.contains(call.getNameAsString()));
        }

        /**
         * @return whether {@code e} is a Vert.x {@code Future}: a query's {@code execute(..)} on a
         *     {@code preparedQuery}/{@code query} (Vert.x SQL client), a static {@code Future.*} factory, a variable
         *     declared {@code Future}, or an operator applied to one of these
         */
        private boolean vertxFuture(Expression e) {
            Expression cur = e;
            for (int depth = 0; depth < 64; depth++) {
                if (cur instanceof MethodCallExpr c) {
                    Expression scope = c.getScope().orElse(null);
                    if ((c.getNameAsString().equals("execute")
                                    || c.getNameAsString().equals("executeBatch"))
                            && scope instanceof MethodCallExpr q
                            && (q.getNameAsString().equals("preparedQuery")
                                    || q.getNameAsString().equals("query"))) {
                        return true;
                    }
                    if (scope instanceof NameExpr n
                            && n.getNameAsString().equals("Future")
                            && !locals.contains("Future")) {
                        return true;
                    }
                    if (scope == null || scope instanceof ThisExpr) {
                        return futureMethods.contains(c.getNameAsString()); // a method of this file returning one
                    }
                    cur = scope;
                } else if (cur instanceof NameExpr n) {
                    return "Future".equals(types.get(n.getNameAsString()));
                } else if (cur instanceof EnclosedExpr en) {
                    cur = en.getInner();
                } else {
                    return false;
                }
            }
            return false;
        }

        private boolean reactorChain(Expression e) {
            Expression cur = e;
            for (int depth = 0; depth < 64; depth++) {
                if (cur instanceof MethodCallExpr c) {
                    if (REACTOR_ONLY_OPERATORS.contains(c.getNameAsString())) {
                        return true;
                    }
                    if (c.getScope().isEmpty() || c.getScope().get() instanceof ThisExpr) {
                        return reactorMethods.contains(c.getNameAsString()); // a method of this file returning one
                    }
                    cur = c.getScope().get();
                } else if (cur instanceof NameExpr n) {
                    String t = types.get(n.getNameAsString());
                    return (REACTOR_TYPES.contains(n.getNameAsString()) && !locals.contains(n.getNameAsString()))
                            || (t != null && REACTOR_TYPES.contains(t));
                } else if (cur instanceof EnclosedExpr en) {
                    cur = en.getInner();
                } else {
                    return false;
                }
            }
            return false;
        }

        /**
         * @return true for the call of a functional interface's method on a parameter of such a type
         *     ({@code work.get()}, {@code action.run()}): it runs the caller's lambda, which can throw and do
         *     anything, however pure the method's name
         */
        private boolean runsCallback(MethodCallExpr m) {
            if (!(m.getScope().orElse(null) instanceof NameExpr n) || !CALLBACK_METHODS.contains(m.getNameAsString())) {
                return false;
            }
            String name = n.getNameAsString();
            String t = params.contains(name) ? types.get(name) : locals.contains(name) ? null : captured(m, name);
            return t != null && FUNCTIONAL.contains(t);
        }

        /**
         * @return the simple type of the parameter {@code name} of a method or constructor enclosing {@code use}, which
         *     a lambda's body captures ({@code tx.execute(status -> work.get())}); null when none declares it
         */
        private static String captured(Node use, String name) {
            for (Node n = use.getParentNode().orElse(null);
                    n != null;
                    n = n.getParentNode().orElse(null)) {
                if (n instanceof CallableDeclaration<?> c) {
                    return c.getParameterByName(name)
                            .map(p -> simpleType(p.getType()))
                            .orElse(null);
                }
            }
            return null;
        }

        /**
         * A {@code var} resource initialised by a call that returns a statement, query or result set of a
         * connection ({@code try (var ps = c.prepareStatement(..))}): its close leaves the connection open.
         * The lowering aliases such a value to its connection, so closing it as a connection would end the
         * session on paper.
         */
        private boolean madeByStatementFactory(Expression resource) {
            return resource instanceof VariableDeclarationExpr v
                    && v.getVariables().get(0).getInitializer().orElse(null) instanceof MethodCallExpr m
                    && (API.is(Role.PREPARES_SQL, m.getNameAsString())
                            || API.is(Role.CARRIES_RECEIVER, m.getNameAsString()));
        }

        /**
         * The condition a guard call throws on when false: a {@link Role#GUARDS} method of the catalog
         * called on its class or statically imported ({@code Preconditions.checkState(c, ..)}), or a method
         * of this file whose body is only {@code if (!c) throw ..} on its first parameter. Null for any
         * other expression.
         */
        private Expression guardedCondition(Expression e) {
            if (!(e instanceof MethodCallExpr m) || m.getArguments().isEmpty()) {
                return null;
            }
            String name = m.getNameAsString();
            String scope = m.getScope().map(Node::toString).orElse("");
            boolean library = API.is(Role.GUARDS, name)
                    && (scope.isEmpty()
                            ? m.findCompilationUnit()
                                    .map(u -> u.getImports().stream()
                                            .anyMatch(i -> i.isStatic()
                                                    && (i.getNameAsString().endsWith("." + name) || i.isAsterisk())))
                                    .orElse(false)
                            : Character.isUpperCase(scope.charAt(scope.lastIndexOf('.') + 1)));
            if (library) {
                return m.getArgument(0);
            }
            return scope.isEmpty() || scope.equals("this") ? localGuard(m) : null;
        }

        /** The first argument of a call of a method of this file that only throws when its first parameter is false. */
        private static Expression localGuard(MethodCallExpr m) {
            // an unqualified call reaches a method of an enclosing type: their members, not the whole file
            for (Node cur = m.getParentNode().orElse(null);
                    cur != null;
                    cur = cur.getParentNode().orElse(null)) {
                if (!(cur instanceof TypeDeclaration<?> type)) {
                    continue;
                }
                for (MethodDeclaration md : type.getMethodsByName(m.getNameAsString())) {
                    if (md.getParameters().size() == m.getArguments().size() && throwsUnlessFirstParameter(md)) {
                        return m.getArgument(0);
                    }
                }
            }
            return null;
        }

        /** A method whose body is only {@code if (!p) throw ..;} on its first parameter, a {@code boolean}. */
        private static boolean throwsUnlessFirstParameter(MethodDeclaration md) {
            return md.getBody().isPresent()
                    && md.getBody().get().getStatements().size() == 1
                    && md.getParameter(0).getType().asString().equals("boolean")
                    && md.getBody().get().getStatement(0) instanceof IfStmt i
                    && i.getElseStmt().isEmpty()
                    && i.getCondition() instanceof UnaryExpr u
                    && u.getOperator() == UnaryExpr.Operator.LOGICAL_COMPLEMENT
                    && u.getExpression().toString().equals(md.getParameter(0).getNameAsString())
                    && throwsOnly(i.getThenStmt());
        }

        private static boolean throwsOnly(Statement s) {
            if (s instanceof ThrowStmt) {
                return true;
            }
            return s instanceof BlockStmt b
                    && b.getStatements().isNonEmpty()
                    && b.getStatements()
                            .getLast()
                            .filter(x -> x instanceof ThrowStmt)
                            .isPresent();
        }

        /** @return true for a declared type whose close() leaves its connection open (statements, result sets) */
        private boolean closesNoConnection(String declared) {
            return declared != null
                    && (declared.endsWith("Statement")
                            || declared.endsWith("ResultSet")
                            || declared.endsWith("RowSet"));
        }

        private boolean isHelperCall(MethodCallExpr m) {
            return helperCalls.contains(m);
        }

        private String scopeName(MethodCallExpr m) {
            return m.getScope()
                    .filter(Expression::isNameExpr)
                    .map(s -> s.asNameExpr().getNameAsString())
                    .orElse(null);
        }

        private boolean isJdbcLike(String t) {
            return t == null
                    || t.endsWith("Statement")
                    || t.equals("Connection")
                    || t.endsWith("Template")
                    || t.equals("ResultSet")
                    || t.equals("EntityManager")
                    || t.equals("Session")
                    || t.equals("Handle");
        }

        /**
         * @return true when a name that is not a local is a field of this type, its own or inherited from a
         *     super class of the project (then remembered with its simple type)
         */
        private boolean field(String name) {
            if (fieldTypes.containsKey(name)) {
                return true;
            }
            String inherited = ownerType == null ? null : inheritedFields.apply(ownerType, name);
            if (inherited == null) {
                return false;
            }
            int dot = inherited.lastIndexOf('.');
            int generic = inherited.indexOf('<');
            String simple = generic >= 0 ? inherited.substring(0, generic) : inherited;
            simple = simple.substring(simple.lastIndexOf('.') + 1);
            fieldTypes.put(name, dot < 0 && generic < 0 ? inherited : simple);
            return true;
        }

        /**
         * @return the static type of a call's argument where the code shows it: a literal's, a created object's, a
         *     cast's, a declared variable's or field's; null otherwise (the {@code null} literal, a call's result)
         */
        String argumentType(Expression a) {
            if (a instanceof IntegerLiteralExpr) {
                return "int";
            }
            if (a instanceof LongLiteralExpr) {
                return "long";
            }
            if (a instanceof StringLiteralExpr || a instanceof TextBlockLiteralExpr) {
                return "String";
            }
            if (a instanceof BooleanLiteralExpr) {
                return "boolean";
            }
            if (a instanceof ObjectCreationExpr o) {
                return o.getType().getNameAsString();
            }
            return typeOf(a);
        }

        String typeOf(Expression scope) {
            if (scope instanceof NameExpr n) {
                String name = n.getNameAsString();
                if (types.containsKey(name)) {
                    return types.get(name);
                }
                if (!locals.contains(name) && field(name)) {
                    return fieldTypes.get(name);
                }
                return null;
            }
            if (scope instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr) {
                return fieldTypes.get(f.getNameAsString());
            }
            if (scope instanceof EnclosedExpr e) {
                return typeOf(e.getInner());
            }
            if (scope instanceof CastExpr c) {
                return simpleType(c.getType());
            }
            return null;
        }

        /** @return the access path an expression names, or null */
        String path(Expression e) {
            if (e instanceof NameExpr n) {
                String name = n.getNameAsString();
                return locals.contains(name) ? name : field(name) ? "this." + name : name;
            }
            if (e instanceof ThisExpr) {
                return "this";
            }
            if (e instanceof FieldAccessExpr f) {
                String scope = path(f.getScope());
                return scope == null ? null : scope + "." + f.getNameAsString();
            }
            if (e instanceof EnclosedExpr en) {
                return path(en.getInner());
            }
            if (e instanceof CastExpr c) {
                return path(c.getExpression());
            }
            return null;
        }

        private String root(String path) {
            int dot = path.indexOf('.');
            return dot < 0 ? path : path.substring(0, dot);
        }

        @SuppressWarnings("ArgumentSelectionDefectChecker") // a negation swaps the two branch lists on purpose
        Cond condition(Expression e, List<End> ends) {
            if (ends.isEmpty()) {
                return new Cond(List.of(), List.of());
            }
            if (e instanceof EnclosedExpr en) {
                return condition(en.getInner(), ends);
            }
            if (e instanceof UnaryExpr u && u.getOperator() == UnaryExpr.Operator.LOGICAL_COMPLEMENT) {
                Cond c = condition(u.getExpression(), ends);
                return new Cond(c.whenFalse, c.whenTrue);
            }
            if (e instanceof BinaryExpr b) {
                switch (b.getOperator()) {
                    case AND -> {
                        Cond l = condition(b.getLeft(), ends);
                        Cond r = condition(b.getRight(), l.whenTrue);
                        List<End> f = new ArrayList<>(l.whenFalse);
                        f.addAll(r.whenFalse);
                        return new Cond(r.whenTrue, f);
                    }
                    case OR -> {
                        Cond l = condition(b.getLeft(), ends);
                        Cond r = condition(b.getRight(), l.whenFalse);
                        List<End> t = new ArrayList<>(l.whenTrue);
                        t.addAll(r.whenTrue);
                        return new Cond(t, r.whenFalse);
                    }
                    case EQUALS, NOT_EQUALS -> {
                        boolean eq = b.getOperator() == BinaryExpr.Operator.EQUALS;
                        Expression other = b.getRight().isNullLiteralExpr()
                                ? b.getLeft()
                                : b.getLeft().isNullLiteralExpr() ? b.getRight() : null;
                        String tested = other == null ? null : path(other);
                        if (tested != null) {
                            // x != null: decided when x names a lock object or connection that holds a lock
                            int test = add(FlowEvent.branch("$nonnull:" + tested, eq), e);
                            link(ends, test);
                            return new Cond(List.of(new End(test, 0)), List.of(new End(test, 1)));
                        }
                        if (b.getRight() instanceof BooleanLiteralExpr lit) {
                            Cond c = condition(b.getLeft(), ends);
                            return lit.getValue() == eq ? c : new Cond(c.whenFalse, c.whenTrue);
                        }
                        if (b.getLeft() instanceof BooleanLiteralExpr lit) {
                            Cond c = condition(b.getRight(), ends);
                            return lit.getValue() == eq ? c : new Cond(c.whenFalse, c.whenTrue);
                        }
                    }
                    default -> {}
                }
            }
            if (e instanceof MethodCallExpr m
                    && m.getNameAsString().equals("isEmpty")
                    && m.getArguments().isEmpty()
                    && m.getScope().isPresent()
                    && m.getScope().get() instanceof NameExpr
                    && "Optional".equals(types.get(((NameExpr) m.getScope().get()).getNameAsString()))) {
                Cond c = condition(m.getScope().get(), ends);
                return new Cond(c.whenFalse, c.whenTrue);
            }
            if (e instanceof MethodCallExpr m
                    && m.getNameAsString().equals("equals")
                    && m.getArguments().size() == 1
                    && m.getScope().isPresent()
                    && m.getScope().get().toString().matches("(java\\.lang\\.)?Boolean\\.(TRUE|FALSE)")) {
                Cond c = condition(m.getArgument(0), ends);
                return m.getScope().get().toString().endsWith("TRUE") ? c : new Cond(c.whenFalse, c.whenTrue);
            }
            Value v = value(e, ends);
            if (v.ends.isEmpty()) {
                return new Cond(List.of(), List.of());
            }
            String stable = propertyTest(e);
            int test =
                    add(stable == null ? FlowEvent.branch(v.path, false) : FlowEvent.branch(v.path, stable, false), e);
            link(v.ends, test);
            return new Cond(List.of(new End(test, 0)), List.of(new End(test, 1)));
        }

        /**
         * @return {@code props.isLockEnabled()} for a test of a property with no arguments ({@code is..}, {@code has..})
         *     on a local, parameter or field path or on {@code this}; else null
         */
        private String propertyTest(Expression e) {
            if (!(e instanceof MethodCallExpr m)
                    || !m.getArguments().isEmpty()
                    || !PROPERTY_TEST.matcher(m.getNameAsString()).matches()) {
                return null;
            }
            String scope = m.getScope().isEmpty() ? "this" : path(m.getScope().get());
            return scope == null ? null : scope + "." + m.getNameAsString() + "()";
        }
    }
}
