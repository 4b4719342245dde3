package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.SourceRegion;
import io.github.pgadvisorylint.core.model.TransactionState;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Tells the transaction and connection context of a Java lock site (RULES.md unpinned-session-lock,
 * xact-lock-outside-transaction; F3: a transaction-level lock taken in autocommit ends with its
 * statement; F13: a pooled connection's session outlives {@code close()}). Transaction sources:
 * Spring and Jakarta {@code @Transactional} on the method or class (propagation {@code NOT_SUPPORTED}
 * / {@code NEVER} meaning none), {@code TransactionTemplate.execute/executeWithoutResult}, jOOQ
 * {@code transaction/transactionResult}, JDBI {@code inTransaction/useTransaction},
 * {@code setAutoCommit(false)} on the connection, and the implicit transaction of a multi-statement
 * string (F17). Autocommit is claimed only when the code shows it (a connection obtained in the
 * method without {@code setAutoCommit(false)}, a scheduler or start-up entry point without a
 * transaction); otherwise the state is unknown and rules stay silent.
 */
final class ExecutionContextAnalyzer {

    private static final Set<String> TX_CALLBACKS = Set.of("transaction", "transactionResult", "inTransaction",
            "useTransaction", "doInTransaction", "runInTransaction", "withTransaction", "inTransactionUnchecked");
    private static final Set<String> PINNED_CALLBACKS = Set.of("doWork", "doReturningWork", "connection",
            "connectionResult", "withHandle", "useHandle", "useConnection", "withConnection", "inConnection", "inConnectionMany");
    private static final Set<String> ENTRY_POINTS = Set.of("Scheduled", "PostConstruct", "PreDestroy", "EventListener",
            "Async", "SchedulerLock", "KafkaListener", "RabbitListener", "JmsListener", "Startup", "Observes");

    private final SourceFile file;
    private final Set<String> pooledTypes;

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
    }

    /**
     * @param exec           the executing call (null for declarations and Spring Data queries)
     * @param api            the execution API
     * @param multiStatement true when the SQL string holds further statements after the lock's one (F17)
     * @return the context; {@link ExecutionContext#UNKNOWN} when nothing can be told
     */
    ExecutionContext analyze(MethodCallExpr exec, ExecutionApi api, boolean multiStatement) {
        if (exec == null || api == ExecutionApi.DECLARATION || api == ExecutionApi.SPRING_DATA_QUERY) {
            return ExecutionContext.UNKNOWN;
        }
        Tx tx = transaction(exec, api);
        if (multiStatement && tx.state != TransactionState.IN_TRANSACTION) {
            tx = new Tx(TransactionState.IN_TRANSACTION, "the statements of one query string run as one implicit transaction", null);
        }
        Conn conn = connection(exec, api);
        return new ExecutionContext(tx.state, tx.evidence, tx.region, conn.scope, conn.evidence);
    }

    private record Tx(TransactionState state, String evidence, SourceRegion region) {
    }

    private record Conn(ConnectionScope scope, String evidence) {
    }

    private Tx transaction(MethodCallExpr exec, ExecutionApi api) {
        Node child = exec;
        Node cur = exec.getParentNode().orElse(null);
        while (cur != null) {
            if (cur instanceof LambdaExpr lambda && lambda.getParentNode().orElse(null) instanceof MethodCallExpr call
                    && call.getArguments().contains(lambda)) {
                String name = call.getNameAsString();
                String scope = call.getScope().map(Node::toString).orElse("").toLowerCase(Locale.ROOT);
                boolean template = (name.equals("execute") || name.equals("executeWithoutResult"))
                        && (scope.contains("transaction") || scope.contains("tx"));
                if (template || TX_CALLBACKS.contains(name)) {
                    String what = (template ? "TransactionTemplate." : "") + name + "(...)";
                    if (template && onlyTakesTheLock(lambda, exec)) {
                        return new Tx(TransactionState.ENDS_BEFORE_WORK, what + " commits as soon as the callback returns",
                                region(call));
                    }
                    return new Tx(TransactionState.IN_TRANSACTION, what, region(call));
                }
            }
            if (cur instanceof MethodDeclaration m) {
                Optional<Tx> annotated = transactional(m, "method " + m.getNameAsString());
                if (annotated.isPresent()) {
                    return annotated.get();
                }
            }
            if (cur instanceof TypeDeclaration<?> t) {
                Optional<Tx> annotated = transactional(t, "class " + t.getNameAsString());
                if (annotated.isPresent()) {
                    return annotated.get();
                }
                break;
            }
            child = cur;
            cur = cur.getParentNode().orElse(null);
        }
        String connection = connectionVariable(exec, api);
        if (connection != null) {
            return jdbcAutoCommit(exec, connection);
        }
        if (isTemplate(api, exec)) {
            MethodDeclaration m = exec.findAncestor(MethodDeclaration.class).orElse(null);
            if (m != null && runsOutsideTransactions(m, 0)) {
                return new Tx(TransactionState.AUTOCOMMIT, "entry point " + m.getNameAsString()
                        + "() runs without a transaction", region(m.getName()));
            }
        }
        return new Tx(TransactionState.UNKNOWN, "", null);
    }

    /** {@code @Transactional} on a method or class: present means a transaction unless NOT_SUPPORTED or NEVER. */
    private Optional<Tx> transactional(NodeWithAnnotations<?> owner, String where) {
        for (AnnotationExpr a : owner.getAnnotations()) {
            String n = a.getNameAsString();
            if (!n.equals("Transactional") && !n.endsWith(".Transactional")) {
                continue;
            }
            String text = a.toString();
            if (text.contains("NOT_SUPPORTED") || text.contains("NEVER")) {
                return Optional.of(new Tx(TransactionState.AUTOCOMMIT, "@Transactional(" + (text.contains("NEVER")
                        ? "NEVER" : "NOT_SUPPORTED") + ") on " + where + " suspends any transaction", region(a)));
            }
            if (text.contains("SUPPORTS")) {
                return Optional.of(new Tx(TransactionState.UNKNOWN, "", null));
            }
            return Optional.of(new Tx(TransactionState.IN_TRANSACTION, "@Transactional on " + where, region(a)));
        }
        return Optional.empty();
    }

    /** True when the callback body is the lock statement alone, optionally returned. */
    private static boolean onlyTakesTheLock(LambdaExpr lambda, MethodCallExpr exec) {
        Statement body = lambda.getBody();
        if (body instanceof ExpressionStmt es) {
            return es.getExpression() == exec || isWithin(exec, es.getExpression());
        }
        if (body instanceof BlockStmt b) {
            List<Statement> stmts = b.getStatements();
            if (stmts.isEmpty() || stmts.size() > 2) {
                return false;
            }
            if (!isWithin(exec, stmts.get(0))) {
                return false;
            }
            return stmts.size() == 1 || stmts.get(1) instanceof ReturnStmt r
                    && r.getExpression().map(e -> e instanceof NameExpr || e instanceof BooleanLiteralExpr).orElse(true);
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
            return m.getScope().filter(NameExpr.class::isInstance).map(Object::toString).orElse(null);
        }
        if (scope instanceof NameExpr n) {
            Optional<VariableDeclarator> v = JavaScopes.local(n.getNameAsString(), exec);
            if (v.isPresent() && v.get().getInitializer().orElse(null) instanceof MethodCallExpr init
                    && (init.getNameAsString().equals("createStatement") || init.getNameAsString().equals("prepareStatement"))) {
                return init.getScope().filter(NameExpr.class::isInstance).map(Object::toString).orElse(null);
            }
        }
        return null;
    }

    private Tx jdbcAutoCommit(MethodCallExpr exec, String connection) {
        Node scope = JavaScopes.callableOf(exec);
        int at = offset(exec);
        if (scope != null) {
            for (MethodCallExpr m : scope.findAll(MethodCallExpr.class)) {
                if (m.getNameAsString().equals("setAutoCommit") && offset(m) < at
                        && m.getScope().map(s -> s.toString().equals(connection)).orElse(false)
                        && m.getArguments().size() == 1 && m.getArgument(0) instanceof BooleanLiteralExpr b && !b.getValue()) {
                    return new Tx(TransactionState.IN_TRANSACTION, "setAutoCommit(false) on " + connection, region(m));
                }
            }
        }
        Optional<VariableDeclarator> v = JavaScopes.local(connection, exec);
        if (v.isPresent() && v.get().getInitializer().orElse(null) instanceof MethodCallExpr init
                && init.getNameAsString().equals("getConnection")) {
            return new Tx(TransactionState.AUTOCOMMIT, connection + " from " + init.getScope().map(s -> s + ".").orElse("")
                    + "getConnection() keeps JDBC's default autocommit: no setAutoCommit(false) before the lock", region(v.get()));
        }
        return new Tx(TransactionState.UNKNOWN, "", null);
    }

    /** An entry point (scheduler, start-up, listener, main) without a transaction, or a private method only they call. */
    private static boolean runsOutsideTransactions(MethodDeclaration m, int depth) {
        if (m.getAnnotations().stream().anyMatch(a -> a.getNameAsString().endsWith("Transactional"))) {
            return false;
        }
        TypeDeclaration<?> type = m.findAncestor(TypeDeclaration.class).orElse(null);
        if (type == null || type.getAnnotations().stream().anyMatch(a -> a.getNameAsString().endsWith("Transactional"))) {
            return false;
        }
        if (m.getAnnotations().stream().anyMatch(a -> ENTRY_POINTS.contains(simple(a.getNameAsString())))
                || (m.isStatic() && m.getNameAsString().equals("main"))) {
            return true;
        }
        if (!m.isPrivate() || depth >= 3) {
            return false;
        }
        List<MethodCallExpr> callers = type.findAll(MethodCallExpr.class).stream()
                .filter(c -> c.getNameAsString().equals(m.getNameAsString()) && c.getScope().map(Expression::isThisExpr).orElse(true))
                .toList();
        return !callers.isEmpty() && callers.stream().allMatch(c -> c.findAncestor(MethodDeclaration.class)
                .map(caller -> caller != m && runsOutsideTransactions(caller, depth + 1)).orElse(false));
    }

    private static String simple(String name) {
        return name.substring(name.lastIndexOf('.') + 1);
    }

    private static boolean isTemplate(ExecutionApi api, MethodCallExpr exec) {
        return (api == ExecutionApi.SPRING_JDBC_TEMPLATE && isSpringTemplate(exec))
                || (api == ExecutionApi.JPA_NATIVE_QUERY && importsAny(exec, "jakarta.persistence.", "javax.persistence.",
                "org.hibernate."));
    }

    /** Spring's per-call templates; other libraries' classes of the same name (Flyway's JdbcTemplate wraps one connection) are not. */
    private static final Set<String> SPRING_TEMPLATES = Set.of("JdbcTemplate", "NamedParameterJdbcTemplate", "JdbcOperations",
            "NamedParameterJdbcOperations", "JdbcClient", "SimpleJdbcCall");

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
        } else if (scope instanceof com.github.javaparser.ast.expr.FieldAccessExpr f && f.getScope().isThisExpr()) {
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
        return n.findCompilationUnit().map(cu -> cu.getImports().stream().anyMatch(i -> {
            String q = i.getNameAsString();
            return q.startsWith("org.springframework.jdbc.") && (i.isAsterisk() || q.endsWith("." + simpleType));
        })).orElse(false);
    }

    private static boolean importsAny(Node n, String... prefixes) {
        return n.findCompilationUnit().map(cu -> cu.getImports().stream()
                .anyMatch(i -> java.util.Arrays.stream(prefixes).anyMatch(p -> i.getNameAsString().startsWith(p)))).orElse(false);
    }


    private Conn connection(MethodCallExpr exec, ExecutionApi api) {
        if (!pooledTypes.isEmpty() && exec.getScope().orElse(null) instanceof NameExpr receiver) {
            String type = JavaScopes.declaredType(receiver.getNameAsString(), exec);
            if (type != null && pooledTypes.contains(JavaScopes.simpleTypeName(type))) {
                return new Conn(ConnectionScope.POOLED_PER_CALL, receiver + " is a " + JavaScopes.simpleTypeName(type)
                        + ", configured (pooledApiTypes) to borrow a pooled connection for each call");
            }
        }
        for (Node cur = exec.getParentNode().orElse(null); cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof LambdaExpr lambda && lambda.getParentNode().orElse(null) instanceof MethodCallExpr call) {
                String name = call.getNameAsString();
                boolean connectionCallback = name.equals("execute") && (lambda.toString().contains("Connection")
                        || call.getArguments().stream().anyMatch(a -> a.toString().contains("ConnectionCallback")));
                if (connectionCallback || PINNED_CALLBACKS.contains(name)) {
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
                return new Conn(ConnectionScope.POOLED_PER_CALL, exec.getScope().map(Node::toString).orElse("the template")
                        + " borrows a pooled connection for each call and returns it afterwards");
            case JPA_NATIVE_QUERY:
                if (!isTemplate(api, exec)) {
                    return new Conn(ConnectionScope.UNKNOWN, "");
                }
                return new Conn(ConnectionScope.POOLED_PER_CALL,
                        "an EntityManager outside a transaction releases its connection after each statement");
            case JOOQ:
                return jooq(exec);
            case R2DBC:
                if (exec.getNameAsString().equals("createStatement")) {
                    return new Conn(ConnectionScope.PINNED, "one R2DBC Connection");
                }
                return new Conn(ConnectionScope.POOLED_PER_CALL, exec.getScope().map(Node::toString).orElse("DatabaseClient")
                        + " (a DatabaseClient) takes a connection from its ConnectionFactory for each statement and releases it afterwards");
            case VERTX_SQL: {
                String type = ApiSurfaces.receiverType(exec);
                if (type != null && Set.of("Pool", "PgPool", "JDBCPool", "MySQLPool").contains(type)) {
                    return new Conn(ConnectionScope.POOLED_PER_CALL, exec.getScope().map(Node::toString).orElse("the pool")
                            + " (a Vert.x " + type + ") runs each query on any free connection of the pool");
                }
                if (type != null && (type.equals("SqlConnection") || type.equals("PgConnection"))) {
                    return new Conn(ConnectionScope.PINNED, "one Vert.x " + type);
                }
                return new Conn(ConnectionScope.UNKNOWN, "");
            }
            case JDBI: {
                String type = ApiSurfaces.receiverType(exec);
                if ("Handle".equals(type)) {
                    return new Conn(ConnectionScope.PINNED, "one JDBI Handle");
                }
                if ("Jdbi".equals(type)) {
                    return new Conn(ConnectionScope.POOLED_PER_CALL, exec.getScope().map(Node::toString).orElse("Jdbi")
                            + " (a Jdbi) opens a handle on a pooled connection for each call");
                }
                return new Conn(ConnectionScope.UNKNOWN, "");
            }
            case MICRONAUT_JDBC:
                return new Conn(ConnectionScope.POOLED_PER_CALL, exec.getScope().map(Node::toString).orElse("JdbcOperations")
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
        while (scope instanceof MethodCallExpr m && m.getScope().isPresent() && !m.getNameAsString().equals("using")
                && !m.getNameAsString().equals("dsl")) {
            scope = m.getScope().get();
        }
        String name = scope instanceof NameExpr n ? n.getNameAsString()
                : scope instanceof com.github.javaparser.ast.expr.FieldAccessExpr f && f.getScope().isThisExpr() ? f.getNameAsString() : null;
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
                return new Conn(ConnectionScope.POOLED_PER_CALL, name + " (a DSLContext over a DataSource) borrows a pooled "
                        + "connection for each query and returns it afterwards");
            }
        }
        if (init instanceof MethodCallExpr using && using.getNameAsString().equals("using") && using.getArguments().isNonEmpty()) {
            Expression source = using.getArgument(0);
            String type = source instanceof NameExpr n ? JavaScopes.declaredType(n.getNameAsString(), using)
                    : source instanceof com.github.javaparser.ast.expr.FieldAccessExpr f && f.getScope().isThisExpr()
                    ? JavaScopes.declaredType(f.getNameAsString(), using) : null;
            String simple = type == null ? "" : JavaScopes.simpleTypeName(type);
            if (simple.equals("Connection")) {
                return new Conn(ConnectionScope.PINNED, "DSL.using(" + source + ") runs on that one connection");
            }
            if (simple.endsWith("DataSource")) {
                return new Conn(ConnectionScope.POOLED_PER_CALL, "DSL.using(" + source + ") over a DataSource borrows a "
                        + "pooled connection for each query and returns it afterwards");
            }
        }
        return new Conn(ConnectionScope.UNKNOWN, "");
    }

    private static boolean isLambdaParameter(String name, Node use) {
        for (Node cur = use; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof LambdaExpr l && l.getParameters().stream().anyMatch(p -> p.getNameAsString().equals(name))) {
                return true;
            }
        }
        return false;
    }

    /** A template field or local initialised with {@code new JdbcTemplate(new SingleConnectionDataSource(...))}. */
    private static boolean singleConnectionTemplate(MethodCallExpr exec) {
        String receiver = exec.getScope().map(Node::toString).orElse("");
        String name = receiver.startsWith("this.") ? receiver.substring(5) : receiver;
        TypeDeclaration<?> type = exec.findAncestor(TypeDeclaration.class).orElse(null);
        if (type == null) {
            return false;
        }
        for (VariableDeclarator v : type.findAll(VariableDeclarator.class)) {
            if (v.getNameAsString().equals(name) && v.getInitializer().isPresent()
                    && v.getInitializer().get().findAll(ObjectCreationExpr.class).stream()
                    .anyMatch(o -> o.getType().getNameAsString().equals("SingleConnectionDataSource"))) {
                return true;
            }
        }
        return type.findAll(ObjectCreationExpr.class).stream()
                .anyMatch(o -> o.getType().getNameAsString().equals("SingleConnectionDataSource"))
                && type.getFields().stream().map(FieldDeclaration::getVariables).flatMap(List::stream)
                .anyMatch(v -> v.getNameAsString().equals(name));
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
