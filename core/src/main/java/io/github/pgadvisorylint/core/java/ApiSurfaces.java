package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.ArrayCreationExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.Statement;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Recognises the data-access APIs beyond JDBC, Spring JDBC and JPA by the method name, the receiver's
 * declared type (field, parameter, local) and the file's imports: jOOQ, R2DBC, Vert.x SQL client,
 * JDBI and Micronaut {@code JdbcOperations}. Pure functions of the syntax tree.
 */
final class ApiSurfaces {

    /** jOOQ {@code DSLContext} methods that take plain SQL as their first argument. */
    static final Set<String> JOOQ_PLAIN_SQL = Set.of(
            "fetch",
            "fetchOne",
            "fetchValue",
            "fetchSingle",
            "fetchOptional",
            "fetchOptionalValue",
            "fetchAny",
            "fetchLazy",
            "fetchStream",
            "fetchMany",
            "fetchValues",
            "execute",
            "query",
            "resultQuery");

    /** jOOQ {@code DSL} static methods whose first argument is a plain SQL template. */
    static final Set<String> JOOQ_TEMPLATES = Set.of("field", "condition");

    /** jOOQ wrappers of a bind value: {@code DSL.val(x)}, {@code DSL.inline(x)}, {@code DSL.value(x)}. */
    private static final Set<String> JOOQ_VALUE_WRAPPERS = Set.of("val", "inline", "value");

    private static final Set<String> VERTX_POOLS = Set.of("Pool", "PgPool", "JDBCPool", "MySQLPool", "SqlClient");
    private static final Set<String> VERTX_CONNECTIONS = Set.of("SqlConnection", "PgConnection");

    /** Every method name {@link #classify} may accept: a cheap first test. */
    private static final Set<String> CANDIDATE_NAMES = union(
            JOOQ_PLAIN_SQL,
            Set.of(
                    "createStatement",
                    "sql",
                    "preparedQuery",
                    "query",
                    "createQuery",
                    "createUpdate",
                    "createCall",
                    "select",
                    "execute",
                    "prepareStatement"));

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.addAll(b);
        return Set.copyOf(out);
    }

    private ApiSurfaces() {}

    /**
     * The API of a call whose first argument is SQL, beyond the built-in JDBC/Spring/JPA table.
     *
     * @param call a method call with at least one argument
     * @return the API, or null when the call belongs to none of these libraries
     */
    static ExecutionApi classify(MethodCallExpr call) {
        String name = call.getNameAsString();
        if (!CANDIDATE_NAMES.contains(name)) {
            return null;
        }
        String type = receiverType(call);
        Expression scope = call.getScope().orElse(null);
        if (JOOQ_PLAIN_SQL.contains(name) && isJooqContext(scope, type, call)) {
            return ExecutionApi.JOOQ;
        }
        if (JOOQ_PLAIN_SQL.contains(name)
                && (name.startsWith("fetch") || name.equals("resultQuery"))
                && type == null
                && imports(call, "org.jooq.")) {
            return ExecutionApi.JOOQ;
        }
        if (name.equals("createStatement")
                && call.getArguments().size() == 1
                && !(call.getArgument(0).isIntegerLiteralExpr())
                && (imports(call, "io.r2dbc.") || ("Connection".equals(type) && !imports(call, "java.sql.")))) {
            return ExecutionApi.R2DBC;
        }
        if (name.equals("sql")
                && ("DatabaseClient".equals(type) || (type == null && imports(call, "org.springframework.r2dbc.")))) {
            return ExecutionApi.R2DBC;
        }
        if (name.equals("preparedQuery")
                || (name.equals("query")
                        && ((type != null && (VERTX_POOLS.contains(type) || VERTX_CONNECTIONS.contains(type)))
                                || (type == null
                                        && imports(
                                                call,
                                                "io.vertx.sqlclient.",
                                                "io.vertx.pgclient.",
                                                "io.vertx.reactivex.sqlclient.",
                                                "io.vertx.rxjava3.sqlclient.",
                                                "io.vertx.mutiny.sqlclient."))))) {
            return name.equals("preparedQuery") && !imports(call, "io.vertx.") && type == null
                    ? null
                    : ExecutionApi.VERTX_SQL;
        }
        boolean jdbiHandle = "Handle".equals(type) || (type == null && imports(call, "org.jdbi."));
        if (jdbiHandle
                && Set.of("createQuery", "createUpdate", "createCall", "select", "execute")
                        .contains(name)
                && imports(call, "org.jdbi.")) {
            return ExecutionApi.JDBI;
        }
        if (name.equals("prepareStatement")
                && call.getArguments().size() == 2
                && ("JdbcOperations".equals(type) || type == null)
                && imports(call, "io.micronaut.")) {
            return ExecutionApi.MICRONAUT_JDBC;
        }
        return null;
    }

    /**
     * @param scope the receiver of a plain-SQL call
     * @param type  its declared simple type, or null
     * @return true for a {@code DSLContext} (declared so, {@code DSL.using(..)}, or {@code x.dsl()})
     */
    private static boolean isJooqContext(Expression scope, String type, Node at) {
        if ("DSLContext".equals(type)) {
            return true;
        }
        if (scope instanceof MethodCallExpr m) {
            String n = m.getNameAsString();
            return (n.equals("using")
                            && (m.getScope()
                                    .map(s -> s.toString().equals("DSL"))
                                    .orElse(imports(at, "org.jooq."))))
                    || (n.equals("dsl") && m.getArguments().isEmpty() && imports(at, "org.jooq."));
        }
        return false;
    }

    /**
     * @param call a call
     * @return true for {@code DSL.function(..)} or {@code function(..)} statically imported from jOOQ's {@code DSL}
     */
    static boolean isJooqFunction(MethodCallExpr call) {
        return call.getNameAsString().equals("function") && call.getArguments().size() >= 2 && isDslCall(call);
    }

    /**
     * @param call a call
     * @return true for {@code DSL.field("..", ..)} / {@code DSL.condition("..", ..)} plain SQL templates
     */
    static boolean isJooqTemplate(MethodCallExpr call) {
        return JOOQ_TEMPLATES.contains(call.getNameAsString())
                && call.getArguments().isNonEmpty()
                && isDslCall(call);
    }

    private static boolean isDslCall(MethodCallExpr call) {
        Optional<Expression> scope = call.getScope();
        if (scope.isPresent()) {
            String s = scope.get().toString();
            return ((s.equals("DSL") || s.equals("org.jooq.impl.DSL")) && imports(call, "org.jooq."))
                    || s.equals("org.jooq.impl.DSL");
        }
        return imports(call, "org.jooq.impl.DSL");
    }

    /**
     * The bind values of a jOOQ call, in order: the arguments from {@code from} on, skipping result types
     * ({@code Boolean.class}, {@code SQLDataType.BOOLEAN}) and spreading an {@code Object[]} initializer,
     * each unwrapped from {@code DSL.val/inline/value}.
     *
     * @param call the call
     * @param from index of the first argument after the SQL or name
     * @return the expressions
     */
    static List<Expression> jooqBindings(MethodCallExpr call, int from) {
        List<Expression> out = new ArrayList<>();
        for (int i = from; i < call.getArguments().size(); i++) {
            Expression a = call.getArgument(i);
            if (isJooqType(a)) {
                continue;
            }
            if (a instanceof ArrayCreationExpr arr && arr.getInitializer().isPresent()) {
                arr.getInitializer().get().getValues().forEach(v -> out.add(unwrapJooqValue(v)));
            } else {
                out.add(unwrapJooqValue(a));
            }
        }
        return out;
    }

    /** {@code Boolean.class}, {@code SQLDataType.X}, {@code SQLDataType.X.nullable(..)}, a {@code DataType} constant. */
    private static boolean isJooqType(Expression a) {
        if (a instanceof ClassExpr) {
            return true;
        }
        String s = a.toString();
        return s.startsWith("SQLDataType.")
                || s.startsWith("PostgresDataType.")
                || s.startsWith("org.jooq.impl.SQLDataType.");
    }

    /**
     * @param e an argument
     * @return the value inside {@code DSL.val(x)}, {@code val(x)}, {@code DSL.inline(x)}, {@code DSL.value(x)}
     *     (with or without a type argument), else {@code e}
     */
    static Expression unwrapJooqValue(Expression e) {
        if (e instanceof MethodCallExpr m
                && JOOQ_VALUE_WRAPPERS.contains(m.getNameAsString())
                && m.getArguments().size() >= 1
                && m.getArguments().size() <= 2
                && m.getScope()
                        .map(s -> s.toString().equals("DSL") || s.toString().equals("org.jooq.impl.DSL"))
                        .orElse(true)) {
            return m.getArgument(0);
        }
        return e;
    }

    /**
     * @param call a call
     * @return the simple name of its receiver's declared type (field, parameter, local), or null when not visible
     */
    static String receiverType(MethodCallExpr call) {
        Expression scope = call.getScope().orElse(null);
        String declared = null;
        if (scope instanceof NameExpr n) {
            declared = JavaScopes.declaredType(n.getNameAsString(), call);
        } else if (scope instanceof FieldAccessExpr f && f.getScope().isThisExpr()) {
            declared = JavaScopes.declaredType(f.getNameAsString(), call);
        }
        return declared == null ? null : JavaScopes.simpleTypeName(declared);
    }

    /**
     * @param name a variable name
     * @param use  where it is read
     * @return the initializer of the local or field of that name, or null
     */
    static Expression initializer(String name, Node use) {
        Optional<VariableDeclarator> local = JavaScopes.local(name, use);
        if (local.isPresent()) {
            return local.get().getInitializer().orElse(null);
        }
        TypeDeclaration<?> type = use.findAncestor(TypeDeclaration.class).orElse(null);
        if (type != null) {
            for (VariableDeclarator v : type.findAll(VariableDeclarator.class)) {
                if (v.getNameAsString().equals(name) && v.getParentNode().orElse(null) instanceof FieldDeclaration) {
                    return v.getInitializer().orElse(null);
                }
            }
        }
        return null;
    }

    /**
     * @param n        a node
     * @param prefixes import prefixes, e.g. {@code org.jooq.}
     * @return true when the file imports a name starting with one of them
     */
    static boolean imports(Node n, String... prefixes) {
        Optional<CompilationUnit> cu = n.findCompilationUnit();
        if (cu.isEmpty()) {
            return false;
        }
        for (var i : cu.get().getImports()) {
            String q = i.getNameAsString();
            for (String p : prefixes) {
                if (q.startsWith(p)
                        || (q + ".").startsWith(p)
                        || (p.endsWith(".") && q.equals(p.substring(0, p.length() - 1)))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * For a jOOQ expression ({@code DSL.function}, a template) that is not itself executed, the
     * outermost call of its statement whose receiver is a {@code DSLContext}: the call that runs it.
     *
     * @param n the expression
     * @return that call, or null
     */
    static MethodCallExpr jooqExecutor(Node n) {
        MethodCallExpr found = null;
        for (Node cur = n.getParentNode().orElse(null);
                cur != null && !(cur instanceof Statement) && !(cur instanceof LambdaExpr);
                cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof MethodCallExpr m) {
                Expression root = m;
                while (root instanceof MethodCallExpr rm
                        && rm.getScope().isPresent()
                        && !rm.getNameAsString().equals("using")
                        && !rm.getNameAsString().equals("dsl")) {
                    root = rm.getScope().get();
                }
                MethodCallExpr first = firstCallOn(m, root);
                if (first != null && isJooqContext(root, rootType(root, m), m)) {
                    found = first;
                }
            }
        }
        return found;
    }

    private static String rootType(Expression root, Node use) {
        if (root instanceof NameExpr n) {
            String t = JavaScopes.declaredType(n.getNameAsString(), use);
            return t == null ? null : JavaScopes.simpleTypeName(t);
        }
        if (root instanceof FieldAccessExpr f && f.getScope().isThisExpr()) {
            String t = JavaScopes.declaredType(f.getNameAsString(), use);
            return t == null ? null : JavaScopes.simpleTypeName(t);
        }
        return null;
    }

    /** The call in a chain whose scope is {@code root}: {@code dsl.select(..)} in {@code dsl.select(..).fetch()}. */
    private static MethodCallExpr firstCallOn(MethodCallExpr chain, Expression root) {
        Expression cur = chain;
        while (cur instanceof MethodCallExpr m && m.getScope().isPresent()) {
            if (m.getScope().get() == root) {
                return m;
            }
            cur = m.getScope().get();
        }
        return null;
    }
}
