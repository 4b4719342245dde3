package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.ArrayCreationExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Finds the Java expression bound to a SQL parameter: JDBC {@code setLong/setInt/setObject(index, expr)}
 * on the statement the SQL was prepared into, Spring {@code JdbcTemplate} varargs and {@code Object[]},
 * {@code NamedParameterJdbcTemplate} with {@code Map.of} or {@code MapSqlParameterSource.addValue},
 * JPA {@code setParameter(position|name, expr)}, R2DBC and JDBI {@code .bind(index|"$n"|"name", expr)},
 * Vert.x {@code execute(Tuple.of(..))}, Micronaut {@code prepareStatement(sql, st -> st.setLong(..))},
 * and setters on a statement field prepared elsewhere in the class. Returns null when the binding is
 * not visible.
 */
final class ParameterBinder {

    private static final Set<String> SETTERS =
            Set.of("setLong", "setInt", "setObject", "setShort", "setBigDecimal", "setByte", "setString");

    private ParameterBinder() {}

    /**
     * @param api      how the SQL is executed
     * @param call     the executing call (its first argument is the SQL)
     * @param position 1-based position of a {@code ?} or {@code $n} parameter, or 0 for a named one
     * @param name     the name of a {@code :name} or {@code #{name}} parameter, or null
     * @return the bound expression, or null
     */
    static Expression bound(ExecutionApi api, MethodCallExpr call, int position, String name) {
        if (call == null) {
            return null;
        }
        return switch (api) {
            case JDBC_PREPARED_STATEMENT, JDBC_CALLABLE_STATEMENT -> jdbcSetter(call, position);
            case JPA_NATIVE_QUERY -> jpaParameter(call, position, name);
            case R2DBC -> chainBind(call, position, name);
            case JDBI ->
                call.getNameAsString().equals("select")
                                || call.getNameAsString().equals("execute")
                        ? (name != null ? null : positional(call, position))
                        : chainBind(call, position, name);
            case VERTX_SQL -> vertxTuple(call, position);
            case MICRONAUT_JDBC -> callbackSetter(call, position);
            default -> name != null ? named(call, name) : positional(call, position);
        };
    }

    private static Expression jdbcSetter(MethodCallExpr call, int position) {
        String var = assignedVariable(call);
        Node scope =
                call.findAncestor(CallableDeclaration.class).map(n -> (Node) n).orElse(null);
        if (var == null || scope == null || position < 1) {
            return null;
        }
        Expression found = null;
        for (MethodCallExpr set : JavaScopes.calls(scope)) {
            if (SETTERS.contains(set.getNameAsString())
                    && set.getArguments().size() >= 2
                    && set.getScope().map(s -> s.toString().equals(var)).orElse(false)
                    && set.getArgument(0) instanceof IntegerLiteralExpr i
                    && i.asNumber().intValue() == position) {
                if (found != null && !found.toString().equals(set.getArgument(1).toString())) {
                    return null; // bound to different values on different paths
                }
                found = set.getArgument(1);
            }
        }
        return found;
    }

    /**
     * R2DBC and JDBI: {@code .bind(index, v)} (0-based), {@code .bind("$n", v)} or {@code .bind("name", v)}
     * chained on the call or on the variable holding its result.
     */
    private static Expression chainBind(MethodCallExpr call, int position, String name) {
        Node n = call;
        while (n.getParentNode().orElse(null) instanceof MethodCallExpr parent
                && parent.getScope().orElse(null) == n) {
            Expression found = bindValue(parent, position, name);
            if (found != null) {
                return found;
            }
            n = parent;
        }
        String var = assignedVariable(call);
        Node scope =
                call.findAncestor(CallableDeclaration.class).map(x -> (Node) x).orElse(null);
        if (var == null || scope == null) {
            return null;
        }
        for (MethodCallExpr m : JavaScopes.calls(scope)) {
            Expression root = m;
            while (root instanceof MethodCallExpr rm && rm.getScope().isPresent()) {
                root = rm.getScope().get();
            }
            if (root.toString().equals(var)) {
                Expression found = bindValue(m, position, name);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static Expression bindValue(MethodCallExpr bind, int position, String name) {
        if (!bind.getNameAsString().equals("bind") || bind.getArguments().size() != 2) {
            return null;
        }
        Expression key = bind.getArgument(0);
        if (key instanceof IntegerLiteralExpr i && name == null && i.asNumber().intValue() == position - 1) {
            return bind.getArgument(1);
        }
        if (key instanceof StringLiteralExpr s
                && ((name != null && s.asString().equals(name))
                        || (name == null && s.asString().equals("$" + position)))) {
            return bind.getArgument(1);
        }
        return null;
    }

    /** Vert.x: {@code .execute(Tuple.of(a, b))} on the call's chain, or a local {@code Tuple} built with {@code Tuple.of}. */
    private static Expression vertxTuple(MethodCallExpr call, int position) {
        Node n = call;
        while (n.getParentNode().orElse(null) instanceof MethodCallExpr parent
                && parent.getScope().orElse(null) == n) {
            if (parent.getNameAsString().equals("execute")
                    && parent.getArguments().size() == 1) {
                Expression tuple = parent.getArgument(0);
                if (tuple instanceof NameExpr v) {
                    tuple = ApiSurfaces.initializer(v.getNameAsString(), parent);
                }
                if (tuple instanceof MethodCallExpr of
                        && (of.getNameAsString().equals("of")
                                || of.getNameAsString().equals("tuple"))
                        && position >= 1
                        && position <= of.getArguments().size()) {
                    return of.getArgument(position - 1);
                }
                return null;
            }
            n = parent;
        }
        return null;
    }

    /** Micronaut {@code prepareStatement(sql, st -> { st.setLong(1, k); ... })}: setters on the callback's parameter. */
    private static Expression callbackSetter(MethodCallExpr call, int position) {
        for (Expression a : call.getArguments()) {
            if (a instanceof LambdaExpr l && l.getParameters().isNonEmpty()) {
                String var = l.getParameter(0).getNameAsString();
                for (MethodCallExpr set : JavaScopes.calls(l)) {
                    if (SETTERS.contains(set.getNameAsString())
                            && set.getArguments().size() >= 2
                            && set.getScope().map(s -> s.toString().equals(var)).orElse(false)
                            && set.getArgument(0) instanceof IntegerLiteralExpr i
                            && i.asNumber().intValue() == position) {
                        return set.getArgument(1);
                    }
                }
            }
        }
        return null;
    }

    /**
     * A statement prepared into a field ({@code this.lockStmt = conn.prepareStatement(..)}) and executed in
     * another method: the setter on that field in the executing method.
     *
     * @param exec     the execution call ({@code lockStmt.execute()})
     * @param field    the field's name
     * @param position the 1-based parameter position
     * @return the bound expression, or null when not set there, or set to different values
     */
    static Expression fieldSetter(MethodCallExpr exec, String field, int position) {
        Node scope =
                exec.findAncestor(CallableDeclaration.class).map(n -> (Node) n).orElse(null);
        if (scope == null || position < 1) {
            return null;
        }
        Expression found = null;
        for (MethodCallExpr set : JavaScopes.calls(scope)) {
            if (SETTERS.contains(set.getNameAsString())
                    && set.getArguments().size() >= 2
                    && set.getScope()
                            .map(s -> s.toString().equals(field) || s.toString().equals("this." + field))
                            .orElse(false)
                    && set.getArgument(0) instanceof IntegerLiteralExpr i
                    && i.asNumber().intValue() == position) {
                if (found != null && !found.toString().equals(set.getArgument(1).toString())) {
                    return null;
                }
                found = set.getArgument(1);
            }
        }
        return found;
    }

    private static Expression jpaParameter(MethodCallExpr call, int position, String name) {
        Node n = call;
        while (n.getParentNode().orElse(null) instanceof MethodCallExpr parent
                && parent.getScope().orElse(null) == n) {
            if (parent.getNameAsString().equals("setParameter")
                    && parent.getArguments().size() >= 2) {
                Expression key = parent.getArgument(0);
                if ((name != null
                                && key instanceof StringLiteralExpr s
                                && s.asString().equals(name))
                        || (name == null
                                && key instanceof IntegerLiteralExpr i
                                && i.asNumber().intValue() == position)) {
                    return parent.getArgument(1);
                }
            }
            n = parent;
        }
        String var = assignedVariable(call);
        Node scope =
                call.findAncestor(CallableDeclaration.class).map(x -> (Node) x).orElse(null);
        if (var != null && scope != null) {
            for (MethodCallExpr set : JavaScopes.calls(scope)) {
                if (set.getNameAsString().equals("setParameter")
                        && set.getArguments().size() >= 2
                        && set.getScope().map(s -> s.toString().equals(var)).orElse(false)) {
                    Expression key = set.getArgument(0);
                    if ((name != null
                                    && key instanceof StringLiteralExpr s
                                    && s.asString().equals(name))
                            || (name == null
                                    && key instanceof IntegerLiteralExpr i
                                    && i.asNumber().intValue() == position)) {
                        return set.getArgument(1);
                    }
                }
            }
        }
        return null;
    }

    /** Varargs or an {@code Object[]} after the SQL, skipping row mappers and result classes. */
    private static Expression positional(MethodCallExpr call, int position) {
        List<Expression> values = new ArrayList<>();
        for (int i = 1; i < call.getArguments().size(); i++) {
            Expression a = call.getArgument(i);
            if (a instanceof ArrayCreationExpr arr && arr.getInitializer().isPresent()) {
                values.addAll(arr.getInitializer().get().getValues());
            } else if (!isCallbackOrType(a)) {
                values.add(a);
            }
        }
        return position >= 1 && position <= values.size() ? values.get(position - 1) : null;
    }

    private static boolean isCallbackOrType(Expression a) {
        if (a instanceof ClassExpr || a instanceof LambdaExpr || a instanceof MethodReferenceExpr) {
            return true;
        }
        String text = a instanceof ObjectCreationExpr oc
                ? oc.getType().getNameAsString()
                : a instanceof NameExpr n ? n.getNameAsString() : "";
        String lower = text.toLowerCase(Locale.ROOT);
        return lower.contains("mapper")
                || lower.contains("extractor")
                || lower.contains("callback")
                || lower.contains("handler")
                || lower.contains("creator")
                || lower.contains("setter");
    }

    /** {@code Map.of("k", v)}, {@code new MapSqlParameterSource("k", v).addValue(...)}, or a local holding one. */
    private static Expression named(MethodCallExpr call, String name) {
        for (int i = 1; i < call.getArguments().size(); i++) {
            Expression found = namedIn(call.getArgument(i), name, call);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static Expression namedIn(Expression a, String name, Node context) {
        if (a instanceof MethodCallExpr m) {
            if ((m.getNameAsString().equals("of") || m.getNameAsString().equals("addValue"))
                    && m.getArguments().size() >= 2) {
                for (int i = 0; i + 1 < m.getArguments().size(); i += 2) {
                    if (m.getArgument(i) instanceof StringLiteralExpr s
                            && s.asString().equals(name)) {
                        return m.getArgument(i + 1);
                    }
                }
            }
            return m.getScope().map(s -> namedIn(s, name, context)).orElse(null);
        }
        if (a instanceof ObjectCreationExpr oc
                && oc.getArguments().size() == 2
                && oc.getArgument(0) instanceof StringLiteralExpr s
                && s.asString().equals(name)) {
            return oc.getArgument(1);
        }
        if (a instanceof NameExpr n) {
            Node scope = context.findAncestor(CallableDeclaration.class)
                    .map(x -> (Node) x)
                    .orElse(null);
            if (scope == null) {
                return null;
            }
            for (VariableDeclarator v : scope.findAll(VariableDeclarator.class)) {
                if (v.getNameAsString().equals(n.getNameAsString())
                        && v.getInitializer().isPresent()) {
                    Expression found = namedIn(v.getInitializer().get(), name, context);
                    if (found != null) {
                        return found;
                    }
                }
            }
            for (MethodCallExpr m : JavaScopes.calls(scope)) {
                if ((m.getNameAsString().equals("addValue")
                                || m.getNameAsString().equals("put"))
                        && m.getScope()
                                .map(s -> s.toString().equals(n.getNameAsString()))
                                .orElse(false)
                        && m.getArguments().size() == 2
                        && m.getArgument(0) instanceof StringLiteralExpr s
                        && s.asString().equals(name)) {
                    return m.getArgument(1);
                }
            }
        }
        return null;
    }

    private static String assignedVariable(MethodCallExpr call) {
        Node p = call.getParentNode().orElse(null);
        if (p instanceof VariableDeclarator v) {
            return v.getNameAsString();
        }
        if (p instanceof AssignExpr a) {
            return a.getTarget().toString();
        }
        return null;
    }
}
