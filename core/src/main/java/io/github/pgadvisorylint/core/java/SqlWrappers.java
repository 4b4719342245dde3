package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.ArrayAccessExpr;
import com.github.javaparser.ast.expr.ArrayCreationExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.ApiFamily;
import io.github.pgadvisorylint.core.api.ConnectionSource;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.TransactionState;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * User-written JDBC wrappers of one file: methods such as {@code queryForObject(Connection c, String sql,
 * Object... args)} or {@code boolean exec(Connection c, String sql, long key)} whose body executes their
 * {@code String} parameter (or a copy of it with other text around it) on a database handle ({@code Connection},
 * {@code DataSource}, Spring
 * {@code JdbcTemplate} and friends, decided by the declared type of a parameter, local or field), and
 * bind their other parameters to its placeholders ({@code ps.setLong(1, key)}, a loop of
 * {@code ps.setObject(i + 1, args[i])}, or the varargs handed on to a template). A call of a wrapper
 * with literal or constant SQL is a lock site at that call, its keys bound through the call's arguments.
 * Calls resolve within the file by name and arity (a varargs wrapper takes any count from its fixed
 * parameters on); an overloaded name is not resolved.
 */
final class SqlWrappers {

    /** Declared types (simple names) of handles that execute SQL. */
    private static final Set<String> JDBC_HANDLES =
            Set.of("Connection", "DataSource", "Statement", "PreparedStatement");

    private static final Set<String> TEMPLATE_HANDLES =
            Set.of("JdbcTemplate", "JdbcOperations", "NamedParameterJdbcTemplate", "NamedParameterJdbcOperations");

    /** Calls that run their first argument as SQL: the JDBC and Spring JDBC entries of the catalog that take SQL text. */
    private static final ApiCatalog API = ApiCatalog.standard();

    private static final Set<ApiFamily> SQL_HANDLES = EnumSet.of(ApiFamily.JDBC, ApiFamily.SPRING_JDBC);

    private static final Set<String> SETTERS =
            Set.of("setLong", "setInt", "setObject", "setShort", "setBigDecimal", "setByte", "setString");

    /**
     * One wrapper method.
     *
     * @param method   its declaration
     * @param sqlParam index of the parameter holding the SQL
     * @param api      how its body executes the SQL
     * @param exec     the call in its body that executes the SQL (for how the result is read)
     * @param varargs  index of the parameter whose elements bind {@code ?1, ?2, ...} in order, or -1
     * @param fixed    1-based placeholder position to the index of the parameter bound to it
     * @param own      the connection the body borrows from a pool for the call and closes before it returns, or
     *                 null when the SQL runs on a handle the caller gives or keeps
     */
    record Wrapper(
            MethodDeclaration method,
            int sqlParam,
            ExecutionApi api,
            MethodCallExpr exec,
            int varargs,
            Map<Integer, Integer> fixed,
            OwnConnection own) {

        /** @return the wrapper's simple name, as written at its calls */
        String name() {
            return method.getNameAsString();
        }

        /**
         * @param call     a call of this wrapper
         * @param position the 1-based placeholder position
         * @return the call's argument bound to it, or null when not visible
         */
        Expression bound(MethodCallExpr call, int position) {
            Integer param = fixed.get(position);
            if (param != null) {
                return param < call.getArguments().size() ? call.getArgument(param) : null;
            }
            if (varargs < 0 || position < 1) {
                return null;
            }
            if (call.getArguments().size() == varargs + 1
                    && call.getArgument(varargs) instanceof ArrayCreationExpr array) {
                var values = array.getInitializer().map(i -> i.getValues()).orElse(null);
                return values != null && position <= values.size() ? values.get(position - 1) : null;
            }
            int at = varargs + position - 1;
            return at < call.getArguments().size() ? call.getArgument(at) : null;
        }
    }

    /**
     * A connection a wrapper borrows from a pool ({@code dataSource.getConnection()} on a {@code DataSource} or pool
     * type) for one call and closes before it returns (a try-with-resources resource, or {@code close()} in a
     * {@code finally}): whatever the SQL takes ends with the call. A transaction-level lock ends with the
     * transaction, at the latest when the pool takes the connection back (RULES.md F3, F13); a session-level lock
     * stays on the pooled connection the caller no longer holds (F1, F13).
     *
     * @param transaction {@link TransactionState#AUTOCOMMIT} when the body never turns autocommit off,
     *                    {@link TransactionState#ENDS_BEFORE_WORK} when it does (its commit, rollback or close ends
     *                    the transaction before the call returns)
     * @param scope       {@link ConnectionScope#POOLED_PER_CALL} for a pool's connection; {@link ConnectionScope#UNKNOWN}
     *                    for a {@code DriverManager} one, whose close ends the session (and its session-level locks)
     * @param evidence    a phrase naming the wrapper, e.g. {@code Database.fetchOne borrows a pooled connection ...}
     */
    record OwnConnection(TransactionState transaction, ConnectionScope scope, String evidence) {

        /** @return the execution context of a lock call run through the wrapper */
        ExecutionContext context() {
            return new ExecutionContext(transaction, evidence, null, scope, evidence);
        }
    }

    private final Map<String, List<Wrapper>> byName = new HashMap<>();
    private final Map<String, Integer> declared = new HashMap<>();

    /**
     * @param unit the file (its nested and second types' methods too), or one type of another file (its outline; its
     *             own methods, not its nested types'); its wrappers are found now
     */
    SqlWrappers(Node unit) {
        List<MethodDeclaration> others = new ArrayList<>();
        for (MethodDeclaration m : unit.findAll(MethodDeclaration.class)) {
            if (unit instanceof TypeDeclaration<?> type
                    && m.findAncestor(TypeDeclaration.class).orElse(null) != type) {
                continue; // a nested type's method (an interface's exec) is not called on this type's receiver
            }
            declared.merge(m.getNameAsString(), 1, Integer::sum);
            Wrapper w = wrapper(m);
            if (w != null) {
                byName.computeIfAbsent(m.getNameAsString(), k -> new ArrayList<>())
                        .add(w);
            } else {
                others.add(m);
            }
        }
        // one level of delegation: exec(sql, args) borrowing a connection and handing it, with its SQL, to
        // execOn(conn, sql, args)
        List<Wrapper> delegating = new ArrayList<>();
        for (MethodDeclaration m : others) {
            Wrapper w = delegating(m);
            if (w != null) {
                delegating.add(w);
            }
        }
        delegating.forEach(
                w -> byName.computeIfAbsent(w.name(), k -> new ArrayList<>()).add(w));
    }

    /**
     * A method that borrows a connection for the call and hands it, with its own {@code String} parameter as the SQL,
     * to a wrapper of this type that runs the SQL on the connection it is given ({@code execOn(conn, sql, args)}).
     *
     * @return the method as a wrapper with the inner one's execution and binding, seen through the arguments it
     *     passes, and its own connection discipline; null when it is no such method
     */
    private Wrapper delegating(MethodDeclaration m) {
        List<String> params =
                m.getParameters().stream().map(Parameter::getNameAsString).toList();
        for (MethodCallExpr call : m.findAll(MethodCallExpr.class)) {
            List<Wrapper> found = byName.get(call.getNameAsString());
            boolean onThis = call.getScope().isEmpty() || call.getScope().get() instanceof ThisExpr;
            if (!onThis || found == null || found.size() != 1 || declared.get(call.getNameAsString()) != 1) {
                continue;
            }
            Wrapper inner = found.get(0);
            int handle = handleParameter(inner);
            if (handle < 0
                    || !arity(inner, call)
                    || inner.sqlParam() >= call.getArguments().size()
                    || handle >= call.getArguments().size()
                    || !(call.getArgument(inner.sqlParam()) instanceof NameExpr sql)) {
                continue;
            }
            int sqlParam = params.indexOf(sql.getNameAsString());
            if (sqlParam < 0 || !isString(m.getParameter(sqlParam)) || reassigned(m, sql.getNameAsString())) {
                continue;
            }
            OwnConnection own = ownConnection(m, call.getArgument(handle));
            if (own == null) {
                continue;
            }
            int varargs = -1;
            if (inner.varargs() >= 0
                    && inner.varargs() < call.getArguments().size()
                    && call.getArgument(inner.varargs()) instanceof NameExpr v
                    && params.indexOf(v.getNameAsString()) >= 0
                    && isArray(m.getParameter(params.indexOf(v.getNameAsString())))) {
                varargs = params.indexOf(v.getNameAsString());
            }
            Map<Integer, Integer> fixed = new HashMap<>();
            for (Map.Entry<Integer, Integer> f : inner.fixed().entrySet()) {
                if (f.getValue() < call.getArguments().size()
                        && call.getArgument(f.getValue()) instanceof NameExpr v
                        && params.indexOf(v.getNameAsString()) >= 0) {
                    fixed.put(f.getKey(), params.indexOf(v.getNameAsString()));
                }
            }
            return new Wrapper(m, sqlParam, inner.api(), inner.exec(), varargs, Map.copyOf(fixed), own);
        }
        return null;
    }

    /** @return the index of the wrapper's parameter its executing call runs on ({@code conn} of conn.prepareStatement), or -1 */
    private static int handleParameter(Wrapper w) {
        Expression root = w.exec().getScope().orElse(null);
        for (int depth = 0; depth < 4 && root != null; depth++) {
            while (root instanceof MethodCallExpr mc && mc.getScope().isPresent()) {
                root = mc.getScope().get();
            }
            if (!(root instanceof NameExpr n)) {
                return -1;
            }
            int p = w.method().getParameters().stream()
                    .map(Parameter::getNameAsString)
                    .toList()
                    .indexOf(n.getNameAsString());
            if (p >= 0) {
                return "Connection"
                                .equals(JavaScopes.simpleTypeName(
                                        w.method().getParameter(p).getType().asString()))
                        ? p
                        : -1;
            }
            VariableDeclarator local =
                    JavaScopes.local(n.getNameAsString(), root).orElse(null);
            root = local == null ? null : local.getInitializer().orElse(null);
        }
        return -1;
    }

    /**
     * @param call a method call of the file
     * @return the wrapper it calls (unqualified, on {@code this}, or on a type of the file), or null
     */
    Wrapper resolve(MethodCallExpr call) {
        List<Wrapper> found = byName.get(call.getNameAsString());
        if (found == null || found.size() != 1 || declared.get(call.getNameAsString()) != 1) {
            return null;
        }
        Wrapper w = found.get(0);
        Expression scope = call.getScope().orElse(null);
        String owner = w.method()
                .findAncestor(TypeDeclaration.class)
                .map(TypeDeclaration::getNameAsString)
                .orElse("");
        boolean local = scope == null
                || scope instanceof ThisExpr
                || (scope instanceof NameExpr n && n.getNameAsString().equals(owner));
        if (!local
                || !arity(w, call)
                || call.findAncestor(MethodDeclaration.class).orElse(null) == w.method()) {
            return null;
        }
        return w;
    }

    /**
     * A call on a receiver declared as the type these wrappers were found in ({@code db.fetchOne(sql, ...)} with
     * {@code Database db}), from another file.
     *
     * @param call a method call whose receiver's declared type is this type
     * @return the wrapper it calls, or null when the name is not one wrapper of the type or the arity differs
     */
    Wrapper resolveOnReceiver(MethodCallExpr call) {
        List<Wrapper> found = byName.get(call.getNameAsString());
        if (found == null || found.size() != 1 || declared.get(call.getNameAsString()) != 1) {
            return null;
        }
        Wrapper w = found.get(0);
        return arity(w, call) ? w : null;
    }

    private static boolean arity(Wrapper w, MethodCallExpr call) {
        int params = w.method().getParameters().size();
        // a varargs parameter takes any count, whether or not the binding of its elements was seen
        boolean varargs = params > 0 && w.method().getParameter(params - 1).isVarArgs();
        return varargs
                ? call.getArguments().size() >= params - 1
                : call.getArguments().size() == params;
    }

    /** The method as a wrapper, or null when it executes no {@code String} parameter on a database handle. */
    private static Wrapper wrapper(MethodDeclaration m) {
        if (m.getBody().isEmpty()) {
            return null;
        }
        List<String> params =
                m.getParameters().stream().map(Parameter::getNameAsString).toList();
        for (MethodCallExpr exec : m.findAll(
                MethodCallExpr.class,
                c -> API.sqlTextApi(c.getNameAsString(), SQL_HANDLES).isPresent()
                        && c.getArguments().isNonEmpty()
                        && c.getScope().isPresent())) {
            if (!(exec.getArgument(0) instanceof NameExpr sql)) {
                continue;
            }
            int sqlParam = sqlParameter(m, params, sql, exec);
            if (sqlParam < 0) {
                continue;
            }
            String handle = handleType(exec.getScope().get(), exec, 0);
            if (handle == null) {
                continue;
            }
            boolean template = TEMPLATE_HANDLES.contains(handle);
            String name = exec.getNameAsString();
            ExecutionApi api = template
                    ? ExecutionApi.SPRING_JDBC_TEMPLATE
                    : name.equals("prepareStatement")
                            ? ExecutionApi.JDBC_PREPARED_STATEMENT
                            : name.equals("prepareCall")
                                    ? ExecutionApi.JDBC_CALLABLE_STATEMENT
                                    : name.startsWith("execute") ? ExecutionApi.JDBC_STATEMENT : null;
            if (api == null) {
                continue;
            }
            int varargs = -1;
            Map<Integer, Integer> fixed = new HashMap<>();
            String statement = api == ExecutionApi.SPRING_JDBC_TEMPLATE ? null : assignedName(exec);
            if (template) {
                // jdbc.queryForObject(sql, Boolean.class, args) or jdbc.update(sql, key)
                int position = 1;
                for (Expression a :
                        exec.getArguments().subList(1, exec.getArguments().size())) {
                    int p = a instanceof NameExpr n ? params.indexOf(n.getNameAsString()) : -1;
                    if (p >= 0 && isArray(m.getParameter(p))) {
                        varargs = p;
                    } else if (p >= 0 && p != sqlParam) {
                        fixed.put(position++, p);
                    }
                }
            } else if (statement != null) {
                for (MethodCallExpr set : m.findAll(
                        MethodCallExpr.class,
                        c -> SETTERS.contains(c.getNameAsString())
                                && c.getArguments().size() >= 2
                                && c.getScope()
                                        .map(s -> s.toString().equals(statement))
                                        .orElse(false))) {
                    Expression value = set.getArgument(1);
                    while (value instanceof CastExpr || value instanceof EnclosedExpr) {
                        value = value instanceof CastExpr c ? c.getExpression() : ((EnclosedExpr) value).getInner();
                    }
                    if (value instanceof ArrayAccessExpr access
                            && access.getName() instanceof NameExpr array
                            && params.indexOf(array.getNameAsString()) >= 0
                            && isArray(m.getParameter(params.indexOf(array.getNameAsString())))) {
                        varargs = params.indexOf(array.getNameAsString());
                    } else if (value instanceof NameExpr v
                            && params.indexOf(v.getNameAsString()) >= 0
                            && set.getArgument(0) instanceof IntegerLiteralExpr i) {
                        fixed.put(i.asNumber().intValue(), params.indexOf(v.getNameAsString()));
                    }
                }
            }
            return new Wrapper(
                    m, sqlParam, api, exec, varargs, Map.copyOf(fixed), template ? null : ownConnection(m, exec));
        }
        return null;
    }

    /**
     * The connection the executing call runs on when the wrapper opens it for this call alone: the receiver chain ends
     * at a local ({@code ps} from {@code conn.prepareStatement(sql)}, {@code conn}) first assigned a
     * {@code getConnection()} of a type the catalog knows as a connection source ({@link ApiCatalog#connectionKind}: a
     * {@code DataSource} or pool, or {@code DriverManager}), closed by its try-with-resources or a {@code conn.close()}
     * in a {@code finally}, and never returned.
     *
     * @return its discipline, or null when the handle is a parameter, a field, of no known source, or not seen to be
     *     closed
     */
    private static OwnConnection ownConnection(MethodDeclaration m, MethodCallExpr exec) {
        return ownConnection(m, exec.getScope().orElse(null));
    }

    /**
     * As {@link #ownConnection(MethodDeclaration, MethodCallExpr)}, for the handle expression itself (a statement or
     * connection local, or a call on one).
     */
    private static OwnConnection ownConnection(MethodDeclaration m, Expression handle) {
        Expression root = handle;
        VariableDeclarator connection = null;
        ConnectionSource source = null;
        for (int depth = 0; depth < 4 && root != null && connection == null; depth++) {
            while (root instanceof MethodCallExpr mc && mc.getScope().isPresent()) {
                root = mc.getScope().get();
            }
            if (!(root instanceof NameExpr n)) {
                return null;
            }
            VariableDeclarator local =
                    JavaScopes.local(n.getNameAsString(), root).orElse(null);
            Expression init = local == null ? null : local.getInitializer().orElse(null);
            if (init instanceof NullLiteralExpr) {
                // Connection conn = null; try { conn = ds.getConnection(); ... } finally { conn.close(); }
                init = onlyAssignment(m, local.getNameAsString());
            }
            if (init instanceof MethodCallExpr get && API.is(Role.BORROWS_CONNECTION, get.getNameAsString())) {
                source = get.getScope()
                        .map(SqlWrappers::sourceType)
                        .flatMap(API::connectionKind)
                        .orElse(null);
                connection = source == null ? null : local;
                if (connection == null) {
                    return null;
                }
            }
            root = init;
        }
        if (connection == null || !closedBeforeReturn(m, connection)) {
            return null;
        }
        String name = connection.getNameAsString();
        if (m.findAll(ReturnStmt.class).stream()
                .anyMatch(r -> r.getExpression()
                        .filter(e ->
                                e instanceof NameExpr n && n.getNameAsString().equals(name))
                        .isPresent())) {
            return null;
        }
        String owner = m.findAncestor(TypeDeclaration.class)
                        .map(t -> ((TypeDeclaration<?>) t).getNameAsString() + ".")
                        .orElse("")
                + m.getNameAsString();
        boolean transaction = !m.findAll(
                        MethodCallExpr.class,
                        c -> API.is(Role.SETS_AUTOCOMMIT, c.getNameAsString())
                                && c.getArguments().size() == 1
                                && c.getArgument(0) instanceof BooleanLiteralExpr b
                                && !b.getValue()
                                && c.getScope()
                                        .filter(sc -> sc.toString().equals(name))
                                        .isPresent())
                .isEmpty();
        boolean pooled = source == ConnectionSource.POOLED;
        String on = pooled
                ? "on a pooled connection it closes before it returns"
                : "on a connection of its own that it closes before it returns";
        ConnectionScope scope = pooled ? ConnectionScope.POOLED_PER_CALL : ConnectionScope.UNKNOWN;
        return transaction
                ? new OwnConnection(
                        TransactionState.ENDS_BEFORE_WORK, scope, owner + " runs it in a transaction of its own, " + on)
                : new OwnConnection(TransactionState.AUTOCOMMIT, scope, owner + " runs it in autocommit, " + on);
    }

    /** @return the simple type a {@code getConnection()} is called on: a static {@code DriverManager}, or a variable's */
    private static String sourceType(Expression scope) {
        if (scope instanceof NameExpr n && n.getNameAsString().equals("DriverManager")) {
            return "DriverManager";
        }
        return JavaScopes.receiverTypeName(scope);
    }

    /** @return the value of the method's one assignment to the local, or null when it has none or several */
    private static Expression onlyAssignment(MethodDeclaration m, String name) {
        List<AssignExpr> assignments = m.findAll(
                AssignExpr.class,
                a -> a.getOperator() == AssignExpr.Operator.ASSIGN
                        && a.getTarget() instanceof NameExpr t
                        && t.getNameAsString().equals(name));
        return assignments.size() == 1 ? assignments.get(0).getValue() : null;
    }

    /** True when the local is a try-with-resources resource, or a {@code finally} of the method closes it. */
    private static boolean closedBeforeReturn(MethodDeclaration m, VariableDeclarator connection) {
        Node declaration = connection.getParentNode().orElse(null);
        if (declaration != null
                && declaration.getParentNode().orElse(null) instanceof TryStmt t
                && t.getResources().contains(declaration)) {
            return true;
        }
        String name = connection.getNameAsString();
        return m.findAll(TryStmt.class).stream()
                .flatMap(t -> t.getFinallyBlock().stream())
                .anyMatch(f -> !f.findAll(
                                MethodCallExpr.class,
                                c -> c.getNameAsString().equals("close")
                                        && c.getScope()
                                                .filter(sc -> sc.toString().equals(name))
                                                .isPresent())
                        .isEmpty());
    }

    /**
     * The index of the {@code String} parameter whose text the executing call runs: the parameter itself, never
     * reassigned but to a tagged copy of itself ({@code sql = "-- app " + appName + "\n" + sql.trim()}), or a local
     * made from it so ({@code String tagged = sql + " -- job"}). A tag around the text changes nothing the lock
     * analysis reads.
     *
     * @return the index, or -1
     */
    private static int sqlParameter(MethodDeclaration m, List<String> params, NameExpr used, MethodCallExpr exec) {
        String name = used.getNameAsString();
        int p = params.indexOf(name);
        if (p < 0) {
            VariableDeclarator local = JavaScopes.local(name, exec).orElse(null);
            Expression init = local == null ? null : local.getInitializer().orElse(null);
            String from = init == null || reassigned(m, name) ? null : taggedCopyOf(init, params);
            p = from == null ? -1 : params.indexOf(from);
            name = from;
        }
        if (p < 0 || !isString(m.getParameter(p))) {
            return -1;
        }
        String param = name;
        boolean onlyTagged = m.findAll(AssignExpr.class).stream()
                .filter(a -> a.getTarget() instanceof NameExpr t
                        && t.getNameAsString().equals(param))
                .allMatch(a -> a.getOperator() == AssignExpr.Operator.ASSIGN
                        && param.equals(taggedCopyOf(a.getValue(), params)));
        return onlyTagged ? p : -1;
    }

    /**
     * @param e      an expression
     * @param params the method's parameter names
     * @return the one parameter the expression copies, perhaps trimmed, with other text concatenated around it
     *     ({@code x}, {@code x.trim()}, {@code "-- " + app + "\n" + x}), or null when it copies none or several
     */
    private static String taggedCopyOf(Expression e, List<String> params) {
        List<Expression> parts = new ArrayList<>();
        concatenated(e, parts);
        String found = null;
        for (Expression part : parts) {
            String name = copied(part);
            if (name != null && params.contains(name)) {
                if (found != null) {
                    return null;
                }
                found = name;
            }
        }
        return found;
    }

    private static void concatenated(Expression e, List<Expression> out) {
        while (e instanceof EnclosedExpr p) {
            e = p.getInner();
        }
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
            concatenated(b.getLeft(), out);
            concatenated(b.getRight(), out);
        } else {
            out.add(e);
        }
    }

    /** @return the variable a part names as it is or trimmed ({@code x}, {@code x.trim()}), else null */
    private static String copied(Expression e) {
        while (e instanceof EnclosedExpr p) {
            e = p.getInner();
        }
        if (e instanceof NameExpr n) {
            return n.getNameAsString();
        }
        if (e instanceof MethodCallExpr c
                && c.getArguments().isEmpty()
                && (c.getNameAsString().equals("trim") || c.getNameAsString().equals("strip"))
                && c.getScope().isPresent()) {
            return copied(c.getScope().get());
        }
        return null;
    }

    /**
     * The simple declared type of the handle a receiver chain starts from, following locals to their
     * initializer ({@code Statement st = c.createStatement()}): {@code Connection}, {@code DataSource},
     * a template type; null when it is none of them.
     */
    private static String handleType(Expression receiver, Node use, int depth) {
        Expression root = receiver;
        while (root instanceof MethodCallExpr mc && mc.getScope().isPresent()) {
            root = mc.getScope().get();
        }
        while (root instanceof EnclosedExpr p) {
            root = p.getInner();
        }
        String name = root instanceof NameExpr n
                ? n.getNameAsString()
                : root instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr ? f.getNameAsString() : null;
        if (name == null || depth > 3) {
            return null;
        }
        String declared = JavaScopes.declaredType(name, use);
        String simple = declared == null ? null : JavaScopes.simpleTypeName(declared);
        Optional<VariableDeclarator> local = root instanceof NameExpr ? JavaScopes.local(name, use) : Optional.empty();
        if (local.isPresent() && local.get().getInitializer().isPresent()) {
            // a statement or connection taken from a handle: its origin decides
            String origin = handleType(local.get().getInitializer().get(), local.get(), depth + 1);
            if (origin != null) {
                return origin;
            }
        }
        return simple != null && (JDBC_HANDLES.contains(simple) || TEMPLATE_HANDLES.contains(simple)) ? simple : null;
    }

    private static boolean isString(Parameter p) {
        String t = p.getType().asString();
        return !p.isVarArgs() && (t.equals("String") || t.equals("java.lang.String") || t.equals("CharSequence"));
    }

    private static boolean isArray(Parameter p) {
        return p.isVarArgs() || p.getType().isArrayType();
    }

    private static boolean reassigned(MethodDeclaration m, String name) {
        return m.findAll(AssignExpr.class).stream()
                .anyMatch(a -> a.getTarget() instanceof NameExpr n
                        && n.getNameAsString().equals(name));
    }

    /** The local a call's value is stored in ({@code PreparedStatement ps = c.prepareStatement(sql)}), or null. */
    private static String assignedName(MethodCallExpr call) {
        Node parent = call.getParentNode().orElse(null);
        while (parent instanceof CastExpr || parent instanceof EnclosedExpr) {
            parent = parent.getParentNode().orElse(null);
        }
        if (parent instanceof VariableDeclarator v) {
            return v.getNameAsString();
        }
        if (parent instanceof AssignExpr a && a.getTarget() instanceof NameExpr n) {
            return n.getNameAsString();
        }
        return null;
    }
}
