package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.ApiFamily;
import io.github.pgadvisorylint.core.api.ConnectionSource;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.model.ConnectionOrigin;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.TransactionBoundary;
import io.github.pgadvisorylint.core.model.TransactionState;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Tells the transaction and connection context of a Java lock site (RULES.md unpinned-session-lock,
 * xact-lock-outside-transaction; F3: a transaction-level lock taken in autocommit ends with its
 * statement; F13: a pooled connection's session outlives {@code close()}). Transaction sources:
 * Spring's declarative transactions as they apply through the proxy ({@link SpringTransactions}:
 * self-calls, private methods, class-level annotations, propagation), transaction callbacks
 * ({@code TransactionTemplate}, jOOQ, JDBI), a Spring Data {@code @Query} method's own annotation,
 * {@code setAutoCommit(false)} on the connection, and the implicit transaction of a multi-statement
 * string (F17). Autocommit is claimed only when the code shows it (a connection obtained in the
 * method without {@code setAutoCommit(false)}, a scheduler or start-up entry point without a
 * transaction, a self-call from one); otherwise the state is unknown and rules stay silent. A call of a
 * lock helper whose transaction its callers decide gets the call's context ({@link #atHelperCall}).
 */
final class ExecutionContextAnalyzer {

    /** Callbacks pinned to one connection, per-call templates, pools and handles. */
    private static final ApiCatalog API = ApiCatalog.standard();

    private final SourceFile file;
    private final Set<String> pooledTypes;
    private final SpringTransactions spring;
    /** Per callable of the file, its calls that set autocommit, found once (a long method has many lock calls). */
    private final Map<Node, List<MethodCallExpr>> autoCommitCalls = new IdentityHashMap<>();

    ExecutionContextAnalyzer(SourceFile file) {
        this(file, Set.of());
    }

    /**
     * @param file        the file
     * @param pooledTypes simple names of types the configuration declares pooled per call
     */
    ExecutionContextAnalyzer(SourceFile file, Set<String> pooledTypes) {
        this.file = file;
        this.pooledTypes = pooledTypes;
        this.spring = new SpringTransactions(this::region);
    }

    /**
     * @param exec           the executing call (null for declarations and Spring Data queries)
     * @param api            the execution API
     * @param ownTransaction why the SQL string runs as one transaction of its own whatever the connection's mode
     *                       (further statements after the lock's one, F17; a {@code DO} block), or null
     * @return the context; {@link ExecutionContext#UNKNOWN} when nothing can be told
     */
    ExecutionContext analyze(MethodCallExpr exec, ExecutionApi api, String ownTransaction) {
        return analyze(exec, exec, api, ownTransaction);
    }

    /**
     * @param holder         the node that holds the SQL: for a Spring Data {@code @Query}, the repository method
     * @param exec           the executing call (null for declarations and Spring Data queries)
     * @param api            the execution API
     * @param ownTransaction why the SQL string runs as one transaction of its own whatever the connection's mode
     *                       (further statements after the lock's one, F17; a {@code DO} block), or null
     * @return the context; {@link ExecutionContext#UNKNOWN} when nothing can be told
     */
    ExecutionContext analyze(Node holder, MethodCallExpr exec, ExecutionApi api, String ownTransaction) {
        if ((api == ExecutionApi.SPRING_DATA_QUERY || api == ExecutionApi.SPRING_DATA_PROCEDURE)
                && holder instanceof MethodDeclaration repositoryMethod) {
            SpringTransactions.Tx tx = spring.repositoryMethod(repositoryMethod);
            // outside a transaction each repository call runs on a connection its EntityManager borrows from the pool
            // and returns when the call ends (Spring Data JPA reference, "Transactionality"; a shared EntityManager
            // with no transaction closes after each operation); a caller's transaction, when there is one, is the
            // calling context's to say
            return new ExecutionContext(
                    tx.state(),
                    tx.evidence(),
                    tx.region(),
                    ConnectionScope.POOLED_PER_CALL,
                    "a Spring Data repository query outside a transaction borrows a pooled connection for the call"
                            + " and returns it afterwards",
                    tx.boundary());
        }
        if (exec == null || api == ExecutionApi.DECLARATION || api == ExecutionApi.SPRING_DATA_QUERY) {
            return ExecutionContext.UNKNOWN;
        }
        SpringTransactions.Tx tx = transaction(exec, api);
        if (ownTransaction != null && tx.state() != TransactionState.IN_TRANSACTION) {
            tx = new SpringTransactions.Tx(
                    TransactionState.IN_TRANSACTION, ownTransaction, null, TransactionBoundary.OWN);
        }
        Conn conn = connection(exec, api);
        return new ExecutionContext(
                tx.state(), tx.evidence(), tx.region(), conn.scope, conn.evidence, tx.boundary(), origin(exec, api));
    }

    /** @return where the lock's connection goes, as {@link ConnectionOrigins} reads it; or null */
    private ConnectionOrigin origin(MethodCallExpr exec, ExecutionApi api) {
        String connection = connectionVariable(exec, api);
        ConnectionOrigin opened = ConnectionOrigins.of(exec, connection, this::region);
        if (opened != null) {
            return opened;
        }
        boolean jdbc = api == ExecutionApi.JDBC_STATEMENT
                || api == ExecutionApi.JDBC_PREPARED_STATEMENT
                || api == ExecutionApi.JDBC_CALLABLE_STATEMENT;
        return jdbc && connection == null ? null : ConnectionOrigins.bean(exec, connection, this::region);
    }

    /**
     * The context of a call of a lock helper, from the context of the helper's operation: a helper
     * whose transaction its callers decide (a Spring Data query method, a method over a Spring template
     * without a boundary of its own, a {@code REQUIRED} boundary holding only the lock) gets this call's
     * transaction; any other keeps its own.
     *
     * @param call  the call of the helper
     * @param inner the operation's context inside the helper
     * @return the context at the call; its boundary is {@link TransactionBoundary#FROM_CALL} when this call decided it
     */
    ExecutionContext atHelperCall(Node call, ExecutionContext inner) {
        TransactionBoundary b = inner.boundary();
        if (b == TransactionBoundary.OWN && inner.transaction() == TransactionState.UNKNOWN) {
            LambdaExpr callback = callbackHandedOn(call);
            if (callback != null) {
                // the helper runs on the handle or connection of the transaction callback around this call
                // (jdbi.useTransaction(h -> lock(h, id))): that transaction is the helper's
                SpringTransactions.Tx tx = spring.at(call, false, true);
                if (tx.state() == TransactionState.IN_TRANSACTION
                        && tx.region() != null
                        && callback.getParentNode()
                                .map(this::region)
                                .filter(tx.region()::equals)
                                .isPresent()) {
                    return with(inner, tx.state(), tx.evidence(), tx.region(), tx.boundary());
                }
            }
        }
        if (b == TransactionBoundary.OWN) {
            return inner;
        }
        if (b == TransactionBoundary.FROM_CALL) {
            return with(
                    inner,
                    inner.transaction(),
                    inner.transactionEvidence(),
                    inner.transactionRegion(),
                    TransactionBoundary.OWN);
        }
        SpringTransactions.Tx caller = spring.at(call, true, true);
        String what = call instanceof MethodCallExpr m
                ? m.getScope().map(s -> s + ".").orElse("") + m.getNameAsString() + "(...)"
                : "the helper";
        if (b == TransactionBoundary.JOINS_CALLER || b == TransactionBoundary.JOINS_CALLER_UNLESS_INHERITED) {
            if (caller.state() == TransactionState.UNKNOWN) {
                return with(
                        inner,
                        TransactionState.UNKNOWN,
                        inner.transactionEvidence(),
                        inner.transactionRegion(),
                        caller.boundary());
            }
            if (b == TransactionBoundary.JOINS_CALLER_UNLESS_INHERITED
                    && caller.state() != TransactionState.IN_TRANSACTION) {
                // the helper may start a transaction of its own (an inherited @Transactional this file cannot see)
                return with(
                        inner,
                        TransactionState.UNKNOWN,
                        inner.transactionEvidence(),
                        inner.transactionRegion(),
                        TransactionBoundary.OWN);
            }
            if (caller.boundary() == TransactionBoundary.NEW_UNLESS_CALLER) {
                // a template callback holding only this call ends before the work after it in the caller's method
                // (unless that method's own callers have a transaction, which no caller of a non-helper tells):
                // judged here, as a callback of a template with no caller in sight is
                boolean ends = caller.state() == TransactionState.ENDS_BEFORE_WORK;
                return with(
                        inner,
                        caller.state(),
                        ends ? what + " joins the caller's transaction; " + caller.evidence() : caller.evidence(),
                        caller.region(),
                        ends ? TransactionBoundary.FROM_CALL : TransactionBoundary.NEW_UNLESS_CALLER);
            }
            return with(
                    inner,
                    caller.state(),
                    what + " joins the caller's transaction; " + caller.evidence(),
                    caller.region(),
                    TransactionBoundary.FROM_CALL);
        }
        // NEW_UNLESS_CALLER: the helper's own transaction lasts past it only inside the caller's
        switch (caller.state()) {
            case AUTOCOMMIT:
                return with(
                        inner,
                        TransactionState.ENDS_BEFORE_WORK,
                        inner.transactionEvidence() + "; the caller has none: " + caller.evidence(),
                        inner.transactionRegion(),
                        TransactionBoundary.FROM_CALL);
            case ENDS_BEFORE_WORK:
                return with(
                        inner,
                        TransactionState.ENDS_BEFORE_WORK,
                        what + " joins the caller's transaction; " + caller.evidence(),
                        caller.region(),
                        TransactionBoundary.FROM_CALL);
            case IN_TRANSACTION:
                return caller.boundary() == TransactionBoundary.NEW_UNLESS_CALLER
                        ? inner
                        : with(
                                inner,
                                TransactionState.IN_TRANSACTION,
                                what + " joins the caller's transaction; " + caller.evidence(),
                                caller.region(),
                                TransactionBoundary.OWN);
            default:
                return caller.boundary() == TransactionBoundary.JOINS_CALLER
                                || caller.boundary() == TransactionBoundary.JOINS_CALLER_UNLESS_INHERITED
                        ? inner
                        : with(
                                inner,
                                inner.transaction(),
                                inner.transactionEvidence(),
                                inner.transactionRegion(),
                                TransactionBoundary.OWN);
        }
    }

    /**
     * A call of a JDBI SQL object's declared statement through an object made by {@code jdbi.onDemand(Dao.class)}
     * (a field or local of the class set to it), outside a transaction and outside any lambda given to a {@code Jdbi}
     * (whose handle the object would share): JDBI takes a handle, a pooled connection, for the call and closes it
     * after (JDBI reference, "On-demand"), so the call's connection is {@link ConnectionScope#POOLED_PER_CALL}.
     *
     * @param call    the call of the SQL object's method
     * @param context the call's context as {@link #atHelperCall} gives it
     * @return the context with that connection scope, or {@code context} unchanged
     */
    ExecutionContext atSqlObjectCall(Node call, ExecutionContext context) {
        if (context.transaction() == TransactionState.IN_TRANSACTION
                || !(call instanceof MethodCallExpr m)
                || m.getScope().isEmpty()) {
            return context;
        }
        Expression scope = m.getScope().get();
        String name = scope instanceof NameExpr n
                ? n.getNameAsString()
                : scope instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr ? f.getNameAsString() : null;
        if (name == null || !onDemand(name, call)) {
            return context;
        }
        for (Node at = call.getParentNode().orElse(null);
                at != null;
                at = at.getParentNode().orElse(null)) {
            if (at instanceof LambdaExpr l
                    && l.getParentNode().orElse(null) instanceof MethodCallExpr outer
                    && outer.getScope()
                            .map(o -> "Jdbi".equals(JavaScopes.declaredType(o.toString(), outer)))
                            .orElse(false)) {
                return context; // inside a Jdbi callback: the object shares its handle
            }
        }
        return new ExecutionContext(
                context.transaction(),
                context.transactionEvidence(),
                context.transactionRegion(),
                ConnectionScope.POOLED_PER_CALL,
                "a JDBI onDemand SQL object takes a handle (a pooled connection) for each call and closes it after",
                context.boundary(),
                context.origin());
    }

    /** @return true when {@code name} is a local or field of the enclosing class set to {@code x.onDemand(T.class)} */
    private static boolean onDemand(String name, Node use) {
        Optional<VariableDeclarator> local = JavaScopes.local(name, use);
        if (local.isPresent()) {
            return local.get()
                    .getInitializer()
                    .map(ExecutionContextAnalyzer::madeOnDemand)
                    .orElse(false);
        }
        ClassOrInterfaceDeclaration type =
                use.findAncestor(ClassOrInterfaceDeclaration.class).orElse(null);
        if (type == null) {
            return false;
        }
        for (FieldDeclaration f : type.getFields()) {
            for (VariableDeclarator v : f.getVariables()) {
                if (v.getNameAsString().equals(name)
                        && v.getInitializer()
                                .map(ExecutionContextAnalyzer::madeOnDemand)
                                .orElse(false)) {
                    return true;
                }
            }
        }
        return type.findAll(AssignExpr.class).stream()
                .anyMatch(a -> ((a.getTarget() instanceof NameExpr n
                                        && n.getNameAsString().equals(name))
                                || (a.getTarget() instanceof FieldAccessExpr fa
                                        && fa.getScope() instanceof ThisExpr
                                        && fa.getNameAsString().equals(name)))
                        && madeOnDemand(a.getValue()));
    }

    private static boolean madeOnDemand(Expression e) {
        return e instanceof MethodCallExpr c
                && c.getNameAsString().equals("onDemand")
                && c.getArguments().size() == 1
                && c.getArgument(0) instanceof ClassExpr;
    }

    private static ExecutionContext with(
            ExecutionContext c,
            TransactionState state,
            String evidence,
            SourceRegion region,
            TransactionBoundary boundary) {
        return new ExecutionContext(
                state, evidence, region, c.connection(), c.connectionEvidence(), boundary, c.origin());
    }

    private record Conn(ConnectionScope scope, String evidence) {}

    /**
     * Spring's view first (callbacks, annotations that apply, entry points and callers for statements
     * that follow Spring's transaction); then, for plain JDBC, the connection's autocommit.
     */
    private SpringTransactions.Tx transaction(MethodCallExpr exec, ExecutionApi api) {
        SpringTransactions.Tx tx = spring.at(exec, true, isTemplate(api, exec));
        if (tx.state() != TransactionState.UNKNOWN) {
            return tx;
        }
        String connection = connectionVariable(exec, api);
        if (connection != null) {
            return jdbcAutoCommit(exec, connection);
        }
        if (api == ExecutionApi.VERTX_SQL) {
            return vertxPool(exec);
        }
        return tx;
    }

    /**
     * A query run on a Vert.x pool itself ({@code pool.preparedQuery(sql).execute(..)}) borrows a connection for
     * that one query, in autocommit: no transaction of a caller reaches it (Vert.x SQL client documentation,
     * "Using connections" and "Using transactions": a transaction needs {@code withTransaction} or
     * {@code begin()} on a connection).
     */
    private SpringTransactions.Tx vertxPool(MethodCallExpr exec) {
        String type = ApiSurfaces.receiverType(exec);
        if (type == null) {
            return vertxConnection(exec);
        }
        if (!API.source(ApiFamily.VERTX, type)
                .filter(ConnectionSource.PER_CALL::equals)
                .isPresent()) {
            return SpringTransactions.Tx.UNKNOWN;
        }
        return new SpringTransactions.Tx(
                TransactionState.AUTOCOMMIT,
                exec.getScope().map(Node::toString).orElse("the pool") + "." + exec.getNameAsString()
                        + "(..) runs the statement alone on a connection of the Vert.x " + type
                        + ", in autocommit",
                region(exec),
                TransactionBoundary.OWN);
    }

    /**
     * A query on the connection {@code pool.withConnection(conn -> ..)} lends its callback: Vert.x connections run in
     * autocommit until {@code begin()} (Vert.x SQL client documentation, "Using transactions"), so with no
     * {@code begin()} on it in the callback, each statement is its own transaction.
     */
    private SpringTransactions.Tx vertxConnection(MethodCallExpr exec) {
        if (!(exec.getScope().orElse(null) instanceof NameExpr conn)) {
            return SpringTransactions.Tx.UNKNOWN;
        }
        Optional<LambdaExpr> lambda = exec.findAncestor(LambdaExpr.class);
        if (lambda.isEmpty()
                || lambda.get().getParameters().size() != 1
                || !lambda.get().getParameter(0).getNameAsString().equals(conn.getNameAsString())
                || !(lambda.get().getParentNode().orElse(null) instanceof MethodCallExpr lender)
                || !lender.getNameAsString().equals("withConnection")
                || lender.getScope().isEmpty()) {
            return SpringTransactions.Tx.UNKNOWN;
        }
        String pool = JavaScopes.receiverTypeName(lender.getScope().get());
        // a begin() on it, or a call it is handed to (which may begin one), may open a transaction
        boolean begins = lambda.get().findAll(MethodCallExpr.class).stream()
                .anyMatch(m -> (m.getNameAsString().equals("begin")
                                && m.getScope()
                                        .map(sc -> sc.toString().equals(conn.getNameAsString()))
                                        .orElse(false))
                        || m.getArguments().stream()
                                .anyMatch(a -> a instanceof NameExpr n
                                        && n.getNameAsString().equals(conn.getNameAsString())));
        if (begins
                || pool == null
                || !API.source(ApiFamily.VERTX, pool)
                        .filter(ConnectionSource.PER_CALL::equals)
                        .isPresent()) {
            return SpringTransactions.Tx.UNKNOWN;
        }
        return new SpringTransactions.Tx(
                TransactionState.AUTOCOMMIT,
                "the connection " + lender.getScope().get() + ".withConnection(..) lends runs in autocommit: no " + conn
                        + ".begin() in the callback",
                region(lender),
                TransactionBoundary.OWN);
    }

    /** The JDBC connection variable a statement runs on: {@code conn.prepareStatement(..)}, or {@code st} from {@code conn.createStatement()}. */
    private static String connectionVariable(MethodCallExpr exec, ExecutionApi api) {
        Expression scope = exec.getScope().orElse(null);
        if (scope == null) {
            return null;
        }
        if (api == ExecutionApi.JDBC_PREPARED_STATEMENT || api == ExecutionApi.JDBC_CALLABLE_STATEMENT) {
            return scope instanceof NameExpr n ? n.getNameAsString() : null;
        }
        if (api != ExecutionApi.JDBC_STATEMENT) {
            return null;
        }
        if (scope instanceof MethodCallExpr m && m.getNameAsString().equals("createStatement")) {
            return m.getScope()
                    .filter(NameExpr.class::isInstance)
                    .map(Object::toString)
                    .orElse(null);
        }
        if (scope instanceof NameExpr n) {
            Optional<VariableDeclarator> v = JavaScopes.local(n.getNameAsString(), exec);
            if (v.isPresent()
                    && v.get().getInitializer().orElse(null) instanceof MethodCallExpr init
                    && (init.getNameAsString().equals("createStatement")
                            || init.getNameAsString().equals("prepareStatement"))) {
                return init.getScope()
                        .filter(NameExpr.class::isInstance)
                        .map(Object::toString)
                        .orElse(null);
            }
        }
        return null;
    }

    private SpringTransactions.Tx jdbcAutoCommit(MethodCallExpr exec, String connection) {
        Node scope = JavaScopes.callableOf(exec);
        int at = offset(exec);
        if (scope != null) {
            List<MethodCallExpr> setters = autoCommitCalls.computeIfAbsent(
                    scope,
                    sc -> JavaScopes.calls(sc).stream()
                            .filter(m -> API.is(Role.SETS_AUTOCOMMIT, m.getNameAsString()))
                            .toList());
            for (MethodCallExpr m : setters) {
                if (offset(m) < at
                        && m.getScope()
                                .map(s -> s.toString().equals(connection))
                                .orElse(false)
                        && m.getArguments().size() == 1
                        && m.getArgument(0) instanceof BooleanLiteralExpr b
                        && !b.getValue()) {
                    return new SpringTransactions.Tx(
                            TransactionState.IN_TRANSACTION,
                            "setAutoCommit(false) on " + connection,
                            region(m),
                            TransactionBoundary.OWN);
                }
            }
        }
        Optional<VariableDeclarator> v = JavaScopes.local(connection, exec);
        if (v.isPresent()
                && v.get().getInitializer().orElse(null) instanceof MethodCallExpr init
                && API.is(Role.BORROWS_CONNECTION, init.getNameAsString())) {
            return new SpringTransactions.Tx(
                    TransactionState.AUTOCOMMIT,
                    connection + " from " + init.getScope().map(s -> s + ".").orElse("")
                            + "getConnection() keeps JDBC's default autocommit: no setAutoCommit(false) before the lock",
                    region(v.get()),
                    TransactionBoundary.OWN);
        }
        return SpringTransactions.Tx.UNKNOWN;
    }

    private static boolean isTemplate(ExecutionApi api, MethodCallExpr exec) {
        return (api == ExecutionApi.SPRING_JDBC_TEMPLATE && isSpringTemplate(exec))
                || (api == ExecutionApi.JPA_NATIVE_QUERY
                        && importsAny(exec, "jakarta.persistence.", "javax.persistence.", "org.hibernate."))
                || (api == ExecutionApi.OTHER_CALL && isMapperCall(exec));
    }

    /**
     * True when the SQL is handed to a method of a MyBatis mapper: the receiver's declared type is named
     * {@code *Mapper} and is imported from a {@code mapper}/{@code mappers}/{@code dao} package, or the file
     * imports MyBatis ({@code org.apache.ibatis.}, {@code org.mybatis.}) or MyBatis-Plus
     * ({@code com.baomidou.}). MyBatis-Spring's {@code SqlSessionTemplate} runs a mapper's statement in the
     * Spring transaction of the caller, and in a transaction of its own, committed when the statement ends,
     * when there is none (MyBatis-Spring reference, "Transactions"). Not when the method opens its own
     * {@code SqlSession} ({@code openSession(..)}): plain MyBatis, whose session is its own transaction.
     */
    private static boolean isMapperCall(MethodCallExpr exec) {
        String simple = exec.getScope().map(JavaScopes::receiverTypeName).orElse(null);
        if (exec.findAncestor(CallableDeclaration.class)
                .map(m -> m.findFirst(
                                MethodCallExpr.class, c -> c.getNameAsString().equals("openSession"))
                        .isPresent())
                .orElse(false)) {
            return false; // a SqlSession the method opens itself: plain MyBatis, its own transaction
        }
        if (simple == null
                || !simple.endsWith("Mapper")
                || simple.equals("ObjectMapper")
                || simple.endsWith("RowMapper")) {
            return false;
        }
        return importsAny(exec, "org.apache.ibatis.", "org.mybatis.", "com.baomidou.")
                || exec.findCompilationUnit()
                        .map(cu -> cu.getImports().stream().anyMatch(i -> {
                            String q = i.getNameAsString();
                            return q.endsWith("." + simple)
                                    && (q.contains(".mapper.") || q.contains(".mappers.") || q.contains(".dao."));
                        }))
                        .orElse(false);
    }

    /** Spring's per-call templates; other libraries' classes of the same name (Flyway's JdbcTemplate wraps one connection) are not. */
    private static final Set<String> SPRING_TEMPLATES = API.types(ApiFamily.SPRING_JDBC, ConnectionSource.PER_CALL);

    /**
     * True when the receiver's declared type is one of Spring's JDBC templates by the file's imports:
     * {@code org.springframework.jdbc.core}, {@code .namedparam}, {@code .simple}. A receiver whose type
     * cannot be seen (a getter) counts when the file imports one of them.
     */
    private static boolean isSpringTemplate(MethodCallExpr exec) {
        Expression scope = exec.getScope().orElse(null);
        String type = null;
        if (scope instanceof NameExpr n) {
            type = JavaScopes.declaredType(n.getNameAsString(), exec);
        } else if (scope instanceof FieldAccessExpr f && f.getScope().isThisExpr()) {
            type = JavaScopes.declaredType(f.getNameAsString(), exec);
        }
        if (type != null) {
            String simple = type.replaceAll("<.*", "");
            simple = simple.substring(simple.lastIndexOf('.') + 1);
            if (type.startsWith("org.springframework.jdbc.")) {
                return true;
            }
            return SPRING_TEMPLATES.contains(simple) && importsSpringJdbc(exec, simple);
        }
        return SPRING_TEMPLATES.stream().anyMatch(t -> importsSpringJdbc(exec, t));
    }

    private static boolean importsSpringJdbc(Node n, String simpleType) {
        return n.findCompilationUnit()
                .map(cu -> cu.getImports().stream().anyMatch(i -> {
                    String q = i.getNameAsString();
                    return q.startsWith("org.springframework.jdbc.")
                            && (i.isAsterisk() || q.endsWith("." + simpleType));
                }))
                .orElse(false);
    }

    private static boolean importsAny(Node n, String... prefixes) {
        return n.findCompilationUnit()
                .map(cu -> cu.getImports().stream()
                        .anyMatch(i -> Arrays.stream(prefixes)
                                .anyMatch(p -> i.getNameAsString().startsWith(p))))
                .orElse(false);
    }

    private Conn connection(MethodCallExpr exec, ExecutionApi api) {
        if (!pooledTypes.isEmpty() && exec.getScope().orElse(null) instanceof NameExpr receiver) {
            String type = JavaScopes.declaredType(receiver.getNameAsString(), exec);
            if (type != null && pooledTypes.contains(JavaScopes.simpleTypeName(type))) {
                return new Conn(
                        ConnectionScope.POOLED_PER_CALL,
                        receiver + " is a " + JavaScopes.simpleTypeName(type)
                                + ", configured (pooledApiTypes) to borrow a pooled connection for each call");
            }
        }
        for (Node cur = exec.getParentNode().orElse(null);
                cur != null;
                cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof LambdaExpr lambda
                    && lambda.getParentNode().orElse(null) instanceof MethodCallExpr call) {
                String name = call.getNameAsString();
                boolean connectionCallback = name.equals("execute")
                        && (lambda.toString().contains("Connection")
                                || call.getArguments().stream()
                                        .anyMatch(a -> a.toString().contains("ConnectionCallback")));
                if (connectionCallback || API.is(Role.PINS_CONNECTION, name)) {
                    return new Conn(ConnectionScope.PINNED, name + "(...) runs the callback on one connection");
                }
            }
            if (cur instanceof TypeDeclaration<?>) {
                break;
            }
        }
        switch (api) {
            case JDBC_STATEMENT, JDBC_PREPARED_STATEMENT, JDBC_CALLABLE_STATEMENT:
                return new Conn(ConnectionScope.PINNED, "one JDBC connection");
            case SPRING_JDBC_TEMPLATE:
                if (!isSpringTemplate(exec)) {
                    return new Conn(ConnectionScope.UNKNOWN, "");
                }
                if (singleConnectionTemplate(exec)) {
                    return new Conn(ConnectionScope.PINNED, "a JdbcTemplate over a SingleConnectionDataSource");
                }
                return new Conn(
                        ConnectionScope.POOLED_PER_CALL,
                        exec.getScope().map(Node::toString).orElse("the template")
                                + " borrows a pooled connection for each call and returns it afterwards");
            case JPA_NATIVE_QUERY:
                if (!isTemplate(api, exec)) {
                    return new Conn(ConnectionScope.UNKNOWN, "");
                }
                return new Conn(
                        ConnectionScope.POOLED_PER_CALL,
                        "an EntityManager outside a transaction releases its connection after each statement");
            case JOOQ:
                return jooq(exec);
            case R2DBC:
                if (exec.getNameAsString().equals("createStatement")) {
                    return new Conn(ConnectionScope.PINNED, "one R2DBC Connection");
                }
                return new Conn(
                        ConnectionScope.POOLED_PER_CALL,
                        exec.getScope().map(Node::toString).orElse("DatabaseClient")
                                + " (a DatabaseClient) takes a connection from its ConnectionFactory for each statement and releases it afterwards");
            case VERTX_SQL: {
                String type = ApiSurfaces.receiverType(exec);
                Optional<ConnectionSource> source = type == null ? Optional.empty() : API.source(ApiFamily.VERTX, type);
                if (source.filter(ConnectionSource.PER_CALL::equals).isPresent()) {
                    return new Conn(
                            ConnectionScope.POOLED_PER_CALL,
                            exec.getScope().map(Node::toString).orElse("the pool") + " (a Vert.x " + type
                                    + ") runs each query on any free connection of the pool");
                }
                if (source.filter(ConnectionSource.PINNED::equals).isPresent()) {
                    return new Conn(ConnectionScope.PINNED, "one Vert.x " + type);
                }
                return new Conn(ConnectionScope.UNKNOWN, "");
            }
            case JDBI: {
                String type = ApiSurfaces.receiverType(exec);
                Optional<ConnectionSource> source = type == null ? Optional.empty() : API.source(ApiFamily.JDBI, type);
                if (source.filter(ConnectionSource.PINNED::equals).isPresent()) {
                    return new Conn(ConnectionScope.PINNED, "one JDBI Handle");
                }
                if (source.filter(ConnectionSource.PER_CALL::equals).isPresent()) {
                    return new Conn(
                            ConnectionScope.POOLED_PER_CALL,
                            exec.getScope().map(Node::toString).orElse("Jdbi")
                                    + " (a Jdbi) opens a handle on a pooled connection for each call");
                }
                return new Conn(ConnectionScope.UNKNOWN, "");
            }
            case MICRONAUT_JDBC:
                return new Conn(
                        ConnectionScope.POOLED_PER_CALL,
                        exec.getScope().map(Node::toString).orElse("JdbcOperations")
                                + " (Micronaut JdbcOperations) outside a transaction takes a pooled connection for the call only");
            default:
                return new Conn(ConnectionScope.UNKNOWN, "");
        }
    }

    /**
     * jOOQ: a {@code DSLContext} field or local (injected, or {@code DSL.using(dataSource, ..)}) borrows a
     * pooled connection per query; {@code DSL.using(connection, ..)} stays on that connection; a
     * {@code DSLContext} parameter or lambda parameter may be a transaction's, so it is not told.
     */
    private static Conn jooq(MethodCallExpr exec) {
        Expression scope = exec.getScope().orElse(null);
        while (scope instanceof MethodCallExpr m
                && m.getScope().isPresent()
                && !m.getNameAsString().equals("using")
                && !m.getNameAsString().equals("dsl")) {
            scope = m.getScope().get();
        }
        String name = scope instanceof NameExpr n
                ? n.getNameAsString()
                : scope instanceof FieldAccessExpr f && f.getScope().isThisExpr() ? f.getNameAsString() : null;
        Expression init = scope;
        if (name != null) {
            String declared = JavaScopes.declaredType(name, exec);
            if (declared == null || !JavaScopes.simpleTypeName(declared).equals("DSLContext")) {
                return new Conn(ConnectionScope.UNKNOWN, "");
            }
            if (JavaScopes.isParameter(name, exec) || isLambdaParameter(name, exec)) {
                return new Conn(ConnectionScope.UNKNOWN, "");
            }
            init = ApiSurfaces.initializer(name, exec);
            if (init == null) {
                return new Conn(
                        ConnectionScope.POOLED_PER_CALL,
                        name + " (a DSLContext over a DataSource) borrows a pooled "
                                + "connection for each query and returns it afterwards");
            }
        }
        if (init instanceof MethodCallExpr using
                && using.getNameAsString().equals("using")
                && using.getArguments().isNonEmpty()) {
            Expression source = using.getArgument(0);
            String type = source instanceof NameExpr n
                    ? JavaScopes.declaredType(n.getNameAsString(), using)
                    : source instanceof FieldAccessExpr f && f.getScope().isThisExpr()
                            ? JavaScopes.declaredType(f.getNameAsString(), using)
                            : null;
            String simple = type == null ? "" : JavaScopes.simpleTypeName(type);
            if (simple.equals("Connection")) {
                return new Conn(ConnectionScope.PINNED, "DSL.using(" + source + ") runs on that one connection");
            }
            if (simple.endsWith("DataSource")) {
                return new Conn(
                        ConnectionScope.POOLED_PER_CALL,
                        "DSL.using(" + source + ") over a DataSource borrows a "
                                + "pooled connection for each query and returns it afterwards");
            }
        }
        return new Conn(ConnectionScope.UNKNOWN, "");
    }

    private static boolean isLambdaParameter(String name, Node use) {
        for (Node cur = use; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof LambdaExpr l
                    && l.getParameters().stream()
                            .anyMatch(p -> p.getNameAsString().equals(name))) {
                return true;
            }
        }
        return false;
    }

    /** A template field or local initialised with {@code new JdbcTemplate(new SingleConnectionDataSource(...))}. */
    private boolean singleConnectionTemplate(MethodCallExpr exec) {
        String receiver = exec.getScope().map(Node::toString).orElse("");
        String name = receiver.startsWith("this.") ? receiver.substring(5) : receiver;
        TypeDeclaration<?> type = exec.findAncestor(TypeDeclaration.class).orElse(null);
        if (type == null) {
            return false;
        }
        SingleConnectionNames names = singleConnectionNames.computeIfAbsent(type, SingleConnectionNames::of);
        return names.initialised().contains(name)
                || (names.anyInType() && names.fields().contains(name))
                || (names.anyInType() && passedByEveryCall(exec, name, names.initialised()));
    }

    /**
     * Whether {@code name} is a parameter of the method around {@code exec} that every call of that method in its type
     * (by name and argument count; at least one) passes a variable of {@code singleConnection}: a lock helper given the
     * template its caller built over one connection ({@code doLock(key, new JdbcTemplate(singleConnectionDs))}).
     */
    private static boolean passedByEveryCall(MethodCallExpr exec, String name, Set<String> singleConnection) {
        MethodDeclaration method = exec.findAncestor(MethodDeclaration.class).orElse(null);
        Parameter p = method == null ? null : method.getParameterByName(name).orElse(null);
        if (p == null) {
            return false;
        }
        List<Expression> passed = JavaScopes.argumentsAtEveryCall(
                method,
                method.getParameters().indexOf(p),
                method.findAncestor(TypeDeclaration.class).orElse(null));
        return !passed.isEmpty()
                && passed.stream()
                        .allMatch(a -> a instanceof NameExpr arg && singleConnection.contains(arg.getNameAsString()));
    }

    /** What a type says of single-connection data sources, read once per type (a file of 5,000 templates read it per call). */
    private final Map<TypeDeclaration<?>, SingleConnectionNames> singleConnectionNames = new IdentityHashMap<>();

    /**
     * @param initialised the variables of a type whose initializer creates a {@code SingleConnectionDataSource}
     * @param anyInType   whether the type creates one anywhere
     * @param fields      the names of the type's fields
     */
    private record SingleConnectionNames(Set<String> initialised, boolean anyInType, Set<String> fields) {
        static SingleConnectionNames of(TypeDeclaration<?> type) {
            Set<String> initialised = new HashSet<>();
            List<VariableDeclarator> variables = type.findAll(VariableDeclarator.class);
            for (VariableDeclarator v : variables) {
                if (v.getInitializer().isPresent()
                        && v.getInitializer().get().findAll(ObjectCreationExpr.class).stream()
                                .anyMatch(SingleConnectionNames::singleConnection)) {
                    initialised.add(v.getNameAsString());
                }
            }
            // a template built over such a data source: new JdbcTemplate(ds) with ds one of them
            if (!initialised.isEmpty()) {
                for (VariableDeclarator v : variables) {
                    if (v.getInitializer().orElse(null) instanceof ObjectCreationExpr o
                            && o.getArguments().size() == 1
                            && o.getArgument(0) instanceof NameExpr ds
                            && initialised.contains(ds.getNameAsString())) {
                        initialised.add(v.getNameAsString());
                    }
                }
            }
            Set<String> fields = new HashSet<>();
            type.getFields().forEach(f -> f.getVariables().forEach(v -> fields.add(v.getNameAsString())));
            boolean any =
                    type.findAll(ObjectCreationExpr.class).stream().anyMatch(SingleConnectionNames::singleConnection);
            return new SingleConnectionNames(initialised, any, fields);
        }

        private static boolean singleConnection(ObjectCreationExpr o) {
            return o.getType().getNameAsString().equals("SingleConnectionDataSource");
        }
    }

    /**
     * @return the innermost lambda around {@code call} that is an argument of a call, when {@code call} passes one of
     *     that lambda's parameters on (a transaction callback's handle or connection), else null
     */
    private static LambdaExpr callbackHandedOn(Node call) {
        if (!(call instanceof MethodCallExpr m)) {
            return null;
        }
        LambdaExpr lambda = m.findAncestor(LambdaExpr.class).orElse(null);
        if (lambda == null
                || !(lambda.getParentNode().orElse(null) instanceof MethodCallExpr owner)
                || !owner.getArguments().contains(lambda)) {
            return null;
        }
        for (Expression a : m.getArguments()) {
            if (a instanceof NameExpr n
                    && lambda.getParameters().stream()
                            .anyMatch(p -> p.getNameAsString().equals(n.getNameAsString()))) {
                return lambda;
            }
        }
        return null;
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
