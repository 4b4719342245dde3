package io.github.pgadvisorylint.core.api;

import static io.github.pgadvisorylint.core.api.Role.BEGINS_TRANSACTION;
import static io.github.pgadvisorylint.core.api.Role.BINDS_PARAMETER;
import static io.github.pgadvisorylint.core.api.Role.BORROWS_CONNECTION;
import static io.github.pgadvisorylint.core.api.Role.CARRIES_ARGUMENT;
import static io.github.pgadvisorylint.core.api.Role.CARRIES_RECEIVER;
import static io.github.pgadvisorylint.core.api.Role.CLOSES;
import static io.github.pgadvisorylint.core.api.Role.COMMITS;
import static io.github.pgadvisorylint.core.api.Role.CONFIGURES_QUERY;
import static io.github.pgadvisorylint.core.api.Role.DESCRIBES_RESULT;
import static io.github.pgadvisorylint.core.api.Role.EXECUTES_SQL;
import static io.github.pgadvisorylint.core.api.Role.FETCHES_LIST;
import static io.github.pgadvisorylint.core.api.Role.FETCHES_ONE;
import static io.github.pgadvisorylint.core.api.Role.GUARDS;
import static io.github.pgadvisorylint.core.api.Role.ITERATES;
import static io.github.pgadvisorylint.core.api.Role.JVM_ONLY;
import static io.github.pgadvisorylint.core.api.Role.LENDS_TRANSACTION_CONNECTION;
import static io.github.pgadvisorylint.core.api.Role.LOGS;
import static io.github.pgadvisorylint.core.api.Role.PASSES_VALUE;
import static io.github.pgadvisorylint.core.api.Role.PINS_CONNECTION;
import static io.github.pgadvisorylint.core.api.Role.PREPARES_SQL;
import static io.github.pgadvisorylint.core.api.Role.PURE;
import static io.github.pgadvisorylint.core.api.Role.READS_RESULT;
import static io.github.pgadvisorylint.core.api.Role.RETURNS_CONNECTION;
import static io.github.pgadvisorylint.core.api.Role.ROLLS_BACK;
import static io.github.pgadvisorylint.core.api.Role.RUNS_IN_TRANSACTION;
import static io.github.pgadvisorylint.core.api.Role.RUNS_MIGRATIONS;
import static io.github.pgadvisorylint.core.api.Role.SETS_AUTOCOMMIT;
import static io.github.pgadvisorylint.core.api.Role.STORES_ARGUMENT;
import static io.github.pgadvisorylint.core.api.Role.TAKES_NO_SQL;
import static io.github.pgadvisorylint.core.api.Role.TESTS_ROW;
import static io.github.pgadvisorylint.core.api.Role.TEST_WRAPPER;

import io.github.pgadvisorylint.core.model.ExecutionApi;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Pattern;

/**
 * The one place that knows data-access and library APIs: which calls execute SQL, prepare it, bind
 * parameters, read results, begin or end transactions, borrow, pin or return connections, only log,
 * or cannot fail; which types are pooled, unpooled, per-call or one connection. Every analysis of
 * {@code core} that needs such knowledge asks this catalog through small queries ({@link #roles},
 * {@link #is}, {@link #sqlTextApi}, {@link #connectionKind}, {@link #source}, ...) instead of keeping
 * its own list of method names.
 *
 * <p><b>Where the data lives.</b> In this class, as an immutable list of {@link MethodMatcher}s and
 * {@link TypeFact}s built once ({@link #standard()}), rather than in a YAML or JSON resource: the roles,
 * families and {@link ExecutionApi}s are checked by the compiler, nothing can fail to load at run time,
 * and a rename of an enum constant reaches every entry. One entry a line, grouped by library below.
 *
 * <p><b>Adding a call.</b> Add one {@code MethodMatcher} line to its library's group with every role
 * it has (a name appears once per library and receiver set: the constructor rejects duplicates), then,
 * if an analysis must treat it differently, let that analysis ask for the role. {@code ApiCatalogTest}
 * checks the entries; {@code ApiKnowledgeStaysInCatalogTest} fails when a class outside this package
 * declares a new set of API method names.
 *
 * <p>Name-level queries ({@link #is(Role, String)}) ignore receivers and arities: they serve analyses
 * that see a call's name but not its receiver's type, as a syntax-only front end often does.
 */
public final class ApiCatalog {

    private static final int ANY = MethodMatcher.ANY;

    /** Receivers whose calls only log: {@code log}, {@code LOGGER}, {@code this.log}, {@code System.out}. */
    private static final Pattern LOGGER_RECEIVER = Pattern.compile("(?i)(.*\\.)?_?(log|logger)|system\\.(out|err)");

    /**
     * A metrics registry or a meter reached from one: {@code metrics}, {@code this.meterRegistry},
     * {@code metrics.counter("jobs.locked")} (Micrometer, Dropwizard Metrics, Prometheus' simpleclient).
     */
    private static final Pattern METRICS_RECEIVER =
            Pattern.compile("(?i)(this\\.)?_?(metrics?|meterRegistry|meters)(\\..*)?");

    private static final Set<String> STATEMENTS = Set.of("Statement", "PreparedStatement", "CallableStatement");
    private static final Set<String> PREPARED = Set.of("PreparedStatement", "CallableStatement");
    private static final Set<String> RESULTS = Set.of("ResultSet", "CallableStatement");
    private static final Set<String> SPRING_TEMPLATES =
            Set.of("JdbcTemplate", "NamedParameterJdbcTemplate", "JdbcOperations", "NamedParameterJdbcOperations");
    private static final Set<String> JDBC_CLIENT_SPECS = Set.of("StatementSpec", "MappedQuerySpec", "ResultQuerySpec");
    private static final Set<String> JPA_QUERIES =
            Set.of("Query", "TypedQuery", "NativeQuery", "SQLQuery", "NativeQueryImplementor");
    private static final Set<String> JPA_SESSIONS = Set.of("EntityManager", "Session", "StatelessSession");
    private static final Set<String> VERTX_CLIENTS =
            Set.of("Pool", "PgPool", "JDBCPool", "MySQLPool", "SqlClient", "SqlConnection", "PgConnection");
    private static final Set<String> VERTX_POOLS = Set.of("Pool", "PgPool", "JDBCPool", "MySQLPool");
    private static final Set<String> ANY_RECEIVER = Set.of();
    /** java.util.concurrent.atomic's value holders. */
    private static final Set<String> ATOMICS =
            Set.of("AtomicBoolean", "AtomicInteger", "AtomicLong", "AtomicReference");

    private static final ApiCatalog STANDARD = new ApiCatalog(standardMatchers(), standardTypes());

    private final List<MethodMatcher> matchers;
    private final List<TypeFact> types;
    private final Map<String, List<MethodMatcher>> byName = new HashMap<>();
    private final List<MethodMatcher> patterns = new ArrayList<>();

    /**
     * @param matchers the method entries; no two with the same library, receivers, name and arities
     * @param types    the type entries; no two with the same library and name
     * @throws IllegalArgumentException on a duplicate entry
     */
    public ApiCatalog(List<MethodMatcher> matchers, List<TypeFact> types) {
        this.matchers = List.copyOf(matchers);
        this.types = List.copyOf(types);
        Set<String> keys = new HashSet<>();
        for (MethodMatcher m : this.matchers) {
            String key = m.family() + " " + new TreeSet<>(m.receivers()) + " " + m.name() + "/" + m.minArity() + ".."
                    + m.maxArity();
            if (!keys.add(key)) {
                throw new IllegalArgumentException("duplicate matcher " + key);
            }
            if (m.isPattern()) {
                patterns.add(m);
            } else {
                byName.computeIfAbsent(m.name(), k -> new ArrayList<>()).add(m);
            }
        }
        Set<String> typeKeys = new HashSet<>();
        for (TypeFact t : this.types) {
            if (!typeKeys.add(t.family() + " " + t.simpleName())) {
                throw new IllegalArgumentException("duplicate type " + t.family() + " " + t.simpleName());
            }
        }
    }

    /** @return the catalog of the libraries this tool knows, built once */
    public static ApiCatalog standard() {
        return STANDARD;
    }

    /** @return every method entry, in declaration order */
    public List<MethodMatcher> matchers() {
        return matchers;
    }

    /** @return every type entry, in declaration order */
    public List<TypeFact> types() {
        return types;
    }

    /**
     * @param receiverType the receiver's declared simple type name, or null when it is not visible (then
     *                     entries for any receiver apply)
     * @param name         the method name
     * @param arity        the number of arguments
     * @return the roles of every entry that matches; empty for a call the catalog does not know
     */
    public Set<Role> roles(String receiverType, String name, int arity) {
        Set<Role> out = EnumSet.noneOf(Role.class);
        for (MethodMatcher m : candidates(name)) {
            if (m.matchesReceiver(receiverType) && m.matchesArity(arity)) {
                out.addAll(m.roles());
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * @param receiverType the receiver's declared simple type name, or null when it is not visible
     * @param name         the method name
     * @param arity        the number of arguments
     * @param families     the libraries to consider
     * @return the roles of every entry of those libraries that matches
     */
    public Set<Role> roles(String receiverType, String name, int arity, Set<ApiFamily> families) {
        Set<Role> out = EnumSet.noneOf(Role.class);
        for (MethodMatcher m : candidates(name)) {
            if (families.contains(m.family()) && m.matchesReceiver(receiverType) && m.matchesArity(arity)) {
                out.addAll(m.roles());
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * @param role a role
     * @param name a method name
     * @return true when some entry of that name, for any receiver and arity, has the role
     */
    public boolean is(Role role, String name) {
        for (MethodMatcher m : candidates(name)) {
            if (m.roles().contains(role)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param role     a role
     * @param name     a method name
     * @param families the libraries to consider
     * @return true when some entry of that name in one of the libraries has the role
     */
    public boolean is(Role role, String name, Set<ApiFamily> families) {
        for (MethodMatcher m : candidates(name)) {
            if (m.roles().contains(role) && families.contains(m.family())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The API a call whose first argument is SQL text reports, looked up by name within some libraries.
     *
     * @param name     a method name
     * @param families the libraries to consider (each name has at most one SQL-taking API among
     *                 {@link ApiFamily#JDBC}, {@link ApiFamily#SPRING_JDBC} and {@link ApiFamily#JPA})
     * @return the API of the first such entry, or empty
     */
    public Optional<ExecutionApi> sqlTextApi(String name, Set<ApiFamily> families) {
        for (MethodMatcher m : candidates(name)) {
            if (m.api() != null && families.contains(m.family())) {
                return Optional.of(m.api());
            }
        }
        return Optional.empty();
    }

    /**
     * @param name a method name
     * @return true when a call of that name, in some library, takes SQL text as its first argument
     */
    public boolean takesSql(String name) {
        for (MethodMatcher m : candidates(name)) {
            if (m.api() != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * What {@code getConnection()} on a receiver of this type gives: a connection of its own for the
     * unpooled sources the catalog lists ({@code DriverManager}, {@code SimpleDriverDataSource},
     * {@code PGSimpleDataSource}, ...), a pooled one for the pools it lists and for any other
     * {@code *DataSource} or {@code *Pool*} type (F13).
     *
     * @param simpleType the receiver's simple type name
     * @return {@link ConnectionSource#UNPOOLED} or {@link ConnectionSource#POOLED}, or empty when not known
     */
    public Optional<ConnectionSource> connectionKind(String simpleType) {
        for (TypeFact t : types) {
            if (t.simpleName().equals(simpleType) && t.source() == ConnectionSource.UNPOOLED) {
                return Optional.of(ConnectionSource.UNPOOLED);
            }
        }
        if (simpleType.endsWith("DataSource")
                || simpleType.contains("Pool")
                || types.stream()
                        .anyMatch(t -> t.simpleName().equals(simpleType) && t.source() == ConnectionSource.POOLED)) {
            return Optional.of(ConnectionSource.POOLED);
        }
        return Optional.empty();
    }

    /**
     * @param family     a library
     * @param simpleType a simple type name
     * @return what that library's type of that name is to a connection, or empty when the catalog does not list it
     */
    public Optional<ConnectionSource> source(ApiFamily family, String simpleType) {
        for (TypeFact t : types) {
            if (t.family() == family && t.simpleName().equals(simpleType)) {
                return Optional.of(t.source());
            }
        }
        return Optional.empty();
    }

    /**
     * @param receiverType a receiver's declared simple type name
     * @param name         a method name
     * @return true when an entry names that type itself (not any receiver) with that method: the call runs a
     *     library's method ({@code Jdbi.inTransaction}), never a project method of the same name
     */
    public boolean declares(String receiverType, String name) {
        for (MethodMatcher m : candidates(name)) {
            if (m.receivers().contains(receiverType)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param family a library
     * @param source what its types are to a connection
     * @return the simple names of that library's types of that kind, sorted
     */
    public Set<String> types(ApiFamily family, ConnectionSource source) {
        Set<String> out = new TreeSet<>();
        for (TypeFact t : types) {
            if (t.family() == family && t.source() == source) {
                out.add(t.simpleName());
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * @param role a role
     * @return the exact method names (patterns left out) of the entries with that role, sorted
     */
    public Set<String> names(Role role) {
        Set<String> out = new TreeSet<>();
        for (MethodMatcher m : matchers) {
            if (!m.isPattern() && m.roles().contains(role)) {
                out.add(m.name());
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * @return the methods of JDBC's {@code Connection} that make a statement running on it ({@code createStatement},
     *     {@code prepareStatement}, {@code prepareCall}; java.sql javadoc), sorted
     */
    public Set<String> statementFactories() {
        Set<String> out = new TreeSet<>();
        for (MethodMatcher m : matchers) {
            if (!m.isPattern()
                    && m.family() == ApiFamily.JDBC
                    && m.receivers().contains("Connection")
                    && m.roles().contains(Role.CARRIES_RECEIVER)) {
                out.add(m.name());
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * @param families libraries
     * @return the exact method names of those libraries' entries, sorted
     */
    public Set<String> names(Set<ApiFamily> families) {
        Set<String> out = new TreeSet<>();
        for (MethodMatcher m : matchers) {
            if (!m.isPattern() && families.contains(m.family())) {
                out.add(m.name());
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * @param receiverText a call's receiver as written ({@code log}, {@code this.LOGGER}, {@code System.out})
     * @return true when it names a logger or a console stream: its calls only log ({@link Role#LOGS})
     */
    public boolean isLoggerReceiver(String receiverText) {
        return LOGGER_RECEIVER.matcher(receiverText).matches();
    }

    /**
     * @param receiverText a call's receiver as written ({@code metrics}, {@code metrics.counter("jobs.locked")})
     * @return true when it names a metrics registry or a meter taken from one: its calls record a measurement in
     *     memory and do not fail in practice, so between a lock and its {@code try} they cannot skip the unlock
     */
    public boolean isMetricsReceiver(String receiverText) {
        return METRICS_RECEIVER.matcher(receiverText).matches();
    }

    private List<MethodMatcher> candidates(String name) {
        // asked for every call of every lock-using file: the answer per name is fixed, so it is kept
        return candidatesByName.computeIfAbsent(name, this::findCandidates);
    }

    /** The entries whose name or pattern matches a method name, by name (filled as names are asked for). */
    private final ConcurrentMap<String, List<MethodMatcher>> candidatesByName = new ConcurrentHashMap<>();

    private List<MethodMatcher> findCandidates(String name) {
        List<MethodMatcher> exact = byName.getOrDefault(name, List.of());
        List<MethodMatcher> out = null;
        for (MethodMatcher p : patterns) {
            if (p.matchesName(name)) {
                if (out == null) {
                    out = new ArrayList<>(exact);
                }
                out.add(p);
            }
        }
        return out == null ? exact : List.copyOf(out);
    }

    // ------------------------------------------------------------------ the data

    /** Collects entries; one call per group of names that share library, receivers, arities, roles and API. */
    private static final class Table {
        private final List<MethodMatcher> out = new ArrayList<>();

        Table add(
                ApiFamily family,
                Set<String> receivers,
                int min,
                int max,
                ExecutionApi api,
                Set<Role> roles,
                String... names) {
            for (String n : names) {
                out.add(new MethodMatcher(family, receivers, n, min, max, roles, api));
            }
            return this;
        }

        Table add(ApiFamily family, Set<String> receivers, Set<Role> roles, String... names) {
            return add(family, receivers, 0, ANY, null, roles, names);
        }
    }

    private static Set<Role> roles(Role first, Role... more) {
        return EnumSet.of(first, more);
    }

    private static List<MethodMatcher> standardMatchers() {
        Table t = new Table();
        // JDBC (java.sql javadoc): statements run on the connection they came from
        t.add(ApiFamily.JDBC, Set.of("Connection"), roles(CARRIES_RECEIVER), "createStatement");
        t.add(
                ApiFamily.JDBC,
                Set.of("Connection"),
                1,
                ANY,
                ExecutionApi.JDBC_PREPARED_STATEMENT,
                roles(PREPARES_SQL, CARRIES_RECEIVER),
                "prepareStatement");
        t.add(
                ApiFamily.JDBC,
                Set.of("Connection"),
                1,
                ANY,
                ExecutionApi.JDBC_CALLABLE_STATEMENT,
                roles(PREPARES_SQL, CARRIES_RECEIVER),
                "prepareCall");
        t.add(
                ApiFamily.JDBC,
                STATEMENTS,
                1,
                ANY,
                ExecutionApi.JDBC_STATEMENT,
                roles(EXECUTES_SQL),
                "execute",
                "executeUpdate",
                "executeLargeUpdate");
        t.add(
                ApiFamily.JDBC,
                STATEMENTS,
                1,
                ANY,
                ExecutionApi.JDBC_STATEMENT,
                roles(EXECUTES_SQL, CARRIES_RECEIVER),
                "executeQuery");
        t.add(ApiFamily.JDBC, STATEMENTS, 1, 1, ExecutionApi.JDBC_STATEMENT, roles(PREPARES_SQL), "addBatch");
        t.add(
                ApiFamily.JDBC,
                PREPARED,
                0,
                0,
                null,
                roles(EXECUTES_SQL),
                "execute",
                "executeUpdate",
                "executeLargeUpdate");
        t.add(ApiFamily.JDBC, PREPARED, 0, 0, null, roles(EXECUTES_SQL, CARRIES_RECEIVER), "executeQuery");
        t.add(ApiFamily.JDBC, STATEMENTS, 0, 0, null, roles(EXECUTES_SQL), "executeBatch");
        t.add(ApiFamily.JDBC, STATEMENTS, roles(CARRIES_RECEIVER), "getResultSet");
        t.add(ApiFamily.JDBC, Set.of("*Statement"), roles(BINDS_PARAMETER), "set*");
        t.add(
                ApiFamily.JDBC,
                Set.of("Connection", "Statement", "PreparedStatement", "CallableStatement", "ResultSet", "DataSource"),
                roles(CARRIES_RECEIVER),
                "unwrap");
        t.add(ApiFamily.JDBC, RESULTS, roles(READS_RESULT, CARRIES_RECEIVER), "getBoolean", "getObject");
        t.add(ApiFamily.JDBC, RESULTS, roles(READS_RESULT), "get*");
        t.add(ApiFamily.JDBC, RESULTS, roles(PURE), "wasNull");
        t.add(ApiFamily.JDBC, Set.of("ResultSet"), roles(DESCRIBES_RESULT, CARRIES_RECEIVER), "getStatement");
        t.add(
                ApiFamily.JDBC,
                Set.of("ResultSet"),
                roles(DESCRIBES_RESULT),
                "getMetaData",
                "getWarnings",
                "getFetchSize",
                "getType",
                "getConcurrency",
                "getHoldability",
                "getCursorName",
                "getRow");
        t.add(ApiFamily.JDBC, Set.of("ResultSet"), roles(TESTS_ROW, PURE), "next");
        t.add(ApiFamily.JDBC, Set.of("ResultSet"), roles(TESTS_ROW), "first", "last", "absolute", "isBeforeFirst");
        t.add(ApiFamily.JDBC, Set.of("Connection"), 0, 0, null, roles(COMMITS), "commit");
        t.add(ApiFamily.JDBC, Set.of("Connection"), 0, 1, null, roles(ROLLS_BACK), "rollback");
        t.add(ApiFamily.JDBC, Set.of("Connection"), 1, 1, null, roles(SETS_AUTOCOMMIT), "setAutoCommit");
        t.add(
                ApiFamily.JDBC,
                Set.of("Connection", "Statement", "PreparedStatement", "CallableStatement", "ResultSet"),
                0,
                0,
                null,
                roles(CLOSES),
                "close");
        t.add(ApiFamily.JDBC, Set.of("DataSource", "DriverManager"), roles(BORROWS_CONNECTION), "getConnection");

        // Spring JDBC: the templates borrow a connection per call (F5); JdbcClient builds a statement fluently
        t.add(
                ApiFamily.SPRING_JDBC,
                SPRING_TEMPLATES,
                1,
                ANY,
                ExecutionApi.SPRING_JDBC_TEMPLATE,
                roles(EXECUTES_SQL),
                "queryForObject",
                "queryForList",
                "queryForMap",
                "queryForRowSet",
                "queryForStream",
                "queryForLong",
                "queryForInt",
                "batchUpdate",
                "query",
                "update");
        t.add(ApiFamily.SPRING_JDBC, SPRING_TEMPLATES, 1, ANY, null, roles(EXECUTES_SQL), "execute");
        t.add(
                ApiFamily.SPRING_JDBC,
                Set.of("JdbcTemplate", "JdbcOperations"),
                roles(LENDS_TRANSACTION_CONNECTION),
                "execute");
        t.add(
                ApiFamily.SPRING_JDBC,
                Set.of("JdbcClient"),
                1,
                ANY,
                ExecutionApi.SPRING_JDBC_TEMPLATE,
                roles(PREPARES_SQL),
                "sql");
        t.add(ApiFamily.SPRING_JDBC, JDBC_CLIENT_SPECS, roles(BINDS_PARAMETER), "param", "params", "paramSource");
        t.add(ApiFamily.SPRING_JDBC, JDBC_CLIENT_SPECS, roles(CONFIGURES_QUERY), "query");
        t.add(ApiFamily.SPRING_JDBC, JDBC_CLIENT_SPECS, roles(FETCHES_ONE), "single", "optional", "singleValue");
        t.add(ApiFamily.SPRING_JDBC, JDBC_CLIENT_SPECS, roles(FETCHES_LIST), "list", "set");
        t.add(ApiFamily.SPRING_JDBC, Set.of("DataSourceUtils"), roles(BORROWS_CONNECTION), "getConnection");
        t.add(
                ApiFamily.SPRING_JDBC,
                Set.of("DataSourceUtils"),
                roles(RETURNS_CONNECTION),
                "releaseConnection",
                "doReleaseConnection");
        // in-house pool utilities and commons-dbutils: DbUtils.closeQuietly(c), Pool.closeConnection(name, c)
        t.add(
                ApiFamily.GENERIC,
                ANY_RECEIVER,
                roles(RETURNS_CONNECTION),
                "closeQuietly",
                "closeConnection",
                "returnConnection");

        // Spring transactions: the callbacks of TransactionTemplate run inside its transaction
        t.add(
                ApiFamily.SPRING_TX,
                ANY_RECEIVER,
                roles(BEGINS_TRANSACTION),
                "doInTransaction",
                "doInTransactionWithoutResult");

        t.add(
                ApiFamily.SPRING_TX,
                Set.of("TransactionTemplate", "TransactionOperations"),
                roles(RUNS_IN_TRANSACTION),
                "execute",
                "executeWithoutResult");
        t.add(ApiFamily.GENERIC, Set.of("QuarkusTransaction"), roles(RUNS_IN_TRANSACTION), "run", "call");

        // JPA and Hibernate: native queries, their options and fetches
        t.add(
                ApiFamily.JPA,
                JPA_SESSIONS,
                1,
                ANY,
                ExecutionApi.JPA_NATIVE_QUERY,
                roles(PREPARES_SQL),
                "createNativeQuery",
                "createSQLQuery",
                "createNativeMutationQuery");
        t.add(ApiFamily.JPA, JPA_QUERIES, roles(BINDS_PARAMETER), "setParameter");
        // a JPQL query runs on its EntityManager's connection (the transaction's, in one)
        t.add(ApiFamily.JPA, JPA_SESSIONS, roles(CARRIES_RECEIVER), "createQuery", "createNamedQuery");
        t.add(
                ApiFamily.JPA,
                JPA_QUERIES,
                roles(CONFIGURES_QUERY),
                "setHint",
                "unwrap",
                "addScalar",
                "setFlushMode",
                "setLockMode",
                "setTimeout",
                "setMaxResults",
                "setFirstResult",
                "setReadOnly",
                "setCacheable",
                "setResultTransformer",
                "addEntity");
        t.add(ApiFamily.JPA, JPA_QUERIES, roles(FETCHES_ONE, CARRIES_RECEIVER), "getSingleResult");
        t.add(
                ApiFamily.JPA,
                JPA_QUERIES,
                roles(FETCHES_ONE),
                "getSingleResultOrNull",
                "uniqueResult",
                "uniqueResultOptional");
        t.add(ApiFamily.JPA, JPA_QUERIES, roles(FETCHES_LIST), "getResultList", "list");
        t.add(ApiFamily.JPA, JPA_QUERIES, 0, 0, null, roles(EXECUTES_SQL), "executeUpdate");
        t.add(
                ApiFamily.JPA,
                Set.of("Session"),
                roles(PINS_CONNECTION, LENDS_TRANSACTION_CONNECTION),
                "doWork",
                "doReturningWork");

        // jOOQ: plain SQL on a DSLContext
        t.add(
                ApiFamily.JOOQ,
                Set.of("DSLContext"),
                1,
                ANY,
                ExecutionApi.JOOQ,
                roles(EXECUTES_SQL),
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
                "execute");
        t.add(
                ApiFamily.JOOQ,
                Set.of("DSLContext"),
                1,
                ANY,
                ExecutionApi.JOOQ,
                roles(PREPARES_SQL),
                "query",
                "resultQuery");
        t.add(ApiFamily.JOOQ, Set.of("DSLContext"), roles(PINS_CONNECTION), "connection", "connectionResult");
        // DSL.using(cfg) in a transaction callback: a context over the callback's connection, not a new one
        t.add(ApiFamily.JOOQ, Set.of("DSL"), 1, 1, null, roles(CARRIES_ARGUMENT), "using");
        t.add(
                ApiFamily.JOOQ,
                Set.of("DSLContext"),
                roles(BEGINS_TRANSACTION, RUNS_IN_TRANSACTION),
                "transaction",
                "transactionResult");

        // JDBI: a Handle is one connection; Jdbi opens one per call
        t.add(
                ApiFamily.JDBI,
                Set.of("Handle"),
                1,
                ANY,
                ExecutionApi.JDBI,
                roles(PREPARES_SQL),
                "createQuery",
                "createUpdate",
                "createCall",
                "select");
        t.add(ApiFamily.JDBI, Set.of("Handle"), 1, ANY, ExecutionApi.JDBI, roles(EXECUTES_SQL), "execute");
        t.add(ApiFamily.JDBI, Set.of("Jdbi"), roles(PINS_CONNECTION), "withHandle", "useHandle");
        t.add(
                ApiFamily.JDBI,
                Set.of("Jdbi", "Handle"),
                roles(BEGINS_TRANSACTION, RUNS_IN_TRANSACTION),
                "inTransaction",
                "useTransaction",
                "inTransactionUnchecked");
        t.add(ApiFamily.JDBI, ANY_RECEIVER, roles(BINDS_PARAMETER), "bind");
        t.add(ApiFamily.JDBI, ANY_RECEIVER, roles(FETCHES_ONE), "one", "findOne", "findFirst", "findOnly", "first");
        t.add(ApiFamily.JDBI, ANY_RECEIVER, roles(FETCHES_LIST), "list");

        // R2DBC and Spring's DatabaseClient
        t.add(ApiFamily.R2DBC, Set.of("Connection"), 1, 1, ExecutionApi.R2DBC, roles(PREPARES_SQL), "createStatement");
        t.add(ApiFamily.R2DBC, Set.of("DatabaseClient"), 1, 1, ExecutionApi.R2DBC, roles(PREPARES_SQL), "sql");
        t.add(ApiFamily.R2DBC, Set.of("Statement", "GenericExecuteSpec"), roles(BINDS_PARAMETER), "bind", "bindNull");
        t.add(ApiFamily.R2DBC, Set.of("DatabaseClient"), roles(PINS_CONNECTION), "inConnection", "inConnectionMany");
        // an R2DBC connection's own transaction (R2DBC SPI 1.0, "Transactions"): begin, then commit or roll back
        t.add(ApiFamily.R2DBC, Set.of("Connection"), 0, 1, null, roles(BEGINS_TRANSACTION), "beginTransaction");
        t.add(ApiFamily.R2DBC, Set.of("Connection"), 0, 0, null, roles(COMMITS), "commitTransaction");
        t.add(ApiFamily.R2DBC, Set.of("Connection"), 0, 0, null, roles(ROLLS_BACK), "rollbackTransaction");

        // Vert.x SQL client
        t.add(
                ApiFamily.VERTX,
                VERTX_CLIENTS,
                1,
                1,
                ExecutionApi.VERTX_SQL,
                roles(PREPARES_SQL),
                "preparedQuery",
                "query");
        t.add(ApiFamily.VERTX, VERTX_POOLS, roles(PINS_CONNECTION), "withConnection");
        t.add(ApiFamily.VERTX, VERTX_POOLS, roles(BEGINS_TRANSACTION, RUNS_IN_TRANSACTION), "withTransaction");
        t.add(ApiFamily.VERTX, VERTX_POOLS, roles(BORROWS_CONNECTION), "getConnection");

        // Micronaut Data JdbcOperations
        t.add(
                ApiFamily.MICRONAUT,
                Set.of("JdbcOperations"),
                2,
                2,
                ExecutionApi.MICRONAUT_JDBC,
                roles(PREPARES_SQL),
                "prepareStatement");

        // MyBatis sessions run mapped statements by id
        t.add(
                ApiFamily.MYBATIS,
                Set.of("SqlSession"),
                1,
                ANY,
                null,
                roles(EXECUTES_SQL),
                "selectOne",
                "selectList",
                "insert",
                "update",
                "delete");
        t.add(ApiFamily.MYBATIS, Set.of("SqlSession"), roles(COMMITS), "commit");
        t.add(ApiFamily.MYBATIS, Set.of("SqlSession"), roles(ROLLS_BACK), "rollback");

        // in-house wrappers seen in real code, matched by name
        t.add(ApiFamily.GENERIC, ANY_RECEIVER, 1, ANY, ExecutionApi.OTHER_CALL, roles(EXECUTES_SQL), "run");
        t.add(ApiFamily.GENERIC, ANY_RECEIVER, roles(PINS_CONNECTION), "useConnection");
        t.add(ApiFamily.GENERIC, ANY_RECEIVER, roles(BEGINS_TRANSACTION), "runInTransaction");
        t.add(ApiFamily.GENERIC, ANY_RECEIVER, roles(FETCHES_LIST), "listOf");

        // the JDK's concurrency classes (java.util.concurrent, .locks, .atomic, java.lang.Thread): a receiver of
        // one of these types runs the JDK's method, never a project method of the same name (declares)
        t.add(ApiFamily.JDK, ATOMICS, 1, 1, null, roles(STORES_ARGUMENT, JVM_ONLY), "set", "lazySet", "getAndSet");
        t.add(ApiFamily.JDK, ATOMICS, 2, 2, null, roles(STORES_ARGUMENT, JVM_ONLY), "compareAndSet");
        t.add(
                ApiFamily.JDK,
                ATOMICS,
                roles(JVM_ONLY),
                "get",
                "incrementAndGet",
                "decrementAndGet",
                "getAndIncrement",
                "getAndDecrement",
                "addAndGet",
                "updateAndGet");
        t.add(
                ApiFamily.JDK,
                Set.of("ReentrantLock", "ReentrantReadWriteLock", "StampedLock"),
                roles(JVM_ONLY),
                "lock",
                "tryLock",
                "unlock",
                "lockInterruptibly",
                "newCondition",
                "readLock",
                "writeLock");
        t.add(
                ApiFamily.JDK,
                Set.of("Semaphore", "CountDownLatch", "CyclicBarrier", "Phaser"),
                roles(JVM_ONLY),
                "acquire",
                "tryAcquire",
                "release",
                "await",
                "countDown",
                "arrive",
                "arriveAndAwaitAdvance");
        t.add(
                ApiFamily.JDK,
                Set.of("Thread"),
                roles(JVM_ONLY),
                "start",
                "run",
                "join",
                "interrupt",
                "setDaemon",
                "setName");

        // the JDK: values passed through, checks, clocks, strings, streams
        t.add(
                ApiFamily.JDK,
                ANY_RECEIVER,
                roles(PURE, PASSES_VALUE, CARRIES_RECEIVER),
                "get",
                "orElse",
                "booleanValue");
        t.add(ApiFamily.JDK, ANY_RECEIVER, roles(PASSES_VALUE, CARRIES_RECEIVER), "getFirst", "orElseThrow");
        t.add(
                ApiFamily.JDK,
                ANY_RECEIVER,
                roles(PASSES_VALUE),
                "orElseGet",
                "requireNonNullElse",
                "ofNullable",
                "of",
                "parseBoolean",
                "isTrue");
        t.add(ApiFamily.JDK, ANY_RECEIVER, roles(PURE, PASSES_VALUE), "valueOf", "toString");
        t.add(ApiFamily.JDK, ANY_RECEIVER, roles(PURE, PASSES_VALUE, TAKES_NO_SQL), "equals");
        t.add(
                ApiFamily.JDK,
                ANY_RECEIVER,
                roles(PURE),
                "longValue",
                "intValue",
                "hashCode",
                "currentTimeMillis",
                "nanoTime",
                "now",
                "get*",
                "is*",
                "has*");
        t.add(ApiFamily.JDK, ANY_RECEIVER, roles(PURE, TAKES_NO_SQL), "format", "formatted", "append");
        // java.util.Collections' constant and wrapping collections: nothing to fail
        t.add(
                ApiFamily.JDK,
                ANY_RECEIVER,
                roles(PURE, TAKES_NO_SQL),
                "emptyList",
                "emptySet",
                "emptyMap",
                "singletonList",
                "singletonMap",
                "unmodifiableList",
                "unmodifiableSet",
                "unmodifiableMap");
        // string building: the text they return is followed to where it runs (core.java.StringEvaluator)
        t.add(ApiFamily.JDK, ANY_RECEIVER, roles(PURE, TAKES_NO_SQL), "join", "concat");
        t.add(ApiFamily.JDK, Set.of("StringJoiner"), roles(TAKES_NO_SQL), "add", "setEmptyValue");
        t.add(ApiFamily.JDK, ANY_RECEIVER, roles(PURE, TESTS_ROW), "isPresent", "isEmpty", "size");
        t.add(ApiFamily.JDK, ANY_RECEIVER, roles(TESTS_ROW), "hasNext");
        t.add(
                ApiFamily.JDK,
                ANY_RECEIVER,
                roles(ITERATES),
                "forEach",
                "forEachOrdered",
                "map",
                "mapToObj",
                "flatMap",
                "peek",
                "filter",
                "mapToLong",
                "mapToInt",
                "anyMatch",
                "allMatch",
                "noneMatch",
                "collect",
                "forEachRemaining");
        t.add(
                ApiFamily.JDK,
                ANY_RECEIVER,
                roles(TAKES_NO_SQL),
                "insert",
                "equalsIgnoreCase",
                "contains",
                "startsWith",
                "endsWith",
                "matches",
                "indexOf",
                "lastIndexOf",
                "replace",
                "replaceAll",
                "replaceFirst",
                "split",
                "requireNonNull",
                "getMessage",
                "addSuppressed",
                "setMessage",
                "put",
                "getProperty",
                "getenv");
        t.add(ApiFamily.JDK, Set.of("PrintStream"), roles(LOGS, TAKES_NO_SQL), "println", "print", "printf");
        // schema migration runners: a blocking lock around them waits on their concurrent index builds (F21)
        t.add(ApiFamily.GENERIC, Set.of("Flyway"), roles(RUNS_MIGRATIONS), "migrate");
        t.add(ApiFamily.GENERIC, Set.of("Liquibase"), roles(RUNS_MIGRATIONS), "update");
        t.add(ApiFamily.GENERIC, Set.of("ScriptUtils"), roles(RUNS_MIGRATIONS), "executeSqlScript");
        t.add(
                ApiFamily.GENERIC,
                Set.of("ResourceDatabasePopulator", "DatabasePopulatorUtils"),
                roles(RUNS_MIGRATIONS),
                "populate");
        // precondition checks: Guava, Spring, Commons Lang; each throws when its condition is false
        t.add(
                ApiFamily.GENERIC,
                Set.of("Preconditions", "Assert", "Validate", "Verify"),
                roles(GUARDS, TAKES_NO_SQL),
                "checkState",
                "checkArgument",
                "state",
                "isTrue",
                "validState",
                "verify");

        // logging
        t.add(
                ApiFamily.LOGGING,
                ANY_RECEIVER,
                roles(LOGS, TAKES_NO_SQL),
                "trace",
                "debug",
                "info",
                "warn",
                "warning",
                "error",
                "fatal",
                "log",
                "log*");

        // tests: stubbings, verifications, assertions and their messages
        t.add(
                ApiFamily.TESTING,
                ANY_RECEIVER,
                roles(TEST_WRAPPER, TAKES_NO_SQL),
                "when",
                "given",
                "verify",
                "doReturn",
                "doThrow",
                "thenReturn",
                "willReturn",
                "argThat",
                "eq",
                "expect");
        t.add(
                ApiFamily.TESTING,
                ANY_RECEIVER,
                roles(TEST_WRAPPER),
                "doAnswer",
                "doNothing",
                "doCallRealMethod",
                "thenThrow",
                "willThrow",
                "assertThat",
                "assertEquals",
                "assertTrue",
                "assertFalse",
                "assertNotNull",
                "assertNull",
                "assertThrows",
                "assertDoesNotThrow",
                "assertSame",
                "inOrder",
                "then");
        t.add(
                ApiFamily.TESTING,
                ANY_RECEIVER,
                roles(TAKES_NO_SQL),
                "containsString",
                "isEqualTo",
                "isEqualToIgnoringWhitespace",
                "hasMessage",
                "hasMessageContaining",
                "containsExactly",
                "fail",
                "describedAs",
                "as",
                "withFailMessage",
                "overridingErrorMessage",
                "expectMessage",
                "checkArgument",
                "checkState",
                "assert*");
        return t.out;
    }

    private static List<TypeFact> standardTypes() {
        List<TypeFact> out = new ArrayList<>();
        type(out, ApiFamily.JDBC, ConnectionSource.UNPOOLED, "DriverManager");
        type(out, ApiFamily.JDBC, ConnectionSource.POOLED, "DataSource");
        type(out, ApiFamily.JDBC, ConnectionSource.PINNED, "Connection");
        type(
                out,
                ApiFamily.SPRING_JDBC,
                ConnectionSource.UNPOOLED,
                "SimpleDriverDataSource",
                "DriverManagerDataSource",
                "SingleConnectionDataSource");
        type(
                out,
                ApiFamily.SPRING_JDBC,
                ConnectionSource.PER_CALL,
                "JdbcTemplate",
                "NamedParameterJdbcTemplate",
                "JdbcOperations",
                "NamedParameterJdbcOperations",
                "JdbcClient",
                "SimpleJdbcCall");
        type(out, ApiFamily.PGJDBC, ConnectionSource.UNPOOLED, "PGSimpleDataSource", "PGConnectionPoolDataSource");
        type(
                out,
                ApiFamily.POOLS,
                ConnectionSource.POOLED,
                "HikariDataSource",
                "BasicDataSource",
                "ComboPooledDataSource");
        type(out, ApiFamily.JPA, ConnectionSource.EITHER, "EntityManager", "Session");
        type(out, ApiFamily.JOOQ, ConnectionSource.EITHER, "DSLContext");
        type(out, ApiFamily.JDBI, ConnectionSource.PER_CALL, "Jdbi");
        type(out, ApiFamily.JDBI, ConnectionSource.PINNED, "Handle");
        type(out, ApiFamily.R2DBC, ConnectionSource.PER_CALL, "DatabaseClient");
        type(out, ApiFamily.R2DBC, ConnectionSource.PINNED, "Connection");
        type(out, ApiFamily.VERTX, ConnectionSource.PER_CALL, "Pool", "PgPool", "JDBCPool", "MySQLPool");
        type(out, ApiFamily.VERTX, ConnectionSource.PINNED, "SqlConnection", "PgConnection");
        type(out, ApiFamily.VERTX, ConnectionSource.EITHER, "SqlClient");
        type(out, ApiFamily.MYBATIS, ConnectionSource.EITHER, "SqlSession");
        return out;
    }

    private static void type(List<TypeFact> out, ApiFamily family, ConnectionSource source, String... names) {
        for (String n : names) {
            out.add(new TypeFact(family, n, source));
        }
    }
}
