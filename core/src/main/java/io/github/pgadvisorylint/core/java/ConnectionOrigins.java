package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import io.github.pgadvisorylint.core.model.ConnectionOrigin;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * Finds the {@link ConnectionOrigin} of a JDBC connection the code opens itself: the URL argument of the
 * {@code DriverManager.getConnection(..)} call that initialises or assigns the connection variable (a local, or a
 * field of the class), followed through locals and fields to a literal, a constant, a Spring {@code @Value}
 * placeholder, or a {@code getProperty("key")} / {@code System.getenv("KEY")} call. Anything else has no origin.
 * Stateless.
 */
final class ConnectionOrigins {

    /** Calls that read a configuration value by a literal key (Spring's Environment, Properties, System). */
    private static final Set<String> PROPERTY_READERS = Set.of("getProperty", "getRequiredProperty", "getenv");

    private static final int MAX_DEPTH = 4;

    /** Stands for a part of a concatenated URL the code does not fix. */
    private static final String OPEN_PART = "\u0000";

    private ConnectionOrigins() {}

    /**
     * @param exec       the call that runs the lock's SQL
     * @param connection the name of the connection variable it runs on ({@code conn}), or null
     * @param region     where a node is in the file
     * @return the origin, or null when the code does not say where the connection goes
     */
    static ConnectionOrigin of(MethodCallExpr exec, String connection, Function<Node, SourceRegion> region) {
        if (connection == null) {
            return null;
        }
        ConnectionOrigin opened = opened(connection, exec, region);
        return opened != null ? opened : openedByEveryCall(connection, exec, region);
    }

    /** @return the origin of the {@code DriverManager} connection a local or field {@code connection} is set to */
    private static ConnectionOrigin opened(String connection, Node use, Function<Node, SourceRegion> region) {
        MethodCallExpr open = JavaScopes.local(connection, use)
                .flatMap(VariableDeclarator::getInitializer)
                .filter(ConnectionOrigins::isDriverManager)
                .map(MethodCallExpr.class::cast)
                .or(() -> assignedField(connection, use))
                .orElse(null);
        if (open == null || open.getArguments().isEmpty()) {
            return null;
        }
        return url(open.getArgument(0), open, region, 0); // names resolve where the connection is opened
    }

    /**
     * @return for a connection that is a parameter of the enclosing method (a helper given the connection: {@code
     *     tryLock(lockConn, key)}), the origin every call of that method in its file passes: each a {@code DriverManager}
     *     connection its caller opened, all with the same URL or key; else null
     */
    private static ConnectionOrigin openedByEveryCall(
            String connection, MethodCallExpr exec, Function<Node, SourceRegion> region) {
        MethodDeclaration method = exec.findAncestor(MethodDeclaration.class).orElse(null);
        if (method == null || JavaScopes.local(connection, exec).isPresent()) {
            return null;
        }
        return method.getParameterByName(connection)
                .map(p -> agreedAtEveryCall(
                        method,
                        method.getParameters().indexOf(p),
                        arg -> arg instanceof NameExpr n ? opened(n.getNameAsString(), arg, region) : null,
                        (a, b) -> Objects.equals(a.url(), b.url()) && Objects.equals(a.key(), b.key())))
                .orElse(null);
    }

    /**
     * @param method the method whose calls are read (by name and argument count, in its file)
     * @param index  the argument read at each call
     * @param origin the origin of an argument, or null when unknown
     * @param same   whether two origins name one source
     * @return the origin every call passes, when there is at least one call and all agree; else null
     */
    private static ConnectionOrigin agreedAtEveryCall(
            MethodDeclaration method,
            int index,
            Function<Expression, ConnectionOrigin> origin,
            BiPredicate<ConnectionOrigin, ConnectionOrigin> same) {
        ConnectionOrigin agreed = null;
        for (Expression arg : JavaScopes.argumentsAtEveryCall(method, index, method.findRootNode())) {
            ConnectionOrigin o = origin.apply(arg);
            if (o == null || (agreed != null && !same.test(agreed, o))) {
                return null;
            }
            agreed = agreed == null ? o : agreed;
        }
        return agreed;
    }

    /**
     * Annotations that name the bean injected into a field or parameter: Spring's and JSR-330's, and Quarkus'
     * {@code io.quarkus.agroal.DataSource} and {@code io.quarkus.reactive.datasource.ReactiveDataSource}.
     */
    private static final Set<String> QUALIFIERS =
            Set.of("Qualifier", "Named", "Resource", "DataSource", "ReactiveDataSource");

    /**
     * @param exec       the call that runs the lock's SQL
     * @param connection the name of the connection variable it runs on, or null when it runs on a template or
     *                   another object ({@code jdbc.execute(..)})
     * @param region     where a node is in the file
     * @return the bean the connection's source is injected as, when a qualifier names it: the {@code DataSource}
     *     a local connection is taken from ({@code ds.getConnection()}, {@code DataSourceUtils.getConnection(ds)}), or
     *     the template or object the statement runs on, a field or parameter annotated {@code @Qualifier("name")},
     *     {@code @Named("name")}, {@code @Resource(name = "name")} or Quarkus' {@code @DataSource("name")} (itself, or the constructor parameter the field
     *     is set from); else null
     */
    static ConnectionOrigin bean(MethodCallExpr exec, String connection, Function<Node, SourceRegion> region) {
        Expression source = null;
        if (connection != null) {
            Expression init = JavaScopes.local(connection, exec)
                    .flatMap(VariableDeclarator::getInitializer)
                    .orElse(null);
            init = gotten(init, exec);
            if (init instanceof MethodCallExpr m && m.getNameAsString().equals("getConnection")) {
                source = m.getArguments().size() == 1
                        ? m.getArgument(0)
                        : m.getScope().orElse(null);
            }
            if (init == null) {
                source = lentBy(connection, exec);
            }
        } else {
            // the object the statement's chain starts at: a template, a pool, a client (db.sql(..).bind(..))
            source = exec.getScope().orElse(null);
            while (source instanceof MethodCallExpr m && m.getScope().isPresent()) {
                source = m.getScope().get();
            }
            if (source instanceof NameExpr n
                    && JavaScopes.local(n.getNameAsString(), exec).isEmpty()) {
                Expression lender = lentBy(n.getNameAsString(), exec);
                source = lender != null ? lender : source; // a lambda's connection: who lends it
            }
        }
        String name = source instanceof NameExpr n
                ? n.getNameAsString()
                : source instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr ? f.getNameAsString() : null;
        if (name == null
                || (source instanceof NameExpr && JavaScopes.local(name, exec).isPresent())) {
            return null;
        }
        return named(name, exec, region, 0);
    }

    /**
     * @param name   a parameter or field name read at {@code use}
     * @param use    where it is read
     * @param region where a node is in the file
     * @param depth  how many callers were followed (at most 1)
     * @return the bean a qualifier on the parameter or field names (see {@link #bean}); for a parameter without one,
     *     the bean every call of its method in the file passes there, when they all name the same one; else null
     */
    private static ConnectionOrigin named(String name, Node use, Function<Node, SourceRegion> region, int depth) {
        CallableDeclaration<?> callable =
                use.findAncestor(CallableDeclaration.class).orElse(null);
        List<Parameter> params = callable == null ? List.of() : List.copyOf(callable.getParameters());
        for (Parameter p : params) {
            if (p.getNameAsString().equals(name)) {
                ConnectionOrigin own = qualified(p.getAnnotations(), region);
                return own != null || depth > 0 || !(callable instanceof MethodDeclaration m)
                        ? own
                        : passedByEveryCall(m, params.indexOf(p), region, depth);
            }
        }
        Optional<ClassOrInterfaceDeclaration> type = use.findAncestor(ClassOrInterfaceDeclaration.class);
        if (type.isEmpty()) {
            return null;
        }
        for (FieldDeclaration f : type.get().getFields()) {
            if (f.getVariables().stream().noneMatch(v -> v.getNameAsString().equals(name))) {
                continue;
            }
            ConnectionOrigin own = qualified(f.getAnnotations(), region);
            if (own != null) {
                return own;
            }
            // set in a constructor from a qualified parameter: this.ds = ds
            for (AssignExpr a : type.get().findAll(AssignExpr.class)) {
                if (names(a.getTarget(), name) && a.getValue() instanceof NameExpr v) {
                    CallableDeclaration<?> setter =
                            a.findAncestor(CallableDeclaration.class).orElse(null);
                    Parameter p = setter == null
                            ? null
                            : setter.getParameterByName(v.getNameAsString()).orElse(null);
                    ConnectionOrigin fromParameter = p == null ? null : qualified(p.getAnnotations(), region);
                    if (fromParameter != null) {
                        return fromParameter;
                    }
                }
                if (names(a.getTarget(), name) && a.getValue() instanceof ObjectCreationExpr pool) {
                    // a pool the class builds itself: this.ds = new HikariDataSource(cfg) after cfg.setJdbcUrl(url)
                    ConnectionOrigin built = builtPool(pool, a, region);
                    if (built != null) {
                        return built;
                    }
                }
            }
        }
        return null;
    }

    /**
     * @return the bean every call of {@code method} in its file (by name and argument count; at least one) passes at
     *     {@code index}, as a qualified field or parameter of the caller, when all name the same bean; else null: a
     *     helper taking a {@code DataSource} that its callers fill from {@code @Named("direct")}
     */
    private static ConnectionOrigin passedByEveryCall(
            MethodDeclaration method, int index, Function<Node, SourceRegion> region, int depth) {
        return agreedAtEveryCall(
                method,
                index,
                arg -> {
                    String argName = arg instanceof NameExpr n
                            ? n.getNameAsString()
                            : arg instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr
                                    ? f.getNameAsString()
                                    : null;
                    ConnectionOrigin o =
                            argName == null || JavaScopes.local(argName, arg).isPresent()
                                    ? null
                                    : named(argName, arg, region, depth + 1);
                    return o == null || o.bean() == null ? null : o;
                },
                (a, b) -> a.bean().equals(b.bean()));
    }

    /**
     * @param init a local connection's initializer
     * @param use  where the connection is used
     * @return the {@code x.getConnection()} a call of a no-argument method of the enclosing class returns, when that
     *     method's body is that one {@code return} ({@code lockConnection()} returning {@code lockDb.getConnection()});
     *     else {@code init} itself
     */
    private static Expression gotten(Expression init, Node use) {
        if (!(init instanceof MethodCallExpr call)
                || !call.getArguments().isEmpty()
                || !(call.getScope().isEmpty() || call.getScope().get() instanceof ThisExpr)) {
            return init;
        }
        ClassOrInterfaceDeclaration type =
                use.findAncestor(ClassOrInterfaceDeclaration.class).orElse(null);
        if (type == null) {
            return init;
        }
        for (MethodDeclaration m : type.getMethodsBySignature(call.getNameAsString())) {
            List<Statement> body = m.getBody().map(BlockStmt::getStatements).orElse(null);
            if (body != null
                    && body.size() == 1
                    && body.get(0) instanceof ReturnStmt r
                    && r.getExpression().orElse(null) instanceof MethodCallExpr got
                    && got.getNameAsString().equals("getConnection")) {
                return got;
            }
        }
        return init;
    }

    /**
     * @param connection the name of a lambda parameter the statement runs on
     * @param exec       the call that runs the statement
     * @return the object that lends the connection to the lambda: {@code factory} of
     *     {@code Mono.usingWhen(factory.create(), c -> .., ..)}, {@code pool} of {@code pool.withConnection(c -> ..)}
     *     or of any call on a name whose lambda argument receives the connection; else null
     */
    private static Expression lentBy(String connection, Node exec) {
        for (LambdaExpr l = exec.findAncestor(LambdaExpr.class).orElse(null);
                l != null;
                l = l.findAncestor(LambdaExpr.class).orElse(null)) {
            if (l.getParameters().stream().noneMatch(p -> p.getNameAsString().equals(connection))) {
                continue;
            }
            if (!(l.getParentNode().orElse(null) instanceof MethodCallExpr call)) {
                return null;
            }
            if ((call.getNameAsString().equals("usingWhen")
                            || call.getNameAsString().equals("using"))
                    && call.getArguments().size() >= 2
                    && call.getArgument(1) == l) {
                return call.getArgument(0) instanceof MethodCallExpr create
                                && create.getNameAsString().equals("create")
                                && create.getArguments().isEmpty()
                        ? create.getScope().orElse(null)
                        : null;
            }
            return call.getScope().orElse(null);
        }
        return null;
    }

    /** Calls that set a pool's URL. */
    static final Set<String> URL_SETTERS = Set.of("setJdbcUrl", "setUrl", "setURL");

    /**
     * @return the URL a pool the class creates is configured with: a {@code setJdbcUrl(..)}/{@code setUrl(..)} call in
     *     the method or constructor that creates it, read as a {@code DriverManager} URL; null when there is none, or
     *     more than one
     */
    private static ConnectionOrigin builtPool(ObjectCreationExpr pool, Node at, Function<Node, SourceRegion> region) {
        CallableDeclaration<?> owner =
                at.findAncestor(CallableDeclaration.class).orElse(null);
        if (owner == null || !pool.getType().getNameAsString().endsWith("DataSource")) {
            return null;
        }
        List<MethodCallExpr> setters = owner.findAll(MethodCallExpr.class).stream()
                .filter(m -> URL_SETTERS.contains(m.getNameAsString())
                        && m.getArguments().size() == 1)
                .toList();
        return setters.size() == 1 ? url(setters.get(0).getArgument(0), setters.get(0), region, 0) : null;
    }

    /** @return the bean a qualifier among the annotations names, as an origin at the annotation; or null */
    private static ConnectionOrigin qualified(
            Iterable<AnnotationExpr> annotations, Function<Node, SourceRegion> region) {
        for (AnnotationExpr a : annotations) {
            String simple = a.getName().getIdentifier();
            if (!QUALIFIERS.contains(simple)) {
                continue;
            }
            Expression value = a instanceof SingleMemberAnnotationExpr s
                    ? s.getMemberValue()
                    : a instanceof NormalAnnotationExpr n
                            ? n.getPairs().stream()
                                    .filter(p ->
                                            p.getNameAsString().equals(simple.equals("Resource") ? "name" : "value"))
                                    .map(MemberValuePair::getValue)
                                    .findFirst()
                                    .orElse(null)
                            : null;
            if (value instanceof StringLiteralExpr s && !s.asString().isBlank()) {
                return new ConnectionOrigin(
                        null, null, region.apply(a), s.asString().strip());
            }
        }
        return null;
    }

    private static boolean isDriverManager(Expression e) {
        return e instanceof MethodCallExpr m
                && m.getNameAsString().equals("getConnection")
                && m.getScope()
                        .map(s -> s.toString().equals("DriverManager")
                                || s.toString().equals("java.sql.DriverManager"))
                        .orElse(false);
    }

    /** @return the {@code DriverManager.getConnection(..)} a field of the enclosing class is set to */
    private static Optional<MethodCallExpr> assignedField(String name, Node use) {
        Optional<ClassOrInterfaceDeclaration> type = use.findAncestor(ClassOrInterfaceDeclaration.class);
        if (type.isEmpty() || JavaScopes.local(name, use).isPresent()) {
            return Optional.empty();
        }
        for (FieldDeclaration f : type.get().getFields()) {
            for (VariableDeclarator v : f.getVariables()) {
                if (v.getNameAsString().equals(name)
                        && v.getInitializer()
                                .filter(ConnectionOrigins::isDriverManager)
                                .isPresent()) {
                    return v.getInitializer().map(MethodCallExpr.class::cast);
                }
            }
        }
        return type.get().findAll(AssignExpr.class).stream()
                .filter(a -> names(a.getTarget(), name) && isDriverManager(a.getValue()))
                .map(a -> (MethodCallExpr) a.getValue())
                .findFirst();
    }

    private static boolean names(Expression target, String name) {
        return (target instanceof NameExpr n && n.getNameAsString().equals(name))
                || (target instanceof FieldAccessExpr f
                        && f.getScope() instanceof ThisExpr
                        && f.getNameAsString().equals(name));
    }

    static ConnectionOrigin url(Expression e, Node use, Function<Node, SourceRegion> region, int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        if (e instanceof StringLiteralExpr s) {
            return new ConnectionOrigin(s.asString(), null, region.apply(s));
        }
        if (e instanceof EnclosedExpr en) {
            return url(en.getInner(), use, region, depth + 1);
        }
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
            return concatenation(b, use, region, depth);
        }
        if (e instanceof MethodCallExpr m
                && PROPERTY_READERS.contains(m.getNameAsString())
                && !m.getArguments().isEmpty()
                && m.getArgument(0) instanceof StringLiteralExpr key) {
            String fallback = m.getArguments().size() > 1 && m.getArgument(1) instanceof StringLiteralExpr d
                    ? d.asString()
                    : null;
            return new ConnectionOrigin(fallback, key.asString(), region.apply(m));
        }
        String name = e instanceof NameExpr n
                ? n.getNameAsString()
                : e instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr ? f.getNameAsString() : null;
        if (name == null) {
            return null;
        }
        Optional<VariableDeclarator> local = e instanceof NameExpr ? JavaScopes.local(name, use) : Optional.empty();
        if (local.isPresent()) {
            return local.get()
                    .getInitializer()
                    .map(i -> url(i, use, region, depth + 1))
                    .orElse(null);
        }
        List<Parameter> params = use.findAncestor(CallableDeclaration.class)
                .map(c -> List.<Parameter>copyOf(c.getParameters()))
                .orElse(List.of());
        for (Parameter p : params) {
            if (p.getNameAsString().equals(name)) {
                return placeholder(p.getAnnotations(), region.apply(p));
            }
        }
        Optional<ClassOrInterfaceDeclaration> type = use.findAncestor(ClassOrInterfaceDeclaration.class);
        if (type.isEmpty()) {
            return null;
        }
        for (FieldDeclaration f : type.get().getFields()) {
            for (VariableDeclarator v : f.getVariables()) {
                if (!v.getNameAsString().equals(name)) {
                    continue;
                }
                ConnectionOrigin fromValue = placeholder(f.getAnnotations(), region.apply(v));
                if (fromValue != null) {
                    return fromValue;
                }
                if (v.getInitializer().isPresent()) {
                    return url(v.getInitializer().get(), v, region, depth + 1);
                }
                // a field set in the constructor from an @Value parameter: this.url = url
                return type.get().findAll(AssignExpr.class).stream()
                        .filter(a -> names(a.getTarget(), name))
                        .map(a -> url(a.getValue(), a, region, depth + 1))
                        .filter(Objects::nonNull)
                        .findFirst()
                        .orElse(null);
            }
        }
        return null;
    }

    /**
     * A URL built by concatenation ({@code "jdbc:postgresql://" + HOST + ":5432/" + db}): the parts the code fixes
     * (literals, constants) joined, a part it does not fix standing for any text. Known only when the scheme, host
     * and port are all fixed: the database name or parameters may be open.
     */
    private static ConnectionOrigin concatenation(
            BinaryExpr b, Node use, Function<Node, SourceRegion> region, int depth) {
        StringBuilder text = new StringBuilder();
        for (Expression part : List.of(b.getLeft(), b.getRight())) {
            ConnectionOrigin o = url(part, use, region, depth + 1);
            text.append(o == null || o.url() == null || o.key() != null ? OPEN_PART : o.url());
        }
        String url = text.toString();
        int slashes = url.indexOf("//");
        if (slashes < 0) {
            return url.indexOf(OPEN_PART) < 0 ? new ConnectionOrigin(url, null, region.apply(b)) : null;
        }
        int end = slashes + 2;
        while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
            end++;
        }
        if (url.substring(0, end).indexOf(OPEN_PART) >= 0) {
            return null; // the host or the port is not fixed by the code
        }
        return new ConnectionOrigin(url.replace(OPEN_PART, "x"), null, region.apply(b));
    }

    /** @return the origin a Spring {@code @Value("${key:default}")} annotation names, or null */
    private static ConnectionOrigin placeholder(Iterable<AnnotationExpr> annotations, SourceRegion at) {
        for (AnnotationExpr a : annotations) {
            if (!a.getNameAsString().equals("Value") && !a.getNameAsString().endsWith(".Value")) {
                continue;
            }
            Expression value = a instanceof SingleMemberAnnotationExpr s
                    ? s.getMemberValue()
                    : a instanceof NormalAnnotationExpr n
                            ? n.getPairs().stream()
                                    .filter(p -> p.getNameAsString().equals("value"))
                                    .map(MemberValuePair::getValue)
                                    .findFirst()
                                    .orElse(null)
                            : null;
            if (!(value instanceof StringLiteralExpr s)) {
                return null;
            }
            String text = s.asString().strip();
            if (!text.startsWith("${") || !text.endsWith("}")) {
                return text.isEmpty() ? null : new ConnectionOrigin(text, null, at);
            }
            String inner = text.substring(2, text.length() - 1);
            int colon = inner.indexOf(':');
            String key = colon < 0 ? inner : inner.substring(0, colon);
            String fallback = colon < 0 ? null : inner.substring(colon + 1);
            return key.isBlank() ? null : new ConnectionOrigin(fallback, key.strip(), at);
        }
        return null;
    }
}
