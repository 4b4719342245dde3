package io.github.pgadvisorylint.core.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgadvisorylint.core.model.ExecutionApi;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The catalog's queries, and the health of its entries. */
class ApiCatalogTest {

    private static final ApiCatalog API = ApiCatalog.standard();

    @Test
    void rolesDependOnReceiverAndArity() {
        assertThat(API.roles("Statement", "execute", 1)).containsExactly(Role.EXECUTES_SQL);
        assertThat(API.roles("PreparedStatement", "executeQuery", 0))
                .containsExactlyInAnyOrder(Role.EXECUTES_SQL, Role.CARRIES_RECEIVER);
        // Statement.execute() without SQL does not exist; a plain Statement has no prepared execution
        assertThat(API.roles("Statement", "execute", 0)).doesNotContain(Role.EXECUTES_SQL);
        assertThat(API.roles("Connection", "setAutoCommit", 1)).containsExactly(Role.SETS_AUTOCOMMIT);
        assertThat(API.roles("Connection", "commit", 0)).containsExactly(Role.COMMITS);
        assertThat(API.roles("Connection", "close", 0)).containsExactly(Role.CLOSES);
        // a receiver the analysis cannot type: every entry of the name applies
        assertThat(API.roles(null, "query", 1)).contains(Role.EXECUTES_SQL, Role.PREPARES_SQL, Role.CONFIGURES_QUERY);
        assertThat(API.roles("Widget", "frobnicate", 0)).isEmpty();
    }

    @Test
    void receiverSuffixesAndAccessorPatterns() {
        assertThat(API.roles("LockStatement", "setLong", 2, EnumSet.of(ApiFamily.JDBC)))
                .contains(Role.BINDS_PARAMETER);
        assertThat(API.roles("Query", "setLong", 2, EnumSet.of(ApiFamily.JDBC))).doesNotContain(Role.BINDS_PARAMETER);
        assertThat(API.is(Role.PURE, "getLockKey")).isTrue();
        assertThat(API.is(Role.PURE, "getaway")).isFalse();
        assertThat(API.is(Role.PURE, "get")).isTrue();
        assertThat(API.is(Role.TAKES_NO_SQL, "logWarning")).isTrue();
        assertThat(API.is(Role.TAKES_NO_SQL, "login")).isFalse();
    }

    @Test
    void nameQueriesWithinFamilies() {
        Set<ApiFamily> onConnection = EnumSet.of(ApiFamily.JDBC, ApiFamily.SPRING_JDBC);
        assertThat(API.is(Role.EXECUTES_SQL, "queryForObject", onConnection)).isTrue();
        assertThat(API.is(Role.EXECUTES_SQL, "fetchOne", onConnection)).isFalse();
        assertThat(API.is(Role.EXECUTES_SQL, "fetchOne")).isTrue();
        assertThat(API.is(Role.CARRIES_RECEIVER, "getResultSet")).isTrue();
        assertThat(API.is(Role.CARRIES_RECEIVER, "getLong")).isFalse();
        assertThat(API.is(Role.PINS_CONNECTION, "withHandle")).isTrue();
        assertThat(API.is(Role.BEGINS_TRANSACTION, "inTransaction")).isTrue();
    }

    @Test
    void sqlTextApis() {
        Set<ApiFamily> byName = EnumSet.of(ApiFamily.JDBC, ApiFamily.SPRING_JDBC, ApiFamily.JPA);
        assertThat(API.sqlTextApi("prepareStatement", byName)).contains(ExecutionApi.JDBC_PREPARED_STATEMENT);
        assertThat(API.sqlTextApi("prepareCall", byName)).contains(ExecutionApi.JDBC_CALLABLE_STATEMENT);
        assertThat(API.sqlTextApi("execute", byName)).contains(ExecutionApi.JDBC_STATEMENT);
        assertThat(API.sqlTextApi("queryForObject", byName)).contains(ExecutionApi.SPRING_JDBC_TEMPLATE);
        assertThat(API.sqlTextApi("sql", byName)).contains(ExecutionApi.SPRING_JDBC_TEMPLATE);
        assertThat(API.sqlTextApi("createNativeQuery", byName)).contains(ExecutionApi.JPA_NATIVE_QUERY);
        assertThat(API.sqlTextApi("fetch", byName)).isEmpty();
        assertThat(API.takesSql("fetch")).isTrue();
        assertThat(API.takesSql("preparedQuery")).isTrue();
        assertThat(API.takesSql("setLong")).isFalse();
    }

    @Test
    void eachNameHasOneSqlApiAmongTheFamiliesRecognisedByName() {
        Set<ApiFamily> byName = EnumSet.of(ApiFamily.JDBC, ApiFamily.SPRING_JDBC, ApiFamily.JPA);
        Map<String, Set<ExecutionApi>> apis = new HashMap<>();
        for (MethodMatcher m : API.matchers()) {
            if (m.api() != null && byName.contains(m.family())) {
                apis.computeIfAbsent(m.name(), k -> new HashSet<>()).add(m.api());
            }
        }
        assertThat(apis).allSatisfy((name, set) -> assertThat(set).as(name).hasSize(1));
    }

    @Test
    void connectionKinds() {
        assertThat(API.connectionKind("DriverManager")).contains(ConnectionSource.UNPOOLED);
        assertThat(API.connectionKind("PGSimpleDataSource")).contains(ConnectionSource.UNPOOLED);
        assertThat(API.connectionKind("PGConnectionPoolDataSource")).contains(ConnectionSource.UNPOOLED);
        assertThat(API.connectionKind("HikariDataSource")).contains(ConnectionSource.POOLED);
        assertThat(API.connectionKind("TenantRoutingDataSource")).contains(ConnectionSource.POOLED);
        assertThat(API.connectionKind("PgPool")).contains(ConnectionSource.POOLED);
        assertThat(API.connectionKind("PreparedStatement")).isEmpty();
        assertThat(API.source(ApiFamily.JDBI, "Handle")).contains(ConnectionSource.PINNED);
        assertThat(API.source(ApiFamily.VERTX, "SqlClient")).contains(ConnectionSource.EITHER);
        assertThat(API.source(ApiFamily.JDBI, "JdbcTemplate")).isEmpty();
        assertThat(API.types(ApiFamily.SPRING_JDBC, ConnectionSource.PER_CALL))
                .containsExactly(
                        "JdbcClient",
                        "JdbcOperations",
                        "JdbcTemplate",
                        "NamedParameterJdbcOperations",
                        "NamedParameterJdbcTemplate",
                        "SimpleJdbcCall");
    }

    @Test
    void loggers() {
        assertThat(API.isLoggerReceiver("log")).isTrue();
        assertThat(API.isLoggerReceiver("this.LOGGER")).isTrue();
        assertThat(API.isLoggerReceiver("System.err")).isTrue();
        assertThat(API.isLoggerReceiver("catalog")).isFalse();
    }

    @Test
    void metricsRegistriesAndTheirMeters() {
        assertThat(API.isMetricsReceiver("metrics")).isTrue();
        assertThat(API.isMetricsReceiver("this.meterRegistry")).isTrue();
        assertThat(API.isMetricsReceiver("metrics.counter(\"claims.locked\")")).isTrue();
        assertThat(API.isMetricsReceiver("metricStore"))
                .as("a project object named like one")
                .isFalse();
        assertThat(API.isMetricsReceiver("auditor")).isFalse();
    }

    @Test
    void noDuplicateEntries() {
        Set<String> keys = new HashSet<>();
        for (MethodMatcher m : API.matchers()) {
            String key = m.family() + " " + new TreeSet<>(m.receivers()) + " " + m.name() + " " + m.minArity() + " "
                    + m.maxArity();
            assertThat(keys.add(key)).as("duplicate matcher %s", key).isTrue();
        }
        Set<String> types = new HashSet<>();
        for (TypeFact t : API.types()) {
            assertThat(types.add(t.family() + " " + t.simpleName()))
                    .as("duplicate type %s", t)
                    .isTrue();
        }
        MethodMatcher one = new MethodMatcher(ApiFamily.JDBC, Set.of(), "x", 0, 0, Set.of(Role.PURE), null);
        assertThatThrownBy(() -> new ApiCatalog(List.of(one, one), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyRoleFamilyAndSourceIsUsed() {
        Set<Role> roles = EnumSet.noneOf(Role.class);
        Set<ApiFamily> families = EnumSet.noneOf(ApiFamily.class);
        API.matchers().forEach(m -> {
            roles.addAll(m.roles());
            families.add(m.family());
        });
        Set<ConnectionSource> sources = EnumSet.noneOf(ConnectionSource.class);
        API.types().forEach(t -> {
            sources.add(t.source());
            families.add(t.family());
        });
        assertThat(roles).containsExactlyInAnyOrder(Role.values());
        assertThat(families).containsExactlyInAnyOrder(ApiFamily.values());
        assertThat(sources).containsExactlyInAnyOrder(ConnectionSource.values());
    }

    @Test
    void badEntriesAreRejected() {
        assertThatThrownBy(() -> new MethodMatcher(ApiFamily.JDBC, Set.of(), "x", 0, 0, Set.of(), null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MethodMatcher(ApiFamily.JDBC, Set.of(), "x", 2, 1, Set.of(Role.PURE), null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
