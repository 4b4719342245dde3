package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.ArrayCreationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.SwitchExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.SwitchStmt;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.ApiFamily;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.facts.HelperSummary;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.LoopContext;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import io.github.pgadvisorylint.core.model.ResultUse;
import io.github.pgadvisorylint.core.model.SiteUsage;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.TimeoutEvidence;
import io.github.pgadvisorylint.core.model.TransactionBoundary;
import io.github.pgadvisorylint.core.model.TransactionState;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.sql.RowLimits;
import io.github.pgadvisorylint.core.sql.SqlTimeouts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Computes the {@link SiteUsage} of every Java lock site of one file from the syntax tree around its
 * executing call (RULES.md try-lock-result-ignored, unbounded-lock-count, blocking-lock-without-timeout,
 * unlock-mismatch):
 * <ul>
 *   <li>for {@code pg_try_*} calls whose value is the query's result (select list, {@code CALL}), how
 *       that boolean reaches a decision: never read, {@code Statement.execute}'s flag (F14), row
 *       existence, read but not deciding, deciding or returned; for unlocks, a dropped
 *       {@code execute(...)} statement;</li>
 *   <li>the innermost loop around an acquisition ({@code for}, for-each, {@code while},
 *       {@code forEach}/stream lambdas), whether the code bounds it, whether the key varies per
 *       iteration and whether each iteration releases (F11);</li>
 *   <li>a lock or statement timeout in force (F12): {@code SET lock_timeout} executed earlier in the
 *       method (or in a method of the same class it calls first), {@code setQueryTimeout}, JPA / jOOQ
 *       query timeouts, Spring {@code @Transactional(timeout = n)};</li>
 *   <li>whether the call runs unconditionally within its method, and whether its connection was just
 *       taken from a pool ({@code getConnection()}) or a per-call template (F5, F13).</li>
 * </ul>
 * Not thread-safe; one instance per file.
 */
final class SiteUsageAnalyzer {

    /** Result reads, row tests, fetches, query options, values passed through, loggers and SQL-taking calls. */
    private static final ApiCatalog API = ApiCatalog.standard();
    /** The evidence of a method's own new transaction: Spring's or JTA's {@code @Transactional}, EJB's attribute. */
    private static final Pattern OWN_NEW_TRANSACTION =
            Pattern.compile("@(Transactional|TransactionAttribute)\\(REQUIRES_NEW\\) on method");

    private final SourceFile file;
    private final StringEvaluator strings;
    private final Map<LockSite, Node> nodes;
    private final Map<LockSite, SiteUsage> sqlUsages;
    private final Map<String, LockLifecycle> lifecycles = new HashMap<>();
    private final Map<LockSite, HelperSummary> helperOf;
    private final Map<LockSite, SqlWrappers.Wrapper> wrapped;
    /** Spring's transaction around a node of this file. */
    private final SpringTransactions spring = new SpringTransactions(this::region);

    /**
     * @param file       the file
     * @param strings    its string evaluator (for SQL executed before a lock)
     * @param nodes      each site's node: the executing call, or the call of a lock helper
     * @param sqlUsages  what the SQL text itself says about each site (a {@code SET} earlier in the string)
     * @param lifecycles the file's lifecycles (a helper that releases inside, per iteration)
     * @param helperOf   for each site at a call of a lock helper, the helper (a repository method whose
     *                   return value is the lock's boolean is judged at its calls)
     * @param wrapped    the sites run through a user-written JDBC wrapper, with the wrapper
     */
    SiteUsageAnalyzer(
            SourceFile file,
            StringEvaluator strings,
            Map<LockSite, Node> nodes,
            Map<LockSite, SiteUsage> sqlUsages,
            List<LockLifecycle> lifecycles,
            Map<LockSite, HelperSummary> helperOf,
            Map<LockSite, SqlWrappers.Wrapper> wrapped) {
        this.file = file;
        this.wrapped = wrapped;
        this.strings = strings;
        this.nodes = nodes;
        this.sqlUsages = sqlUsages;
        this.helperOf = helperOf;
        for (LockLifecycle l : lifecycles) {
            this.lifecycles.put(l.acquisition().id(), l);
        }
    }

    /**
     * @param sites the file's sites
     * @return the usage of each, by site id; sites without a node keep what their SQL says
     */
    Map<String, SiteUsage> analyze(List<LockSite> sites) {
        Map<String, SiteUsage> out = new HashMap<>();
        for (LockSite site : sites) {
            SiteUsage base = sqlUsages.getOrDefault(site, SiteUsage.UNKNOWN);
            Node node = nodes.get(site);
            if (node == null
                    || site.api() == ExecutionApi.DECLARATION
                    || site.api() == ExecutionApi.SPRING_DATA_QUERY
                    || JavaScopes.callableOf(node) == null) {
                out.put(site.id(), base);
                continue;
            }
            try {
                out.put(site.id(), usage(site, node, base, sites));
            } catch (RuntimeException e) {
                out.put(site.id(), base); // never let a usage question break the file's analysis
            }
        }
        return out;
    }

    private SiteUsage usage(LockSite site, Node node, SiteUsage base, List<LockSite> sites) {
        ResultUse result = base.result();
        String note = base.resultNote();
        LockOperation op = site.function().operation();
        if (!site.viaHelper() && node instanceof MethodCallExpr exec) {
            Verdict v = null;
            SqlWrappers.Wrapper wrapper = wrapped.get(site);
            if (wrapper != null) {
                v = op == LockOperation.TRY_ACQUIRE && result == ResultUse.UNKNOWN
                        ? throughWrapper(site, exec, wrapper)
                        : null;
            } else if (op == LockOperation.TRY_ACQUIRE && result == ResultUse.UNKNOWN) {
                v = tryResult(site, exec);
            } else if (op == LockOperation.RELEASE) {
                v = unlockResult(exec);
            }
            if (v != null) {
                result = v.use;
                note = v.note;
            }
        } else if (site.viaHelper()
                && node instanceof MethodCallExpr call
                && helperOf.containsKey(site)
                && helperOf.get(site).returnsLockResult()) {
            Verdict v = op == LockOperation.TRY_ACQUIRE
                    ? repositoryTryResult(call)
                    : op == LockOperation.RELEASE ? repositoryUnlockResult(call) : null;
            if (v != null) {
                result = v.use;
                note = v.note;
            }
        } else if (site.viaHelper()
                && op == LockOperation.TRY_ACQUIRE
                && node instanceof MethodCallExpr call
                && helperOf.containsKey(site)
                && helperOf.get(site).answersTry()
                && dropped(call.getParentNode().orElse(null))) {
            // only a dropped answer: a stored one may be a flag the object tests later
            result = ResultUse.NEVER_READ;
            note = "the boolean " + call.getNameAsString() + "(...) answers, whether it took the lock, is dropped";
        }
        LoopContext loop = op.isAcquisition() ? loop(site, node, sites) : null;
        TimeoutEvidence timeout = base.timeout();
        if (timeout == null
                && op == LockOperation.ACQUIRE
                && !site.viaHelper()
                && node instanceof MethodCallExpr exec) {
            timeout = javaTimeout(exec);
        }
        return new SiteUsage(result, note, loop, timeout, straightLine(node), fresh(site, node));
    }

    // ------------------------------------------------------------------ results

    /** A judgement with its explanation. */
    private record Verdict(ResultUse use, String note) {}

    /** How far a value flows: ranked, the best use of several wins. */
    private enum Flow {
        DROPPED,
        NOT_DECIDING,
        UNKNOWN,
        RETURNED,
        DECIDES
    }

    private record FlowNote(Flow flow, String note) {}

    /**
     * A try-lock run through a user-written JDBC wrapper: how the wrapper's body reads the result of its
     * execution decides. A wrapper that returns the value hands the question to its call (read like
     * {@code queryForObject}); one that drops it, or returns {@code execute}'s flag, never lets the value
     * decide, whatever the call does.
     */
    private Verdict throughWrapper(LockSite site, MethodCallExpr call, SqlWrappers.Wrapper wrapper) {
        SqlClause clause = site.sql().clause();
        if (site.sql().depth() > 0 || !(clause == SqlClause.SELECT_LIST || clause == SqlClause.CALL)) {
            return null;
        }
        Verdict inner = tryResult(wrapper.api(), !site.sql().readsRows(), clause, wrapper.exec());
        if (inner == null) {
            return null;
        }
        String name = call.getNameAsString() + "(...)";
        return switch (inner.use) {
            case RETURNED -> value(call, "the result of " + name);
            case DECIDES -> inner;
            case EXECUTE_FLAG ->
                new Verdict(
                        inner.use,
                        name + ", which returns execute(...)'s flag: true whenever the"
                                + " statement yields a result set, whatever the lock's value (F14)");
            case NEVER_READ, ROW_EXISTENCE, READ_NOT_DECIDING ->
                new Verdict(inner.use, "inside " + name + ", " + inner.note);
            default -> null;
        };
    }

    private Verdict tryResult(LockSite site, MethodCallExpr exec) {
        SqlClause clause = site.sql().clause();
        if (site.sql().depth() > 0 || !(clause == SqlClause.SELECT_LIST || clause == SqlClause.CALL)) {
            return null; // a try-lock filtering rows: the rows returned are the decision
        }
        return tryResult(site.api(), !site.sql().readsRows(), clause, exec);
    }

    private Verdict tryResult(ExecutionApi api, boolean oneRow, SqlClause clause, MethodCallExpr exec) {
        String name = exec.getNameAsString();
        switch (name) {
            case "prepareStatement", "prepareCall" -> {
                return prepared(exec, oneRow, clause == SqlClause.CALL);
            }
            case "createNativeQuery", "createSQLQuery", "sql", "createQuery" -> {
                return chained(exec, oneRow);
            }
            case "execute", "executeQuery", "executeUpdate", "executeLargeUpdate" -> {
                if (api == ExecutionApi.SPRING_JDBC_TEMPLATE && name.equals("execute")) {
                    return exec.getArguments().size() == 1
                            ? new Verdict(
                                    ResultUse.NEVER_READ,
                                    "JdbcTemplate.execute(String) returns nothing: the lock's value is thrown away")
                            : null;
                }
                return producer(exec, oneRow);
            }
            case "queryForObject", "queryForMap", "queryForLong", "queryForInt" -> {
                return value(exec, "the result of " + name + "(...)");
            }
            case "queryForList", "queryForRowSet" -> {
                return name.equals("queryForList") ? list(exec, oneRow) : resultSet(exec, oneRow);
            }
            case "query" -> {
                boolean ambiguous = exec.getArguments().stream()
                        .anyMatch(a ->
                                (a instanceof LambdaExpr l && l.getParameters().size() == 1)
                                        || a.isMethodReferenceExpr());
                if (api != ExecutionApi.SPRING_JDBC_TEMPLATE) {
                    return chained(exec, oneRow);
                }
                LambdaExpr blind = exec.getArguments().stream()
                        .filter(a ->
                                a instanceof LambdaExpr l && l.getParameters().size() == 1 && !readsParameter(l))
                        .map(a -> (LambdaExpr) a)
                        .findFirst()
                        .orElse(null);
                if (blind != null) {
                    // a ResultSetExtractor or RowCallbackHandler (rs -> null) that never looks at the result set
                    return new Verdict(ResultUse.NEVER_READ, "the callback " + blind + " never reads the result set");
                }
                return ambiguous ? null : list(exec, oneRow);
            }
            case "update" -> {
                return api == ExecutionApi.SPRING_JDBC_TEMPLATE
                        ? new Verdict(ResultUse.NEVER_READ, "update(...) returns a row count, never the lock's value")
                        : null;
            }
            default -> {
                if (api == ExecutionApi.OTHER_CALL
                        && dropped(exec.getParentNode().orElse(null))
                        && name.matches("(exec|query|fetch|run|select)\\w*")) {
                    return new Verdict(ResultUse.NEVER_READ, "the value " + name + "(...) returns is dropped");
                }
                return null;
            }
        }
    }

    /** @return whether the body of a one-parameter lambda names its parameter */
    private static boolean readsParameter(LambdaExpr l) {
        String p = l.getParameter(0).getNameAsString();
        return l.getBody().findAll(NameExpr.class).stream()
                .anyMatch(n -> n.getNameAsString().equals(p));
    }

    /**
     * A call of a repository method that returns the try-lock's boolean: dropped by an expression
     * statement (never read), or followed to where it decides, is returned, or is only stored or logged.
     */
    private Verdict repositoryTryResult(MethodCallExpr call) {
        String what = "the boolean " + call.getNameAsString() + "(...) returns";
        if (dropped(call.getParentNode().orElse(null))) {
            return new Verdict(ResultUse.NEVER_READ, what + " is dropped");
        }
        return fromFlows(List.of(call), what);
    }

    /** A call of a repository method that returns the unlock's boolean, in a statement that drops it. */
    private static Verdict repositoryUnlockResult(MethodCallExpr call) {
        return dropped(call.getParentNode().orElse(null))
                ? new Verdict(
                        ResultUse.DISCARDED,
                        call.getNameAsString() + "(...) returns the unlock's boolean and the statement drops it")
                : null;
    }

    private Verdict unlockResult(MethodCallExpr exec) {
        MethodCallExpr p = exec;
        String name = exec.getNameAsString();
        if (name.equals("prepareStatement") || name.equals("prepareCall")) {
            p = statementExecution(exec).orElse(null);
            if (p == null) {
                return null;
            }
        }
        String pn = p.getNameAsString();
        if ((pn.equals("execute") || pn.equals("executeQuery"))
                && dropped(p.getParentNode().orElse(null))
                && laterCall(p, receiverName(p), "getResultSet").isEmpty()) {
            return new Verdict(ResultUse.DISCARDED, pn + "(...) runs the unlock and drops its boolean");
        }
        if (pn.equals("queryForObject") && dropped(p.getParentNode().orElse(null))) {
            return new Verdict(ResultUse.DISCARDED, "the Boolean queryForObject(...) returns is dropped");
        }
        if (pn.equals("executeQuery")
                && p.getParentNode().orElse(null) instanceof MethodCallExpr close
                && close.getNameAsString().equals("close")
                && close.getScope().orElse(null) == p
                && dropped(close.getParentNode().orElse(null))) {
            return new Verdict(
                    ResultUse.DISCARDED, "executeQuery() runs the unlock and its result set is closed unread");
        }
        MethodCallExpr top = chainTop(exec);
        if ((API.is(Role.FETCHES_ONE, top.getNameAsString(), JPA)
                        || API.is(Role.FETCHES_LIST, top.getNameAsString(), JPA))
                && dropped(top.getParentNode().orElse(null))) {
            return new Verdict(
                    ResultUse.DISCARDED,
                    top.getNameAsString() + "() returns the unlock's boolean and the statement drops it");
        }
        return null;
    }

    /** JPA and Hibernate queries, whose fetches ({@code getSingleResult}, {@code list}) return the selected value. */
    private static final Set<ApiFamily> JPA = Set.of(ApiFamily.JPA);

    /** The last call of a fluent chain that starts at a call: {@code q.setParameter(..).getSingleResult()}. */
    private static MethodCallExpr chainTop(MethodCallExpr call) {
        MethodCallExpr cur = call;
        while (cur.getParentNode().orElse(null) instanceof MethodCallExpr parent
                && parent.getScope().orElse(null) == cur) {
            cur = parent;
        }
        return cur;
    }

    /** A prepared or callable statement: follow it to its execution. */
    private Verdict prepared(MethodCallExpr exec, boolean oneRow, boolean call) {
        Optional<MethodCallExpr> run = statementExecution(exec);
        String var = assignedName(exec);
        if (call && var != null) {
            List<MethodCallExpr> reads = callsOn(
                    exec,
                    var,
                    n -> n.startsWith("get") && !n.equals("getResultSet") && !API.is(Role.DESCRIBES_RESULT, n));
            if (!reads.isEmpty()) {
                return fromFlows(reads, "the OUT parameter");
            }
        }
        return run.map(r -> producer(r, oneRow)).orElse(null);
    }

    /** JPA, Hibernate, JdbcClient or JDBI: follow the fluent chain (or its variable) to the call that fetches. */
    private Verdict chained(MethodCallExpr exec, boolean oneRow) {
        MethodCallExpr cur = exec;
        for (int i = 0; i < 12; i++) {
            Node parent = cur.getParentNode().orElse(null);
            MethodCallExpr here = cur;
            if (parent instanceof MethodCallExpr p
                    && p.getScope().filter(s -> s == here).isPresent()) {
                String n = p.getNameAsString();
                if (API.is(Role.FETCHES_ONE, n)) {
                    return value(p, "the result of " + n + "()");
                }
                if (API.is(Role.FETCHES_LIST, n)) {
                    return list(p, oneRow);
                }
                if (n.equals("executeUpdate") || n.equals("update") || n.equals("execute")) {
                    return dropped(p.getParentNode().orElse(null)) || n.equals("executeUpdate")
                            ? new Verdict(ResultUse.NEVER_READ, n + "() returns a row count, never the lock's value")
                            : null;
                }
                if (API.is(Role.BINDS_PARAMETER, n)
                        || API.is(Role.CONFIGURES_QUERY, n)
                        || n.startsWith("set")
                        || n.startsWith("mapTo")
                        || n.startsWith("bind")) {
                    cur = p;
                    continue;
                }
                return null;
            }
            if (dropped(parent)) {
                return cur == exec
                        ? null
                        : new Verdict(ResultUse.NEVER_READ, "the query is built but its result is never fetched");
            }
            String var = assignedName(cur);
            if (var == null) {
                return null;
            }
            List<MethodCallExpr> fetches = callsOn(
                    cur,
                    var,
                    n -> API.is(Role.FETCHES_ONE, n) || API.is(Role.FETCHES_LIST, n) || n.equals("executeUpdate"));
            if (fetches.isEmpty()) {
                return null;
            }
            MethodCallExpr f = fetches.get(0);
            String n = f.getNameAsString();
            return API.is(Role.FETCHES_ONE, n)
                    ? value(f, "the result of " + n + "()")
                    : API.is(Role.FETCHES_LIST, n)
                            ? list(f, oneRow)
                            : new Verdict(
                                    ResultUse.NEVER_READ,
                                    "executeUpdate() returns a row count, never the lock's value");
        }
        return null;
    }

    /** A JDBC execution: {@code execute} (its flag, or a later {@code getResultSet()}), {@code executeQuery}, {@code executeUpdate}. */
    private Verdict producer(MethodCallExpr p, boolean oneRow) {
        String n = p.getNameAsString();
        if (n.equals("executeUpdate") || n.equals("executeLargeUpdate")) {
            return new Verdict(ResultUse.NEVER_READ, n + "(...) returns a row count, never the lock's value");
        }
        if (n.equals("execute")) {
            Optional<MethodCallExpr> later = laterCall(p, receiverName(p), "getResultSet");
            if (later.isPresent()) {
                return resultSet(later.get(), oneRow);
            }
            if (dropped(p.getParentNode().orElse(null))) {
                return new Verdict(
                        ResultUse.NEVER_READ, "execute(...)'s return value is dropped and no result set is read");
            }
            return new Verdict(
                    ResultUse.EXECUTE_FLAG,
                    "execute(...) returns true because the statement yields a result set,"
                            + " whatever the lock's value (F14)");
        }
        return resultSet(p, oneRow);
    }

    /** Something that yields a {@code ResultSet}: how it is read. */
    private Verdict resultSet(MethodCallExpr p, boolean oneRow) {
        Node parent = p.getParentNode().orElse(null);
        if (dropped(parent)) {
            return new Verdict(ResultUse.NEVER_READ, "the result set is never read");
        }
        if (parent instanceof MethodCallExpr m
                && m.getScope().filter(s -> s == p).isPresent()) {
            String n = m.getNameAsString();
            if (API.is(Role.TESTS_ROW, n)) {
                return oneRow
                        ? new Verdict(
                                ResultUse.ROW_EXISTENCE,
                                n + "() tests that a row exists; the query always"
                                        + " returns one, whatever the lock's value")
                        : null;
            }
            return null;
        }
        String rs = assignedName(p);
        if (rs == null) {
            return null;
        }
        List<NameExpr> uses = usesAfter(p, rs);
        List<MethodCallExpr> reads = new ArrayList<>();
        boolean rowTest = false;
        for (NameExpr u : uses) {
            Node up = u.getParentNode().orElse(null);
            if (up instanceof MethodCallExpr m
                    && m.getScope().filter(s -> s == u).isPresent()) {
                String n = m.getNameAsString();
                if (API.is(Role.TESTS_ROW, n)) {
                    rowTest = true;
                } else if (n.startsWith("get") && !API.is(Role.DESCRIBES_RESULT, n)) {
                    reads.add(m);
                } else if (!n.equals("close") && !n.equals("wasNull")) {
                    return null;
                }
            } else {
                return null; // handed to other code, returned, stored: it decides
            }
        }
        if (!reads.isEmpty()) {
            return fromFlows(reads, "the value read from " + rs);
        }
        if (rowTest) {
            return oneRow
                    ? new Verdict(
                            ResultUse.ROW_EXISTENCE,
                            rs + ".next() tests only that a row exists, and the lock's value is never"
                                    + " read; the query returns a row whether or not the lock was granted")
                    : null;
        }
        return new Verdict(ResultUse.NEVER_READ, "the result set " + rs + " is never read");
    }

    /** A list of rows ({@code queryForList}, {@code getResultList}, {@code query(sql, rowMapper)}). */
    private Verdict list(MethodCallExpr p, boolean oneRow) {
        Node parent = p.getParentNode().orElse(null);
        if (dropped(parent)) {
            return new Verdict(
                    ResultUse.NEVER_READ, "the rows " + p.getNameAsString() + "(...) returns are never read");
        }
        List<MethodCallExpr> calls = new ArrayList<>();
        if (parent instanceof MethodCallExpr m
                && m.getScope().filter(s -> s == p).isPresent()) {
            calls.add(m);
        } else {
            String var = assignedName(p);
            if (var == null) {
                return null;
            }
            for (NameExpr u : usesAfter(p, var)) {
                if (u.getParentNode().orElse(null) instanceof MethodCallExpr m
                        && m.getScope().filter(s -> s == u).isPresent()) {
                    calls.add(m);
                } else {
                    return null;
                }
            }
            if (calls.isEmpty()) {
                return new Verdict(ResultUse.NEVER_READ, "the rows in " + var + " are never read");
            }
        }
        List<MethodCallExpr> reads = new ArrayList<>();
        boolean rowTest = false;
        for (MethodCallExpr m : calls) {
            String n = m.getNameAsString();
            if (n.equals("isEmpty") || n.equals("size")) {
                rowTest = true;
            } else if (n.equals("get") || n.equals("getFirst")) {
                reads.add(m);
            } else {
                return null;
            }
        }
        if (!reads.isEmpty()) {
            return fromFlows(reads, "the value read from the rows");
        }
        return rowTest && oneRow ? rowExistence(p.getNameAsString()) : null;
    }

    private static Verdict rowExistence(String call) {
        return new Verdict(
                ResultUse.ROW_EXISTENCE,
                "the number of rows " + call + "(...) returns is tested, not the"
                        + " lock's value; the query returns one row whether or not the lock was granted");
    }

    /** A single value ({@code queryForObject}, {@code getSingleResult}). */
    private Verdict value(MethodCallExpr p, String what) {
        if (dropped(p.getParentNode().orElse(null))) {
            return new Verdict(ResultUse.NEVER_READ, what + " is dropped");
        }
        return fromFlows(List.of(p), what);
    }

    private Verdict fromFlows(List<? extends Expression> reads, String what) {
        FlowNote best = null;
        for (Expression r : reads) {
            FlowNote f = flow(r, 0);
            if (best == null || f.flow.ordinal() > best.flow.ordinal()) {
                best = f;
            }
        }
        if (best == null) {
            return null;
        }
        return switch (best.flow) {
            case DECIDES -> new Verdict(ResultUse.DECIDES, "");
            case RETURNED -> new Verdict(ResultUse.RETURNED, "");
            case UNKNOWN -> null;
            case DROPPED -> new Verdict(ResultUse.READ_NOT_DECIDING, what + " is read and dropped");
            case NOT_DECIDING -> new Verdict(ResultUse.READ_NOT_DECIDING, what + " " + best.note);
        };
    }

    /** Where a boolean-ish value goes. */
    private FlowNote flow(Expression e, int depth) {
        if (depth > 8) {
            return new FlowNote(Flow.UNKNOWN, "");
        }
        Node parent = e.getParentNode().orElse(null);
        if (parent instanceof EnclosedExpr || parent instanceof CastExpr || parent instanceof UnaryExpr) {
            return flow((Expression) parent, depth + 1);
        }
        if (parent instanceof BinaryExpr b) {
            return flow(b, depth + 1);
        }
        if (parent instanceof ConditionalExpr c) {
            return c.getCondition() == e ? decides(c) : flow(c, depth + 1);
        }
        if (parent instanceof IfStmt s) {
            return s.getCondition() == e ? decides(s) : new FlowNote(Flow.UNKNOWN, "");
        }
        if (parent instanceof WhileStmt
                || parent instanceof DoStmt
                || parent instanceof ForStmt
                || parent instanceof SwitchStmt) {
            return decides(parent);
        }
        if (parent instanceof ReturnStmt) {
            return new FlowNote(Flow.RETURNED, "");
        }
        if (parent instanceof LambdaExpr
                || (parent instanceof ExpressionStmt && parent.getParentNode().orElse(null) instanceof LambdaExpr)) {
            return new FlowNote(Flow.RETURNED, "");
        }
        if (dropped(parent)) {
            return new FlowNote(Flow.DROPPED, "");
        }
        if (parent instanceof VariableDeclarator v
                && v.getInitializer().filter(i -> i == e).isPresent()) {
            return variable(v.getNameAsString(), v, depth);
        }
        if (parent instanceof AssignExpr a && a.getValue() == e) {
            if (a.getTarget() instanceof NameExpr n
                    && (JavaScopes.local(n.getNameAsString(), a).isPresent()
                            || JavaScopes.isParameter(n.getNameAsString(), a))) {
                return variable(n.getNameAsString(), a, depth);
            }
            return new FlowNote(Flow.UNKNOWN, "");
        }
        if (parent instanceof MethodCallExpr m) {
            boolean scope = m.getScope().filter(s -> s == e).isPresent();
            String n = m.getNameAsString();
            if (scope) {
                return API.is(Role.PASSES_VALUE, n) ? flow(m, depth + 1) : new FlowNote(Flow.UNKNOWN, "");
            }
            String receiver = m.getScope().map(Node::toString).orElse("");
            if (API.isLoggerReceiver(receiver) || n.equals("println") || n.equals("printf")) {
                return new FlowNote(Flow.NOT_DECIDING, "is only logged");
            }
            if (API.is(Role.PASSES_VALUE, n)) {
                return flow(m, depth + 1);
            }
            return new FlowNote(Flow.DECIDES, ""); // handed on: the callee decides
        }
        if (parent instanceof ObjectCreationExpr) {
            return new FlowNote(Flow.DECIDES, "");
        }
        return new FlowNote(Flow.UNKNOWN, "");
    }

    /** A condition decides, unless it sits in a finally block (the work already ran). */
    private static FlowNote decides(Node condition) {
        for (Node cur = condition; cur != null; cur = cur.getParentNode().orElse(null)) {
            Node at = cur;
            if (cur.getParentNode().orElse(null) instanceof TryStmt t
                    && t.getFinallyBlock().filter(f -> f == at).isPresent()) {
                return new FlowNote(Flow.NOT_DECIDING, "is tested only in a finally block, after the work has run");
            }
            if (cur instanceof MethodDeclaration || cur instanceof LambdaExpr) {
                break;
            }
        }
        return new FlowNote(Flow.DECIDES, "");
    }

    private FlowNote variable(String name, Node declaration, int depth) {
        List<NameExpr> uses = usesAfter(declaration, name);
        if (uses.isEmpty()) {
            return new FlowNote(Flow.NOT_DECIDING, "is stored in " + name + " and never tested");
        }
        FlowNote best = null;
        for (NameExpr u : uses) {
            if (u.getParentNode().orElse(null) instanceof AssignExpr a && a.getTarget() == u) {
                continue;
            }
            FlowNote f = flow(u, depth + 1);
            if (f.flow == Flow.DROPPED) {
                f = new FlowNote(Flow.NOT_DECIDING, "is stored in " + name + " and never tested");
            }
            if (best == null || f.flow.ordinal() > best.flow.ordinal()) {
                best = f;
            }
        }
        return best == null
                ? new FlowNote(Flow.NOT_DECIDING, "is stored in " + name + " and never tested")
                : best.flow == Flow.NOT_DECIDING && best.note.isEmpty()
                        ? new FlowNote(Flow.NOT_DECIDING, "is stored in " + name + " and never tested")
                        : best;
    }

    // ------------------------------------------------------------------ names and calls

    /** @return the local the expression (through casts and parentheses) is stored in, or null */
    private static String assignedName(Expression e) {
        Node cur = e;
        Node parent = cur.getParentNode().orElse(null);
        while (parent instanceof CastExpr || parent instanceof EnclosedExpr) {
            cur = parent;
            parent = parent.getParentNode().orElse(null);
        }
        if (parent instanceof VariableDeclarator v) {
            return v.getNameAsString();
        }
        if (parent instanceof AssignExpr a && a.getValue() == cur && a.getTarget() instanceof NameExpr n) {
            return n.getNameAsString();
        }
        return null;
    }

    /** Uses of a name in the enclosing method after a node, not counting the node itself. */
    private static List<NameExpr> usesAfter(Node from, String name) {
        Node scope = JavaScopes.callableOf(from);
        List<NameExpr> out = new ArrayList<>();
        if (scope == null) {
            return out;
        }
        int start = from.getEnd().map(p -> p.line * 10_000 + p.column).orElse(0);
        for (NameExpr n : JavaScopes.names(scope, name)) {
            if (n.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0) > start) {
                out.add(n);
            }
        }
        return out;
    }

    private static List<MethodCallExpr> callsOn(Node from, String var, Predicate<String> names) {
        List<MethodCallExpr> out = new ArrayList<>();
        for (NameExpr u : usesAfter(from, var)) {
            if (u.getParentNode().orElse(null) instanceof MethodCallExpr m
                    && m.getScope().filter(s -> s == u).isPresent()
                    && names.test(m.getNameAsString())) {
                out.add(m);
            }
        }
        return out;
    }

    /** The execution of a prepared statement: chained, or the first on the variable holding it. */
    private static Optional<MethodCallExpr> statementExecution(MethodCallExpr prepare) {
        List<MethodCallExpr> runs = statementExecutions(prepare);
        return runs.isEmpty() ? Optional.empty() : Optional.of(runs.get(0));
    }

    /**
     * The calls that execute a prepared statement ({@code execute}, {@code executeQuery}, ...): the call chained
     * on it, or every such call on the variable holding it, in source order.
     *
     * @param prepare a {@code prepareStatement}/{@code prepareCall} call
     * @return the executions; empty when none is found
     */
    static List<MethodCallExpr> statementExecutions(MethodCallExpr prepare) {
        Predicate<String> runs = n -> API.roles("PreparedStatement", n, 0).contains(Role.EXECUTES_SQL);
        if (prepare.getParentNode().orElse(null) instanceof MethodCallExpr m
                && m.getScope().filter(s -> s == prepare).isPresent()) {
            return runs.test(m.getNameAsString()) ? List.of(m) : List.of();
        }
        String var = assignedName(prepare);
        return var == null ? List.of() : callsOn(prepare, var, runs);
    }

    private static String receiverName(MethodCallExpr call) {
        return call.getScope()
                .filter(Expression::isNameExpr)
                .map(s -> s.asNameExpr().getNameAsString())
                .orElse(null);
    }

    private static Optional<MethodCallExpr> laterCall(MethodCallExpr after, String receiver, String name) {
        if (receiver == null) {
            return Optional.empty();
        }
        List<MethodCallExpr> calls = callsOn(after, receiver, name::equals);
        return calls.isEmpty() ? Optional.empty() : Optional.of(calls.get(0));
    }

    // ------------------------------------------------------------------ loops

    private LoopContext loop(LockSite site, Node node, List<LockSite> sites) {
        Node child = node;
        for (Node cur = node.getParentNode().orElse(null);
                cur != null;
                child = cur, cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof MethodDeclaration
                    || cur instanceof TypeDeclaration<?>
                    || cur instanceof ConstructorDeclaration) {
                return null;
            }
            Set<String> vars = new HashSet<>();
            Node body;
            boolean bounded;
            String description;
            Node header;
            if (cur instanceof ForEachStmt f && child == f.getBody()) {
                vars.add(f.getVariableDeclarator().getNameAsString());
                body = f.getBody();
                bounded = boundedSource(f.getIterable(), 0) || sizeGuarded(f) || limitedRows(f.getIterable(), 0);
                description = "for (" + f.getVariable() + " : "
                        + abbreviate(f.getIterable().toString()) + ")";
                header = f.getIterable();
            } else if (cur instanceof ForStmt f && child == f.getBody()) {
                f.getInitialization()
                        .forEach(i -> i.findAll(VariableDeclarator.class).forEach(v -> vars.add(v.getNameAsString())));
                body = f.getBody();
                bounded = f.getCompare().map(SiteUsageAnalyzer::constantBound).orElse(false);
                description = "for (...; "
                        + f.getCompare()
                                .map(Node::toString)
                                .map(SiteUsageAnalyzer::abbreviate)
                                .orElse("") + "; ...)";
                header = f.getCompare().map(Node.class::cast).orElse(f);
            } else if (cur instanceof WhileStmt w && child == w.getBody()) {
                body = w.getBody();
                bounded = limitedRows(w.getCondition(), 0);
                description = "while (" + abbreviate(w.getCondition().toString()) + ")";
                header = w.getCondition();
            } else if (cur instanceof DoStmt d && child == d.getBody()) {
                body = d.getBody();
                bounded = false;
                description = "do ... while (" + abbreviate(d.getCondition().toString()) + ")";
                header = d.getCondition();
            } else if (cur instanceof LambdaExpr l
                    && l.getParentNode().orElse(null) instanceof MethodCallExpr m
                    && m.getArguments().contains(l)
                    && API.is(Role.ITERATES, m.getNameAsString())
                    && m.getScope().isPresent()) {
                l.getParameters().forEach(p -> vars.add(p.getNameAsString()));
                body = l.getBody();
                bounded = boundedSource(m.getScope().get(), 0)
                        || limitedRows(m.getScope().get(), 0);
                description = abbreviate(m.getScope().get().toString()) + "." + m.getNameAsString() + "(...)";
                header = m.getName();
            } else {
                continue;
            }
            body.findAll(VariableDeclarator.class).forEach(v -> vars.add(v.getNameAsString()));
            boolean keyVaries = keyVaries(site, vars, cur);
            boolean released = releasedInLoop(site, body, sites);
            boolean exits = site.function().operation() == LockOperation.TRY_ACQUIRE && exitsLoop(body);
            return new LoopContext(description, region(header), bounded, keyVaries, released, exits);
        }
        return null;
    }

    private boolean keyVaries(LockSite site, Set<String> vars, Node loop) {
        for (KeyPart p : site.key().parts()) {
            if (p.isKnown()) {
                continue;
            }
            if (p.kind() == KeyPart.Kind.COLUMN) {
                return true;
            }
            String expr = p.expression();
            for (String v : vars) {
                if (Pattern.compile("(?<![\\w.])" + Pattern.quote(v) + "(?!\\w)")
                        .matcher(expr)
                        .find()) {
                    return true;
                }
            }
            if (loop instanceof WhileStmt || loop instanceof DoStmt) {
                // values read from the row being iterated: rs.getLong("id")
                if (expr.matches(".*\\b\\w+\\.get(Long|Int|String|Object|Short)\\(.*")) {
                    return true;
                }
            }
            if (expr.matches(".*(\\?|(?<!:):\\w|\\$\\d).*")
                    && helperOf.containsKey(site)
                    && nodes.get(site) instanceof MethodCallExpr call
                    && call.getArguments().stream().anyMatch(a -> mentionsAny(a, vars))) {
                return true; // a helper's placeholder, bound to its parameter, which this call passes a loop value
            }
            if (p.kind() == KeyPart.Kind.PARAMETER
                    && (expr.equals("?") || expr.startsWith(":") || expr.startsWith("$"))
                    && !vars.isEmpty()) {
                return true; // a placeholder bound somewhere in a per-element loop
            }
        }
        return false;
    }

    private boolean releasedInLoop(LockSite site, Node body, List<LockSite> sites) {
        LockLifecycle l = lifecycles.get(site.id());
        if (l != null && l.guarantee() == ReleaseGuarantee.BY_HELPER) {
            return true;
        }
        if (site.function().level() == LockLevel.TRANSACTION) {
            if (site.execution().transaction() == TransactionState.AUTOCOMMIT) {
                return true; // each statement is its own transaction (another rule's bug, not this one)
            }
            SourceRegion tx = site.execution().transactionRegion();
            if (tx != null && within(tx, region(body))) {
                return true;
            }
            if (tx != null
                    && site.execution().transaction() == TransactionState.IN_TRANSACTION
                    && OWN_NEW_TRANSACTION
                            .matcher(site.execution().transactionEvidence())
                            .lookingAt()
                    && body.findAncestor(CallableDeclaration.class)
                            .map(c -> !within(tx, region(c)))
                            .orElse(false)) {
                return true; // a method's own new transaction per call (SpringTransactions): its commit releases the
                // lock
            }
            if (helperOf.containsKey(site) && ownCallbackPerCall(site, helperOf.get(site), body)) {
                return true; // the helper's own transaction commits, releasing the lock, before the next iteration
            }
            if (tx != null
                    && site.execution().transaction() == TransactionState.IN_TRANSACTION
                    && !tx.path().equals(site.path())
                    && helperOf.containsKey(site)
                    && nodes.get(site) != null
                    && spring.at(nodes.get(site), false, true).state() != TransactionState.IN_TRANSACTION) {
                // the called bean's @Transactional (in its own file) begins and commits a transaction per call when
                // the loop runs in none: each iteration's commit releases its lock
                return true;
            }
            for (MethodCallExpr m : JavaScopes.calls(body)) {
                String n = m.getNameAsString();
                if (n.equals("commit")
                        || n.equals("rollback")
                        || n.equals("executeWithoutResult")
                        || n.equals("inTransaction")
                        || n.equals("useTransaction")
                        || n.equals("transaction")
                        || n.equals("transactionResult")
                        || n.equals("runInTransaction")
                        || n.equals("doInTransaction")
                        || (n.equals("execute")
                                && m.getScope()
                                        .map(s -> s.toString().toLowerCase(Locale.ROOT))
                                        .filter(s -> s.contains("transaction") || s.contains("tx"))
                                        .isPresent())) {
                    return true;
                }
            }
            return false;
        }
        for (LockSite r : sites) {
            if (r.function().operation().isRelease()
                    && nodes.get(r) != null
                    && isInside(nodes.get(r), body)
                    && (r.function().operation() == LockOperation.RELEASE_ALL
                            || r.key().mayEqual(site.key()))) {
                return true;
            }
        }
        for (MethodCallExpr m : JavaScopes.calls(body)) {
            String n = m.getNameAsString().toLowerCase(Locale.ROOT);
            if (n.contains("unlock") || n.equals("release") || n.equals("releaselock")) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return whether a helper's transaction-level lock is taken inside a transaction callback of the helper's own
     *     ({@code jdbi.useTransaction}, {@code tx.execute}) that commits before the call returns: always for a
     *     template its class sets to {@code REQUIRES_NEW}, else when the call is outside any transaction (a joining
     *     callback would keep the lock until the outer commit)
     */
    private boolean ownCallbackPerCall(LockSite call, HelperSummary helper, Node body) {
        for (HelperSummary.Op op : helper.ops()) {
            // the SQL's own context, or the operation's when a helper's call decided it (lock(h, id) inside
            // jdbi.useTransaction(h -> ..): ExecutionContextAnalyzer.atHelperCall)
            ExecutionContext inner = op.inner() == null
                    ? null
                    : op.inner().execution().transaction() == TransactionState.UNKNOWN
                            ? op.execution()
                            : op.inner().execution();
            if (op.function().operation().isAcquisition()
                    && inner != null
                    && inner.transaction() == TransactionState.IN_TRANSACTION
                    && inner.boundary() == TransactionBoundary.OWN
                    && SpringTransactions.isCallback(inner.transactionEvidence())
                    && inner.transactionRegion() != null
                    && !within(inner.transactionRegion(), region(body))
                    && !within(region(body), inner.transactionRegion())
                    && (!inCallersTransaction(call, inner)
                            || SpringTransactions.isOwnNewTransaction(inner.transactionEvidence()))) {
                return true;
            }
        }
        return false;
    }

    /** @return whether the expression names one of the variables (a name, or the root of a field access or call) */
    private static boolean mentionsAny(Expression e, Set<String> vars) {
        return e.findAll(NameExpr.class).stream().anyMatch(n -> vars.contains(n.getNameAsString()));
    }

    /**
     * @return whether the call of a helper runs in a transaction of its own code or its callers': its context names
     *     another transaction than the helper's own callback, or Spring's annotations and callbacks around the call
     *     (a callback around it, its method, and that method's callers in the file) put it in one
     */
    private boolean inCallersTransaction(LockSite call, ExecutionContext inner) {
        if (call.execution().transaction() == TransactionState.IN_TRANSACTION
                && !call.execution().transactionEvidence().equals(inner.transactionEvidence())) {
            return true;
        }
        Node at = nodes.get(call);
        return at != null && spring.at(at, false, true).state() == TransactionState.IN_TRANSACTION;
    }

    private static boolean exitsLoop(Node body) {
        for (Node n : body.findAll(Node.class, x -> x instanceof ReturnStmt || x instanceof BreakStmt)) {
            boolean nested = false;
            for (Node cur = n.getParentNode().orElse(null);
                    cur != null && cur != body;
                    cur = cur.getParentNode().orElse(null)) {
                if (cur instanceof LambdaExpr
                        || cur instanceof ClassOrInterfaceDeclaration
                        || (n instanceof BreakStmt
                                && (cur instanceof ForStmt
                                        || cur instanceof ForEachStmt
                                        || cur instanceof WhileStmt
                                        || cur instanceof DoStmt
                                        || cur instanceof SwitchStmt))) {
                    nested = true;
                    break;
                }
            }
            if (!nested) {
                return true;
            }
        }
        return false;
    }

    /** {@code i < 10}, {@code i < MAX_BATCH}, {@code i <= Limits.MAX}. */
    private static boolean constantBound(Expression compare) {
        if (!(compare instanceof BinaryExpr b)) {
            return false;
        }
        Expression bound = switch (b.getOperator()) {
            case LESS, LESS_EQUALS -> b.getRight();
            case GREATER, GREATER_EQUALS -> b.getLeft() instanceof NameExpr ? b.getRight() : b.getLeft();
            default -> null;
        };
        return bound instanceof IntegerLiteralExpr
                || (bound instanceof NameExpr n && n.getNameAsString().matches("[A-Z][A-Z0-9_]*"))
                || (bound instanceof FieldAccessExpr f && f.getNameAsString().matches("[A-Z][A-Z0-9_]*"));
    }

    /** Collections whose size the code fixes: literals, {@code List.of(..)}, {@code values()}, {@code limit(n)}, {@code subList}. */
    /** Precondition helpers whose first argument is a condition that must hold ({@code checkArgument(ok, ..)}). */
    private static final Set<String> PRECONDITIONS =
            Set.of("checkArgument", "checkState", "isTrue", "state", "require", "requireTrue");

    /**
     * @return whether a statement before the loop, in its block, bounds the size of the collection it iterates by a
     *     constant: {@code if (ids.size() > MAX) throw ..} (or {@code return}), or a precondition
     *     {@code checkArgument(ids.size() <= MAX, ..)}; the collection a local or parameter name
     */
    private static boolean sizeGuarded(ForEachStmt loop) {
        if (!(loop.getIterable() instanceof NameExpr n)
                || !(loop.getParentNode().orElse(null) instanceof BlockStmt b)) {
            return false;
        }
        Set<String> names = new HashSet<>();
        names.add(n.getNameAsString());
        // the loop may iterate a copy of the guarded collection: sorted, deduplicated, filtered, mapped
        Optional<VariableDeclarator> local = JavaScopes.local(n.getNameAsString(), n);
        local.filter(v -> !JavaScopes.reassigned(v))
                .flatMap(VariableDeclarator::getInitializer)
                .map(SiteUsageAnalyzer::copiedFrom)
                .ifPresent(names::add);
        for (Statement st : b.getStatements()) {
            if (st == loop) {
                return false;
            }
            for (String name : names) {
                if (st instanceof IfStmt i
                        && i.getElseStmt().isEmpty()
                        && exits(i.getThenStmt())
                        && sizeCompared(i.getCondition(), name, true)) {
                    return true;
                }
                if (st instanceof ExpressionStmt es
                        && es.getExpression() instanceof MethodCallExpr m
                        && PRECONDITIONS.contains(m.getNameAsString())
                        && !m.getArguments().isEmpty()
                        && sizeCompared(m.getArgument(0), name, false)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Stream and copy steps that never yield more elements than they are given. */
    private static final Set<String> NO_MORE_ELEMENTS = Set.of(
            "stream",
            "distinct",
            "sorted",
            "filter",
            "map",
            "mapToObj",
            "boxed",
            "toList",
            "collect",
            "copyOf",
            "unmodifiableList",
            "unmodifiableSet",
            "sequential");

    /**
     * @return the local or parameter a collection expression copies without adding elements ({@code
     *     ids.stream().distinct().sorted().toList()}, {@code new ArrayList<>(ids)}, {@code List.copyOf(ids)}), or
     *     null
     */
    private static String copiedFrom(Expression e) {
        Expression cur = e;
        for (int i = 0; i < 8; i++) {
            if (cur instanceof NameExpr n) {
                return i == 0 ? null : n.getNameAsString();
            }
            if (cur instanceof ObjectCreationExpr o && o.getArguments().size() == 1) {
                cur = o.getArgument(0);
            } else if (cur instanceof MethodCallExpr m && NO_MORE_ELEMENTS.contains(m.getNameAsString())) {
                if (m.getNameAsString().equals("copyOf") || m.getNameAsString().startsWith("unmodifiable")) {
                    if (m.getArguments().size() != 1) {
                        return null;
                    }
                    cur = m.getArgument(0);
                } else if (m.getScope().isPresent()) {
                    cur = m.getScope().get();
                } else {
                    return null;
                }
            } else {
                return null;
            }
        }
        return null;
    }

    /** @return whether a statement only throws or returns (a block of one such statement included) */
    private static boolean exits(Statement st) {
        Statement only = st instanceof BlockStmt b && b.getStatements().size() == 1 ? b.getStatement(0) : st;
        return only instanceof ThrowStmt || only instanceof ReturnStmt;
    }

    /**
     * @param e        a condition
     * @param name     the collection's name
     * @param tooLarge true for the condition under which the code leaves ({@code size() > N}), false for the one that
     *                 must hold ({@code size() <= N})
     * @return whether {@code e} compares {@code name.size()} with a constant that way
     */
    private static boolean sizeCompared(Expression e, String name, boolean tooLarge) {
        if (!(e instanceof BinaryExpr b)) {
            return false;
        }
        boolean sizeLeft = isSize(b.getLeft(), name) && constant(b.getRight());
        boolean sizeRight = isSize(b.getRight(), name) && constant(b.getLeft());
        if (!sizeLeft && !sizeRight) {
            return false;
        }
        BinaryExpr.Operator op = b.getOperator();
        boolean greater = op == BinaryExpr.Operator.GREATER || op == BinaryExpr.Operator.GREATER_EQUALS;
        boolean less = op == BinaryExpr.Operator.LESS || op == BinaryExpr.Operator.LESS_EQUALS;
        // size > N (or N < size) says too large; size <= N (or N >= size) says within the bound
        boolean saysTooLarge = sizeLeft ? greater : less;
        boolean saysWithin = sizeLeft ? less : greater;
        return tooLarge ? saysTooLarge : saysWithin;
    }

    private static boolean isSize(Expression e, String name) {
        return e instanceof MethodCallExpr m
                && m.getNameAsString().equals("size")
                && m.getArguments().isEmpty()
                && m.getScope()
                        .filter(x ->
                                x instanceof NameExpr x2 && x2.getNameAsString().equals(name))
                        .isPresent();
    }

    /** @return whether an expression is a literal or a constant's name ({@code MAX_BATCH}, {@code Limits.MAX}) */
    private static boolean constant(Expression e) {
        return e.isIntegerLiteralExpr()
                || (e instanceof NameExpr n && n.getNameAsString().matches("[A-Z][A-Z0-9_]*"))
                || (e instanceof FieldAccessExpr f && f.getNameAsString().matches("[A-Z][A-Z0-9_]*"));
    }

    /**
     * Whether a loop's source is the rows of a query whose SQL caps them ({@link RowLimits}): a list a query call
     * returns ({@code queryForList("... LIMIT ?", ..)}), a stream or collection derived from it, or a result set
     * stepped through ({@code rs.next()}) that a query returned, its SQL given to the query call or to the
     * {@code prepareStatement} of the statement it runs; through locals that are not reassigned.
     *
     * @param e     the loop's iterable, the scope of a {@code forEach}, or a {@code while} condition
     * @param depth how many locals and statements were followed so far (at most 4)
     */
    private boolean limitedRows(Expression e, int depth) {
        if (depth > 4 || e == null) {
            return false;
        }
        if (e instanceof EnclosedExpr en) {
            return limitedRows(en.getInner(), depth + 1);
        }
        if (e instanceof NameExpr n) {
            return JavaScopes.local(n.getNameAsString(), n)
                    .filter(v -> !JavaScopes.reassigned(v))
                    .flatMap(VariableDeclarator::getInitializer)
                    .map(i -> limitedRows(i, depth + 1))
                    .orElse(false);
        }
        for (Expression cur = e;
                cur instanceof MethodCallExpr c;
                cur = c.getScope().orElse(null)) {
            if (API.takesSql(c.getNameAsString())) {
                if (!c.getArguments().isEmpty()) {
                    JavaText text = strings.evaluate(c.getArgument(0));
                    return text != null && RowLimits.limitsRows(text.text());
                }
                // a prepared statement's executeQuery(): its SQL was given where it was prepared
                return limitedRows(c.getScope().orElse(null), depth + 1);
            }
            if (c.getScope().filter(s -> !(s instanceof MethodCallExpr)).isPresent()) {
                return limitedRows(c.getScope().get(), depth + 1);
            }
        }
        return false;
    }

    private static boolean boundedSource(Expression e, int depth) {
        if (depth > 4) {
            return false;
        }
        if (e instanceof ArrayCreationExpr a) {
            return a.getInitializer().isPresent();
        }
        if (e instanceof ArrayInitializerExpr) {
            return true;
        }
        if (e instanceof EnclosedExpr en) {
            return boundedSource(en.getInner(), depth + 1);
        }
        if (e instanceof MethodCallExpr m) {
            for (Expression cur = m;
                    cur instanceof MethodCallExpr c;
                    cur = c.getScope().orElse(null)) {
                String n = c.getNameAsString();
                if (n.equals("limit")
                        || n.equals("subList")
                        || (n.equals("values") && c.getArguments().isEmpty())
                        || ((Set.of("of", "asList", "singletonList", "singleton", "allOf", "range", "rangeClosed")
                                                .contains(n)
                                        && c.getArguments().stream()
                                                .allMatch(a -> a.isLiteralExpr()
                                                        || (a.isNameExpr()
                                                                && a.asNameExpr()
                                                                        .getNameAsString()
                                                                        .matches("[A-Z][A-Z0-9_]*|[a-z]\\w*"))
                                                        || a.isFieldAccessExpr()
                                                        || a.isClassExpr())
                                        && !n.equals("range"))
                                || ((n.equals("range") || n.equals("rangeClosed"))
                                        && c.getArguments().stream().allMatch(Expression::isLiteralExpr)))) {
                    return true;
                }
                if (c.getScope().isEmpty()) {
                    break;
                }
                Expression scope = c.getScope().get();
                if (!(scope instanceof MethodCallExpr)) {
                    return boundedSource(scope, depth + 1);
                }
            }
            return false;
        }
        if (e instanceof NameExpr n) {
            Optional<VariableDeclarator> local = JavaScopes.local(n.getNameAsString(), n);
            if (local.isPresent()) {
                return local.get()
                                .getInitializer()
                                .map(i -> boundedSource(i, depth + 1))
                                .orElse(false)
                        && !JavaScopes.reassigned(local.get());
            }
            for (Node cur = n; cur != null; cur = cur.getParentNode().orElse(null)) {
                if (cur instanceof TypeDeclaration<?> t) {
                    return t.getFieldByName(n.getNameAsString())
                            .flatMap(f -> f.getVariables().stream()
                                    .filter(v -> v.getNameAsString().equals(n.getNameAsString()))
                                    .findFirst())
                            .flatMap(VariableDeclarator::getInitializer)
                            .map(i -> boundedSource(i, depth + 1))
                            .orElse(false);
                }
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ timeouts

    /**
     * The {@code setQueryTimeout} calls of a type, collected once per type: a type with thousands of
     * lock calls asks for them once per call (walking the type each time was quadratic).
     */
    private List<MethodCallExpr> queryTimeoutCalls(TypeDeclaration<?> type) {
        return queryTimeoutCallsByType.computeIfAbsent(
                type,
                t -> t.findAll(MethodCallExpr.class, m -> m.getNameAsString().equals("setQueryTimeout")));
    }

    /** See {@link #queryTimeoutCalls}; by identity. */
    private final Map<TypeDeclaration<?>, List<MethodCallExpr>> queryTimeoutCallsByType = new IdentityHashMap<>();

    private final Map<MethodCallExpr, Boolean> timeoutSetters = new IdentityHashMap<>();
    /** Per callable of the file, its calls that may set a query timeout, found once. */
    private final Map<Node, List<MethodCallExpr>> timeoutCallsByScope = new IdentityHashMap<>();

    /** A name the query-timeout check below looks at (it checks the arguments itself). */
    private static boolean mayBeTimeoutCall(String n) {
        return n.equals("setQueryTimeout") || n.equals("queryTimeout") || n.equals("setTimeout") || n.equals("setHint");
    }

    private final Map<MethodDeclaration, Boolean> timeoutMethods = new IdentityHashMap<>();

    private TimeoutEvidence javaTimeout(MethodCallExpr exec) {
        Node scope = JavaScopes.callableOf(exec);
        // @Transactional(timeout = n) on the method or class
        for (Node cur = exec; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof NodeWithAnnotations<?> owner
                    && (cur instanceof MethodDeclaration || cur instanceof TypeDeclaration<?>)) {
                for (var a : owner.getAnnotations()) {
                    if (a.getNameAsString().endsWith("Transactional")
                            && a.toString().matches("(?s).*\\btimeout(String)?\\s*=.*")
                            && !a.toString().matches("(?s).*\\btimeout\\s*=\\s*(-1|0)\\b.*")) {
                        return new TimeoutEvidence(
                                TimeoutEvidence.Kind.TRANSACTION_TIMEOUT,
                                "@Transactional with a timeout on "
                                        + (cur instanceof MethodDeclaration m
                                                ? "method " + m.getNameAsString()
                                                : "the class"),
                                region(a));
                    }
                }
            }
        }
        Set<String> handles = new HashSet<>();
        exec.getScope().map(s -> s.toString().replaceFirst("^this\\.", "")).ifPresent(handles::add);
        Set<String> results = new HashSet<>(); // variables holding the statement or query the exec call made
        String var = assignedName(exec);
        if (var != null) {
            results.add(var);
        }
        for (Node cur = exec.getParentNode().orElse(null);
                cur instanceof MethodCallExpr m;
                cur = m.getParentNode().orElse(null)) {
            String v = assignedName(m);
            if (v != null) {
                results.add(v);
            }
        }
        int execStart = exec.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0);
        List<MethodCallExpr> candidates = new ArrayList<>(timeoutCallsByScope.computeIfAbsent(
                scope,
                sc -> JavaScopes.calls(sc).stream()
                        .filter(m -> mayBeTimeoutCall(m.getNameAsString()))
                        .toList()));
        // a template configured elsewhere in the class (constructor, @PostConstruct)
        exec.findAncestor(TypeDeclaration.class)
                .ifPresent(t -> candidates.addAll(queryTimeoutCalls((TypeDeclaration<?>) t)));
        for (MethodCallExpr m : candidates) {
            String n = m.getNameAsString();
            boolean timeoutCall = n.equals("setQueryTimeout")
                    || n.equals("queryTimeout")
                    || n.equals("setTimeout")
                    || (n.equals("setHint")
                            && m.getArguments().size() == 2
                            && m.getArgument(0).toString().contains("timeout"));
            if (!timeoutCall
                    || m.getArguments().isEmpty()
                    || m.getArgument(m.getArguments().size() - 1).toString().equals("0")) {
                continue;
            }
            String target = m.getScope()
                    .map(s -> s.toString().replaceFirst("^this\\.", ""))
                    .orElse("");
            boolean onChain = isInside(exec, m)
                    || m.getScope().filter(s -> isInside(exec, s)).isPresent()
                    || m.getScope().filter(s -> s == exec).isPresent()
                    || isAncestorChain(exec, m);
            boolean sameMethod = JavaScopes.callableOf(m) == scope;
            boolean before = m.getBegin().map(p -> p.line * 10_000 + p.column).orElse(Integer.MAX_VALUE) < execStart;
            // elsewhere in the class, only a field counts (a template configured in the constructor)
            boolean field = !sameMethod
                    && JavaScopes.local(target, exec).isEmpty()
                    && !JavaScopes.isParameter(target, exec)
                    && exec.findAncestor(TypeDeclaration.class)
                            .map(t -> ((TypeDeclaration<?>) t)
                                    .getFieldByName(target)
                                    .isPresent())
                            .orElse(false);
            if (onChain
                    || (results.contains(target) && sameMethod)
                    || (handles.contains(target) && ((sameMethod && before) || field))) {
                return new TimeoutEvidence(
                        TimeoutEvidence.Kind.QUERY_TIMEOUT,
                        n + "(...) on " + (target.isEmpty() ? "the query" : target),
                        region(m));
            }
        }
        // SET lock_timeout executed earlier in the method, or in a method of this class called earlier
        for (MethodCallExpr m : JavaScopes.calls(scope)) {
            if (m.getBegin().map(p -> p.line * 10_000 + p.column).orElse(Integer.MAX_VALUE) >= execStart) {
                continue;
            }
            if (setsTimeout(m)) {
                return new TimeoutEvidence(
                        TimeoutEvidence.Kind.SQL_SET,
                        "a lock or statement timeout is set earlier in this method",
                        region(m));
            }
            if (m.getScope().isEmpty() || m.getScope().get().isThisExpr()) {
                Optional<MethodDeclaration> callee = exec.findAncestor(TypeDeclaration.class)
                        .flatMap(t -> ((TypeDeclaration<?>) t)
                                .getMethodsByName(m.getNameAsString()).stream().findFirst());
                if (callee.isPresent() && callee.get() != scope && setsTimeoutInside(callee.get())) {
                    return new TimeoutEvidence(
                            TimeoutEvidence.Kind.SQL_SET,
                            m.getNameAsString() + "(...) sets a lock or statement timeout earlier in this method",
                            region(m));
                }
            }
        }
        return null;
    }

    private static boolean isAncestorChain(MethodCallExpr exec, MethodCallExpr m) {
        for (Node cur = exec.getParentNode().orElse(null);
                cur instanceof MethodCallExpr c;
                cur = c.getParentNode().orElse(null)) {
            if (c == m) {
                return true;
            }
        }
        return false;
    }

    /** Whether a call executes SQL that sets a timeout; each call's text is evaluated once per file. */
    private boolean setsTimeout(MethodCallExpr m) {
        if (!API.takesSql(m.getNameAsString()) || m.getArguments().isEmpty()) {
            return false;
        }
        return timeoutSetters.computeIfAbsent(m, call -> {
            JavaText text = strings.evaluate(call.getArgument(0));
            return text != null && SqlTimeouts.setsTimeout(text.text());
        });
    }

    /** Whether a method of the class executes SQL that sets a timeout, once per method and file. */
    private boolean setsTimeoutInside(MethodDeclaration method) {
        return timeoutMethods.computeIfAbsent(
                method, d -> JavaScopes.calls(d).stream().anyMatch(this::setsTimeout));
    }

    // ------------------------------------------------------------------ control flow and connections

    private static boolean straightLine(Node node) {
        Node child = node;
        for (Node cur = node.getParentNode().orElse(null);
                cur != null;
                child = cur, cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof MethodDeclaration
                    || cur instanceof ConstructorDeclaration
                    || cur instanceof InitializerDeclaration) {
                return true;
            }
            if ((cur instanceof IfStmt s && s.getCondition() != child)
                    || (cur instanceof ConditionalExpr c && c.getCondition() != child)
                    || cur instanceof SwitchEntry
                    || cur instanceof CatchClause
                    || cur instanceof LambdaExpr
                    || cur instanceof ForEachStmt
                    || cur instanceof ForStmt
                    || cur instanceof WhileStmt
                    || cur instanceof DoStmt
                    || (cur instanceof BinaryExpr b
                            && b.getRight() == child
                            && (b.getOperator() == BinaryExpr.Operator.AND
                                    || b.getOperator() == BinaryExpr.Operator.OR))) {
                return false;
            }
        }
        return false;
    }

    private static boolean fresh(LockSite site, Node node) {
        if (site.execution().connection() == ConnectionScope.POOLED_PER_CALL) {
            return true;
        }
        if (!(node instanceof MethodCallExpr exec)) {
            return false;
        }
        Expression root = exec.getScope().orElse(null);
        for (int i = 0; i < 6 && root != null; i++) {
            if (root instanceof MethodCallExpr m) {
                if (m.getNameAsString().equals("getConnection")) {
                    return true;
                }
                root = m.getScope().orElse(null);
            } else if (root instanceof NameExpr n) {
                Optional<VariableDeclarator> v = JavaScopes.local(n.getNameAsString(), n);
                if (v.isEmpty() || v.get().getInitializer().isEmpty()) {
                    return false;
                }
                root = v.get().getInitializer().get();
            } else if (root instanceof EnclosedExpr || root instanceof CastExpr) {
                root = root instanceof EnclosedExpr e ? e.getInner() : ((CastExpr) root).getExpression();
            } else {
                return false;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ helpers

    /** @return true for a statement that drops its expression's value (not the body of an expression lambda) */
    private static boolean dropped(Node n) {
        Node parent = n == null ? null : n.getParentNode().orElse(null);
        // an expression lambda's body and a switch expression's arrow case are the value, not a dropped statement
        return n instanceof ExpressionStmt
                && !(parent instanceof LambdaExpr)
                && !(parent instanceof SwitchEntry entry
                        && entry.getType() == SwitchEntry.Type.EXPRESSION
                        && entry.getParentNode().orElse(null) instanceof SwitchExpr);
    }

    private static boolean isInside(Node inner, Node outer) {
        for (Node cur = inner; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur == outer) {
                return true;
            }
        }
        return false;
    }

    private static boolean within(SourceRegion inner, SourceRegion outer) {
        return inner.path().equals(outer.path())
                && compare(inner.startLine(), inner.startColumn(), outer.startLine(), outer.startColumn()) >= 0
                && compare(inner.startLine(), inner.startColumn(), outer.endLine(), outer.endColumn()) <= 0;
    }

    private static int compare(int l1, int c1, int l2, int c2) {
        return l1 != l2 ? Integer.compare(l1, l2) : Integer.compare(c1, c2);
    }

    private SourceRegion region(Node n) {
        int s = n.getBegin().map(p -> file.offsetOf(p.line, p.column)).orElse(0);
        int e = n.getEnd().map(p -> file.offsetOf(p.line, p.column) + 1).orElse(s);
        return file.region(s, e);
    }

    private static String abbreviate(String s) {
        String one = s.replaceAll("\\s+", " ");
        return one.length() > 60 ? one.substring(0, 57) + "..." : one;
    }
}
