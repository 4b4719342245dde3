package io.github.pgadvisorylint.cli.facts;

import static io.github.pgadvisorylint.cli.facts.Sql.bool;
import static io.github.pgadvisorylint.cli.facts.Sql.exec;
import static io.github.pgadvisorylint.cli.facts.Sql.heldBy;
import static io.github.pgadvisorylint.cli.facts.Sql.number;
import static io.github.pgadvisorylint.cli.facts.Sql.pid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.github.pgadvisorylint.cli.facts.PostgresServers.Binaries;
import io.github.pgadvisorylint.core.keys.KeyFacts;
import io.github.pgadvisorylint.core.keys.PostgresHash;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.KeySpace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import javax.sql.PooledConnection;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.postgresql.ds.PGConnectionPoolDataSource;

/**
 * The PostgreSQL facts of docs/postgresql-facts.md (F1-F21), each run against a real server of every version
 * in {@link PostgresServers#versions()}, oldest first, one server per version. F10 needs PgBouncer and is not
 * here. F8 is measured per plan shape by {@link LimitQueryMeasurements}. A fact that does not hold on a version
 * fails with what the server did instead. Each fact uses its own keys and leaves no lock behind.
 */
class PostgresFactsTest {

    /** A fact shown on one server. */
    @FunctionalInterface
    interface Fact {
        void check(PostgresServer server) throws Exception;
    }

    @TestFactory
    Stream<DynamicNode> everyFactOnEveryVersion() {
        return PostgresServers.versions().stream()
                .map(b -> dynamicContainer(
                        b.toString(),
                        Stream.concat(
                                Stream.of(
                                        fact(
                                                b,
                                                "F1 a session lock survives ROLLBACK and ends with the session",
                                                PostgresFactsTest::f1),
                                        fact(
                                                b,
                                                "F2 a transaction lock ends at COMMIT or ROLLBACK, not at pg_advisory_unlock",
                                                PostgresFactsTest::f2),
                                        fact(
                                                b,
                                                "F3 in autocommit a transaction lock ends with its statement",
                                                PostgresFactsTest::f3),
                                        fact(b, "F4 session locks stack", PostgresFactsTest::f4),
                                        fact(
                                                b,
                                                "F5 pg_advisory_unlock_all releases this session's session locks only",
                                                PostgresFactsTest::f5),
                                        fact(
                                                b,
                                                "F6 the two key spaces are apart and show in pg_locks as the tool decodes them",
                                                PostgresFactsTest::f6),
                                        fact(
                                                b,
                                                "F7 shared locks conflict only with exclusive ones",
                                                PostgresFactsTest::f7)),
                                Stream.concat(
                                        LimitQueryMeasurements.shapes(b),
                                        Stream.of(
                                                fact(b, "F9 opposite orders deadlock", PostgresFactsTest::f9),
                                                fact(
                                                        b,
                                                        "F12 lock_timeout cancels a waiting lock with 55P03",
                                                        PostgresFactsTest::f12),
                                                fact(
                                                        b,
                                                        "F13 closing a pooled connection keeps its session and its locks",
                                                        PostgresFactsTest::f13),
                                                fact(
                                                        b,
                                                        "F14 Statement.execute says a result set exists, not what it holds",
                                                        PostgresFactsTest::f14),
                                                fact(
                                                        b,
                                                        "F15 hashtext and hashtextextended test vectors, as the tool computes them",
                                                        PostgresFactsTest::f15),
                                                fact(
                                                        b,
                                                        "F16 the advisory functions: volatile, their return types, the tool's catalog",
                                                        PostgresFactsTest::f16),
                                                fact(
                                                        b,
                                                        "F17 a multi-statement string is one transaction",
                                                        PostgresFactsTest::f17),
                                                fact(
                                                        b,
                                                        "F18 an unlock in an aborted transaction fails and the lock stays",
                                                        PostgresFactsTest::f18),
                                                fact(
                                                        b,
                                                        "F19 a session unlock frees the key before the transaction commits",
                                                        PostgresFactsTest::f19),
                                                fact(
                                                        b,
                                                        "F20 the two-int form takes no bigint: a long bound fails at once, a cast fails past 2^31-1",
                                                        PostgresFactsTest::f20),
                                                fact(
                                                        b,
                                                        "F21 a concurrent index build deadlocks with a blocking waiter for the lock its session holds",
                                                        PostgresFactsTest::f21),
                                                fact(
                                                        b,
                                                        "F11 a full lock table fails every lock; the locks taken stay",
                                                        PostgresFactsTest::f11))))));
    }

    private static DynamicNode fact(Binaries b, String name, Fact fact) {
        return dynamicTest(name, () -> {
            PostgresServer server = PostgresServers.server(b);
            fact.check(server);
            assertNoAdvisoryLockLeft(server);
        });
    }

    /**
     * Every fact closes its sessions: their locks must be gone. A backend exits shortly after its client, so this
     * waits up to 5 s, and retries a connection refused while a full lock table (F11) is being freed.
     */
    static void assertNoAdvisoryLockLeft(PostgresServer server) throws Exception {
        long left = -1;
        SQLException lastError = null;
        for (int i = 0; i < 100; i++) {
            try (Connection c = server.connect("facts-cleanup")) {
                left = number(c, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'");
                if (left == 0) {
                    return;
                }
            } catch (SQLException e) {
                lastError = e;
            }
            Thread.sleep(50);
        }
        assertThat(left)
                .as("advisory locks left behind on %s (last error: %s)", server, lastError)
                .isZero();
    }

    /** @return true when another new session can take the exclusive session lock {@code key} now (it releases it again) */
    static boolean freeNow(PostgresServer server, String key) throws Exception {
        try (Connection c = server.connect("facts-probe")) {
            boolean got = bool(c, "SELECT pg_try_advisory_lock(" + key + ")");
            if (got) {
                exec(c, "SELECT pg_advisory_unlock(" + key + ")");
            }
            return got;
        }
    }

    /** @return true once a new session can take {@code key}, waiting up to 5 s for a closed session's backend to exit */
    static boolean freeSoon(PostgresServer server, String key) throws Exception {
        for (int i = 0; i < 100; i++) {
            if (freeNow(server, key)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    static void f1(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f1")) {
            a.setAutoCommit(false);
            exec(a, "SELECT pg_advisory_lock(101)");
            a.rollback();
            assertThat(freeNow(s, "101")).as("held after ROLLBACK").isFalse();
            a.commit();
            assertThat(freeNow(s, "101")).as("held after a later COMMIT").isFalse();
        }
        assertThat(freeSoon(s, "101")).as("free once the session ended").isTrue();
    }

    static void f2(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f2")) {
            a.setAutoCommit(false);
            exec(a, "SELECT pg_advisory_xact_lock(102)");
            Sql.Answer unlock = Sql.withWarnings(a, "SELECT pg_advisory_unlock(102)");
            assertThat(unlock.value())
                    .as("pg_advisory_unlock of a transaction lock")
                    .isEqualTo(false);
            assertThat(unlock.warnings())
                    .as("its warning")
                    .anyMatch(w -> w.contains("you don't own a lock of type ExclusiveLock"));
            assertThat(freeNow(s, "102")).as("still held after the unlock").isFalse();
            a.commit();
            assertThat(freeNow(s, "102")).as("free after COMMIT").isTrue();
            exec(a, "SELECT pg_advisory_xact_lock(102)");
            assertThat(freeNow(s, "102")).isFalse();
            a.rollback();
            assertThat(freeNow(s, "102")).as("free after ROLLBACK").isTrue();
        }
    }

    static void f3(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f3")) {
            assertThat(a.getAutoCommit()).isTrue();
            exec(a, "SELECT pg_advisory_xact_lock(103)");
            assertThat(heldBy(a, pid(a)))
                    .as("locks held once the statement ended")
                    .isZero();
            assertThat(freeNow(s, "103")).isTrue();
        }
    }

    static void f4(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f4")) {
            exec(a, "SELECT pg_advisory_lock(104)");
            exec(a, "SELECT pg_advisory_lock(104)");
            assertThat(bool(a, "SELECT pg_advisory_unlock(104)")).isTrue();
            assertThat(freeNow(s, "104")).as("held after one of two unlocks").isFalse();
            assertThat(bool(a, "SELECT pg_advisory_unlock(104)")).isTrue();
            assertThat(freeNow(s, "104")).as("free after the second unlock").isTrue();
            Sql.Answer third = Sql.withWarnings(a, "SELECT pg_advisory_unlock(104)");
            assertThat(third.value()).as("a third unlock").isEqualTo(false);
            assertThat(third.warnings()).anyMatch(w -> w.contains("you don't own a lock"));
        }
    }

    static void f5(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f5-a");
                Connection b = s.connect("f5-b")) {
            exec(a, "SELECT pg_advisory_lock(105)");
            exec(b, "SELECT pg_advisory_lock(106)");
            a.setAutoCommit(false);
            exec(a, "SELECT pg_advisory_xact_lock(107)");
            exec(a, "SELECT pg_advisory_unlock_all()");
            assertThat(freeNow(s, "105")).as("this session's session lock").isTrue();
            assertThat(freeNow(s, "106")).as("another session's session lock").isFalse();
            assertThat(freeNow(s, "107")).as("this session's transaction lock").isFalse();
            a.commit();
            assertThat(freeNow(s, "107")).isTrue();
        }
    }

    static void f6(PostgresServer s) throws Exception {
        long big = (5L << 32) | 7;
        try (Connection a = s.connect("f6-a");
                Connection b = s.connect("f6-b")) {
            assertThat(bool(a, "SELECT pg_try_advisory_lock(1)")).isTrue();
            assertThat(bool(b, "SELECT pg_try_advisory_lock(0, 1)"))
                    .as("(0, 1) while another session holds 1")
                    .isTrue();
            assertThat(bool(a, "SELECT pg_try_advisory_lock(" + big + ")")).isTrue();
            assertThat(bool(b, "SELECT pg_try_advisory_lock(5, 7)"))
                    .as("(5, 7) while another session holds 5 << 32 | 7")
                    .isTrue();
            assertThat(bool(a, "SELECT pg_try_advisory_lock(-1)")).isTrue();
            assertThat(bool(b, "SELECT pg_try_advisory_lock(-2, -3)")).isTrue();
            Map<String, String> rows = new TreeMap<>();
            try (Statement st = a.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT classid::bigint, objid::bigint, objsubid FROM pg_locks WHERE locktype = 'advisory'")) {
                while (rs.next()) {
                    long classid = rs.getLong(1);
                    long objid = rs.getLong(2);
                    int objsubid = rs.getInt(3);
                    KeyFacts.DecodedKey key = KeyFacts.decode(classid, objid, objsubid);
                    rows.put(classid + "/" + objid + "/" + objsubid, key.spaceName() + " " + key.value());
                }
            }
            assertThat(rows)
                    .containsExactlyInAnyOrderEntriesOf(Map.of(
                            "0/1/1", "bigint 1",
                            "0/1/2", "int, int 0, 1",
                            "5/7/1", "bigint " + big,
                            "5/7/2", "int, int 5, 7",
                            "4294967295/4294967295/1", "bigint -1",
                            "4294967294/4294967293/2", "int, int -2, -3"));
            assertThat(KeyFacts.decode(5, 7, 1).space()).isEqualTo(KeySpace.BIGINT);
        }
    }

    static void f7(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f7-a");
                Connection b = s.connect("f7-b")) {
            exec(a, "SELECT pg_advisory_lock_shared(108)");
            assertThat(bool(b, "SELECT pg_try_advisory_lock_shared(108)"))
                    .as("a second shared holder")
                    .isTrue();
            assertThat(freeNow(s, "108"))
                    .as("an exclusive lock while shared ones are held")
                    .isFalse();
            Sql.Answer wrong = Sql.withWarnings(a, "SELECT pg_advisory_unlock(108)");
            assertThat(wrong.value()).as("pg_advisory_unlock of a shared lock").isEqualTo(false);
            assertThat(wrong.warnings()).anyMatch(w -> w.contains("you don't own a lock of type ExclusiveLock"));
            assertThat(bool(a, "SELECT pg_advisory_unlock_shared(108)")).isTrue();
            assertThat(bool(b, "SELECT pg_advisory_unlock_shared(108)")).isTrue();
            assertThat(freeNow(s, "108")).isTrue();
        }
    }

    static void f9(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f9-a");
                Connection b = s.connect("f9-b")) {
            exec(a, "SET deadlock_timeout = '100ms'");
            exec(b, "SET deadlock_timeout = '100ms'");
            exec(a, "SELECT pg_advisory_lock(201)");
            exec(b, "SELECT pg_advisory_lock(202)");
            int waiter = pid(a);
            CompletableFuture<SQLException> first = CompletableFuture.supplyAsync(() -> crossWait(a, "202"));
            waitUntilWaiting(s, waiter);
            CompletableFuture<SQLException> second = CompletableFuture.supplyAsync(() -> crossWait(b, "201"));
            List<String> states = new ArrayList<>();
            for (SQLException e : Arrays.asList(first.get(30, TimeUnit.SECONDS), second.get(30, TimeUnit.SECONDS))) {
                states.add(e == null ? "granted" : e.getSQLState());
            }
            assertThat(states).as("outcomes of the two crossing waits").containsExactlyInAnyOrder("granted", "40P01");
            exec(a, "SELECT pg_advisory_unlock_all()");
            exec(b, "SELECT pg_advisory_unlock_all()");
        }
    }

    /**
     * Waits for {@code key}; a session chosen as the deadlock victim then drops its own session locks, so the
     * other's wait ends (a deadlock error does not release session locks, F1).
     *
     * @return the victim's error, or null when the lock was granted
     */
    static SQLException crossWait(Connection c, String key) {
        SQLException e = attempt(c, "SELECT pg_advisory_lock(" + key + ")");
        if (e != null) {
            attempt(c, "SELECT pg_advisory_unlock_all()");
        }
        return e;
    }

    /** Runs a statement, returning its error instead of throwing it. */
    static SQLException attempt(Connection c, String sql) {
        try {
            exec(c, sql);
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    /** Waits (up to 10 s) until backend {@code pid} waits for an advisory lock. */
    static void waitUntilWaiting(PostgresServer s, int pid) throws Exception {
        try (Connection c = s.connect("facts-observer")) {
            for (int i = 0; i < 200; i++) {
                if (number(
                                c,
                                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = "
                                        + pid)
                        > 0) {
                    return;
                }
                Thread.sleep(50);
            }
        }
        throw new AssertionError("backend " + pid + " never waited for its advisory lock");
    }

    static void f12(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f12-a");
                Connection b = s.connect("f12-b")) {
            exec(a, "SELECT pg_advisory_lock(301)");
            exec(b, "SET lock_timeout = '100ms'");
            SQLException e = catchThrowableOfType(SQLException.class, () -> exec(b, "SELECT pg_advisory_lock(301)"));
            assertThat((Throwable) e).as("a blocking lock past lock_timeout").isNotNull();
            assertThat(e.getSQLState()).isEqualTo("55P03");
        }
    }

    static void f13(PostgresServer s) throws Exception {
        PGConnectionPoolDataSource ds = new PGConnectionPoolDataSource();
        ds.setServerNames(new String[] {"127.0.0.1"});
        ds.setPortNumbers(new int[] {s.port()});
        ds.setDatabaseName("postgres");
        ds.setUser(PostgresServer.SUPERUSER);
        PooledConnection physical = ds.getPooledConnection();
        try {
            int backend;
            try (Connection borrowed = physical.getConnection()) {
                backend = pid(borrowed);
                exec(borrowed, "SELECT pg_advisory_lock(302)");
            }
            assertThat(freeNow(s, "302"))
                    .as("held after the pooled connection was closed")
                    .isFalse();
            try (Connection again = physical.getConnection()) {
                assertThat(pid(again)).as("the next borrower's backend").isEqualTo(backend);
                assertThat(bool(again, "SELECT pg_advisory_unlock(302)"))
                        .as("the next borrower releases it")
                        .isTrue();
            }
        } finally {
            physical.close();
        }
    }

    static void f14(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f14-a");
                Connection b = s.connect("f14-b")) {
            exec(a, "SELECT pg_advisory_lock(303)");
            try (Statement st = b.createStatement()) {
                assertThat(st.execute("SELECT pg_try_advisory_lock(303)"))
                        .as("execute() of a failed try-lock")
                        .isTrue();
                try (ResultSet rs = st.getResultSet()) {
                    rs.next();
                    assertThat(rs.getBoolean(1)).as("the try-lock's value").isFalse();
                }
            }
        }
    }

    static void f15(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f15")) {
            Map<String, Long> vectors = new TreeMap<>(
                    Map.of("abc", -785388649L, "", -1477818771L, "k191518", -1546826998L, "k289282", -1546826998L));
            for (Map.Entry<String, Long> v : vectors.entrySet()) {
                long server = number(a, "SELECT hashtext('" + v.getKey() + "')");
                assertThat(server).as("hashtext('%s')", v.getKey()).isEqualTo(v.getValue());
                assertThat((long) PostgresHash.hashtext(v.getKey()))
                        .as("the tool's hashtext('%s')", v.getKey())
                        .isEqualTo(server);
            }
            assertThat(Sql.text(a, "SELECT pg_typeof(hashtext('abc'))::text")).isEqualTo("integer");
            long extended = number(a, "SELECT hashtextextended('abc', 0)");
            assertThat(extended).isEqualTo(-6747756470228489321L);
            assertThat(PostgresHash.hashtextextended("abc", 0)).isEqualTo(extended);
        }
    }

    static void f16(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f16");
                Statement st = a.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT proname, provolatile, prorettype::regtype::text, pg_get_function_identity_arguments(oid)"
                                + " FROM pg_proc WHERE proname LIKE 'pg%advisory%' ORDER BY 1, 4")) {
            TreeSet<String> names = new TreeSet<>();
            List<String> signatures = new ArrayList<>();
            while (rs.next()) {
                String name = rs.getString(1);
                names.add(name);
                String returns = rs.getString(3);
                signatures.add(name + "(" + rs.getString(4) + ")");
                assertThat(rs.getString(2)).as("%s volatility", name).isEqualTo("v");
                String expected = name.startsWith("pg_try_") || (name.contains("unlock") && !name.endsWith("_all"))
                        ? "boolean"
                        : "void";
                assertThat(returns).as("%s returns", name).isEqualTo(expected);
            }
            TreeSet<String> tool = new TreeSet<>();
            for (AdvisoryFunction f : AdvisoryFunction.values()) {
                tool.add(f.sqlName());
            }
            assertThat(names)
                    .as("the server's advisory functions vs the tool's catalog")
                    .isEqualTo(tool);
            assertThat(names).doesNotContain("pg_advisory_xact_unlock");
            assertThat(signatures)
                    .contains(
                            "pg_advisory_lock(bigint)",
                            "pg_advisory_lock(integer, integer)",
                            "pg_advisory_unlock_all()");
        }
    }

    static void f17(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f17");
                Statement st = a.createStatement()) {
            st.execute("SELECT pg_advisory_xact_lock(304); SELECT count(*) FROM pg_locks"
                    + " WHERE locktype = 'advisory' AND objid = 304 AND pid = pg_backend_pid()");
            assertThat(st.getMoreResults()).isTrue();
            try (ResultSet rs = st.getResultSet()) {
                rs.next();
                assertThat(rs.getLong(1))
                        .as("held by the second statement of the string")
                        .isEqualTo(1);
            }
            assertThat(heldBy(a, pid(a))).as("held after the string").isZero();
        }
    }

    static void f18(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f18")) {
            a.setAutoCommit(false);
            exec(a, "SELECT pg_advisory_lock(305)");
            SQLException failed = catchThrowableOfType(SQLException.class, () -> exec(a, "SELECT 1 / 0"));
            assertThat(failed.getSQLState()).isEqualTo("22012");
            SQLException unlock =
                    catchThrowableOfType(SQLException.class, () -> exec(a, "SELECT pg_advisory_unlock(305)"));
            assertThat((Throwable) unlock)
                    .as("the unlock in the aborted transaction")
                    .isNotNull();
            assertThat(unlock.getSQLState()).isEqualTo("25P02");
            a.rollback();
            assertThat(freeNow(s, "305")).as("held after the ROLLBACK").isFalse();
            assertThat(bool(a, "SELECT pg_advisory_unlock(305)")).isTrue();
            a.commit();
        }
    }

    static void f19(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f19-a");
                Connection b = s.connect("f19-b")) {
            exec(a, "CREATE TABLE IF NOT EXISTS f19_rows (id int)");
            exec(a, "TRUNCATE f19_rows");
            a.setAutoCommit(false);
            exec(a, "SELECT pg_advisory_lock(306)");
            exec(a, "INSERT INTO f19_rows SELECT generate_series(1, 3)");
            assertThat(bool(a, "SELECT pg_advisory_unlock(306)")).isTrue();
            assertThat(bool(b, "SELECT pg_try_advisory_lock(306)"))
                    .as("the other session's try-lock before the COMMIT")
                    .isTrue();
            assertThat(number(b, "SELECT count(*) FROM f19_rows"))
                    .as("rows it sees")
                    .isZero();
            a.commit();
            assertThat(number(b, "SELECT count(*) FROM f19_rows")).isEqualTo(3);
            assertThat(bool(b, "SELECT pg_advisory_unlock(306)")).isTrue();
        }
    }

    static void f20(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f20")) {
            try (PreparedStatement ps = a.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
                ps.setInt(1, 7);
                ps.setLong(2, 120L);
                assertThatThrownBy(ps::executeQuery)
                        .as("a long bound as the second int, however small")
                        .isInstanceOf(SQLException.class)
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("42883"))
                        .hasMessageContaining("pg_try_advisory_lock(integer, bigint) does not exist");
            }
            try (PreparedStatement ps = a.prepareStatement("SELECT pg_try_advisory_lock(?, ?::int)")) {
                ps.setInt(1, 7);
                ps.setLong(2, 2_147_483_648L);
                assertThatThrownBy(ps::executeQuery)
                        .as("a long cast to int, past 2^31-1")
                        .isInstanceOf(SQLException.class)
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"))
                        .hasMessageContaining("integer out of range");
            }
            try (PreparedStatement ps = a.prepareStatement("SELECT pg_try_advisory_lock(?, ?::int)")) {
                ps.setInt(1, 7);
                ps.setLong(2, 2_147_483_647L);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next() && rs.getBoolean(1))
                            .as("the same cast within int")
                            .isTrue();
                }
            }
            exec(a, "SELECT pg_advisory_unlock(7, 2147483647)");
            try (PreparedStatement ps = a.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
                ps.setInt(1, 7);
                ps.setObject(2, 120L);
                assertThatThrownBy(ps::executeQuery)
                        .as("a Long through setObject, as JdbcTemplate binds it")
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("does not exist");
            }
        }
    }

    /**
     * F21: session A holds a session lock and builds an index concurrently; session B waits for the same key, as a
     * second instance starting its migrations does. The build waits for B's snapshot (its virtual transaction) while
     * B waits for A's key: PostgreSQL detects the cycle. B has waited past its {@code deadlock_timeout} (checked
     * once, before the cycle existed), so the build is the victim and leaves an invalid index. Every wait is bounded
     * by {@code lock_timeout} or {@code statement_timeout}.
     */
    static void f21(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f21-a")) {
            exec(a, "DROP TABLE IF EXISTS f21_t");
            exec(a, "CREATE TABLE f21_t (id int, v int)");
            exec(a, "INSERT INTO f21_t SELECT g, g FROM generate_series(1, 1000) g");
        }
        for (String[] waiter : new String[][] {
            {"a blocking session lock in autocommit", "", "SELECT pg_advisory_lock(401)"},
            {"a blocking session lock in a transaction", "BEGIN", "SELECT pg_advisory_lock(401)"},
            {"a blocking transaction lock in a transaction", "BEGIN", "SELECT pg_advisory_xact_lock(401)"},
            {"a blocking transaction lock in autocommit", "", "SELECT pg_advisory_xact_lock(401)"}
        }) {
            Blocked build = buildWithWaiter(s, waiter[1], waiter[2], "CREATE INDEX CONCURRENTLY f21_v ON f21_t (v)");
            assertThat(build.state())
                    .as("the build, while B waits with %s", waiter[0])
                    .isEqualTo("40P01");
            assertThat(build.message()).contains("virtual transaction");
            assertThat(build.waiter()).as("B, %s, once A unlocked", waiter[0]).isEqualTo("granted");
            assertThat(build.invalidIndexes()).as("indexes left invalid").containsExactly("f21_v");
        }
        try (Connection a = s.connect("f21-a")) {
            exec(a, "CREATE INDEX f21_v ON f21_t (v)");
        }
        Blocked reindex = buildWithWaiter(s, "", "SELECT pg_advisory_lock(401)", "REINDEX INDEX CONCURRENTLY f21_v");
        assertThat(reindex.state()).as("REINDEX CONCURRENTLY while B waits").isEqualTo("40P01");
        assertThat(reindex.invalidIndexes()).as("indexes left invalid").containsExactly("f21_v_ccnew");
        try (Connection a = s.connect("f21-a")) {
            exec(a, "CREATE INDEX f21_v ON f21_t (v)");
        }
        Blocked drop = buildWithWaiter(s, "", "SELECT pg_advisory_lock(401)", "DROP INDEX CONCURRENTLY f21_v");
        assertThat(drop.state()).as("DROP INDEX CONCURRENTLY while B waits").isEqualTo("completed");
        assertThat(drop.waitedWhileBuilding())
                .as("B still waiting when the drop ended")
                .isTrue();

        Blocked shortTimeout = buildWithWaiter(
                s,
                "SET lock_timeout = '1500ms'",
                "SELECT pg_advisory_lock(401)",
                "CREATE INDEX CONCURRENTLY f21_v ON f21_t (v)");
        assertThat(shortTimeout.waiter())
                .as("B with a lock_timeout below the deadlock_timeout")
                .isEqualTo("55P03");
        assertThat(shortTimeout.state()).as("the build once B gave up").isEqualTo("completed");
        assertThat(shortTimeout.millis()).as("ms the build waited for B").isGreaterThan(500);
        assertThat(shortTimeout.invalidIndexes()).isEmpty();
        FactsReport.record(
                s,
                "F21",
                "ms a build waited for a waiter with lock_timeout 1500ms",
                Long.toString(shortTimeout.millis()));

        pollingWaiter(s);
        pollingInOneStatement(s);
        try (Connection a = s.connect("f21-a")) {
            exec(a, "DROP TABLE f21_t");
        }
    }

    /**
     * What happened to A's statement and to B's wait.
     *
     * @param state                SQLSTATE of A's statement, or {@code completed}
     * @param message              its error message, or empty
     * @param waiter               B's outcome: {@code granted} or its SQLSTATE
     * @param waitedWhileBuilding  B was still waiting when A's statement ended
     * @param millis               how long A's statement ran
     * @param invalidIndexes       the invalid indexes of the table afterwards (then dropped)
     */
    record Blocked(
            String state,
            String message,
            String waiter,
            boolean waitedWhileBuilding,
            long millis,
            List<String> invalidIndexes) {}

    /**
     * A holds key 401 and runs {@code ddl} while B waits for the key. Both sessions have {@code deadlock_timeout}
     * 100 ms; B has waited 400 ms (its one deadlock check done) before A starts. When B sets a lock_timeout of its own
     * ({@code waiterSetup}), both have {@code deadlock_timeout} 3 s and A starts at once. B's wait is bounded by 20 s,
     * A's statement by 20 s.
     */
    static Blocked buildWithWaiter(PostgresServer s, String waiterSetup, String waiterLock, String ddl)
            throws Exception {
        try (Connection a = s.connect("f21-a");
                Connection b = s.connect("f21-b")) {
            boolean ownTimeout = waiterSetup.startsWith("SET lock_timeout");
            String deadlockTimeout = ownTimeout ? "3s" : "100ms";
            exec(a, "SET deadlock_timeout = '" + deadlockTimeout + "'");
            exec(a, "SET statement_timeout = '20s'");
            exec(b, "SET deadlock_timeout = '" + deadlockTimeout + "'");
            exec(b, "SET lock_timeout = '20s'");
            boolean inTransaction = waiterSetup.equals("BEGIN");
            if (inTransaction) {
                b.setAutoCommit(false);
            } else if (!waiterSetup.isEmpty()) {
                exec(b, waiterSetup);
            }
            exec(a, "SELECT pg_advisory_lock(401)");
            int waiterPid = pid(b);
            CompletableFuture<SQLException> wait = CompletableFuture.supplyAsync(() -> attempt(b, waiterLock));
            waitUntilWaiting(s, waiterPid);
            if (!ownTimeout) {
                Thread.sleep(400);
            }
            long start = System.nanoTime();
            SQLException e = attempt(a, ddl);
            long millis = (System.nanoTime() - start) / 1_000_000;
            boolean stillWaiting = !wait.isDone();
            exec(a, "SELECT pg_advisory_unlock(401)");
            SQLException waited = wait.get(30, TimeUnit.SECONDS);
            if (inTransaction) {
                b.rollback();
                b.setAutoCommit(true);
            }
            exec(b, "SELECT pg_advisory_unlock_all()");
            List<String> invalid = new ArrayList<>();
            try (Statement st = a.createStatement();
                    ResultSet rs = st.executeQuery("SELECT indexrelid::regclass::text FROM pg_index"
                            + " WHERE indrelid = 'f21_t'::regclass AND NOT indisvalid ORDER BY 1")) {
                while (rs.next()) {
                    invalid.add(rs.getString(1));
                }
            }
            exec(a, "DROP INDEX IF EXISTS f21_v");
            exec(a, "DROP INDEX IF EXISTS f21_v_ccnew");
            return new Blocked(
                    e == null ? "completed" : e.getSQLState(),
                    e == null ? "" : e.getMessage(),
                    waited == null ? "granted" : waited.getSQLState(),
                    stillWaiting,
                    millis,
                    invalid);
        }
    }

    /** B polls with a try-lock, each try its own statement in autocommit, sleeping between: A's build completes. */
    static void pollingWaiter(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f21-a");
                Connection b = s.connect("f21-b")) {
            exec(a, "SET statement_timeout = '20s'");
            exec(a, "SELECT pg_advisory_lock(402)");
            AtomicBoolean polling = new AtomicBoolean(true);
            CompletableFuture<Boolean> poller = CompletableFuture.supplyAsync(() -> {
                try {
                    for (int i = 0; i < 400 && polling.get(); i++) {
                        if (bool(b, "SELECT pg_try_advisory_lock(402)")) {
                            return true;
                        }
                        Thread.sleep(50);
                    }
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(300);
            SQLException e = attempt(a, "CREATE INDEX CONCURRENTLY f21_v ON f21_t (v)");
            assertThat((Throwable) e)
                    .as("the build while B polls in autocommit")
                    .isNull();
            assertThat(poller.isDone())
                    .as("B still polling when the build ended")
                    .isFalse();
            assertThat(bool(a, "SELECT indisvalid FROM pg_index WHERE indexrelid = 'f21_v'::regclass"))
                    .isTrue();
            exec(a, "SELECT pg_advisory_unlock(402)");
            boolean got = poller.get(30, TimeUnit.SECONDS);
            polling.set(false);
            assertThat(got).as("B's poll once A unlocked").isTrue();
            exec(b, "SELECT pg_advisory_unlock(402)");
            exec(a, "DROP INDEX f21_v");
        }
    }

    /**
     * B polls inside one statement (a DO loop), so its snapshot lives as long as it polls: A's build waits for it with
     * no deadlock to detect, here until A's own lock_timeout; B's statement_timeout ends the poll.
     */
    static void pollingInOneStatement(PostgresServer s) throws Exception {
        try (Connection a = s.connect("f21-a");
                Connection b = s.connect("f21-b")) {
            exec(a, "SELECT pg_advisory_lock(403)");
            exec(b, "SET statement_timeout = '2500ms'");
            CompletableFuture<SQLException> poll = CompletableFuture.supplyAsync(() -> attempt(
                    b,
                    "DO $$ BEGIN WHILE NOT pg_try_advisory_lock(403) LOOP PERFORM pg_sleep(0.05); END LOOP; END $$"));
            Thread.sleep(300);
            exec(a, "SET lock_timeout = '1s'");
            SQLException e = attempt(a, "CREATE INDEX CONCURRENTLY f21_v ON f21_t (v)");
            assertThat((Throwable) e)
                    .as("the build while B polls in one statement")
                    .isNotNull();
            assertThat(e.getSQLState()).as("a wait, no deadlock detected").isEqualTo("55P03");
            SQLException polled = poll.get(30, TimeUnit.SECONDS);
            assertThat((Throwable) polled)
                    .as("B's poll, ended by its statement_timeout")
                    .isNotNull();
            assertThat(polled.getSQLState()).isEqualTo("57014");
            exec(a, "SELECT pg_advisory_unlock(403)");
            exec(a, "DROP INDEX IF EXISTS f21_v");
        }
    }

    /**
     * F11, last on each server: it fills the shared lock table. The figure (locks taken before the error) is
     * written to the facts report.
     */
    static void f11(PostgresServer s) throws Exception {
        long held;
        try (Connection a = s.connect("f11-a")) {
            SQLException full = catchThrowableOfType(
                    SQLException.class, () -> exec(a, "SELECT pg_advisory_lock(g) FROM generate_series(1, 200000) g"));
            assertThat((Throwable) full).as("taking 200,000 session locks").isNotNull();
            assertThat(full.getSQLState()).isEqualTo("53200");
            assertThat(full.getMessage()).contains("out of shared memory").contains("max_locks_per_transaction");
            held = heldBy(a, pid(a));
            assertThat(held).as("locks still held after the error").isGreaterThan(64L * 100);
            SQLException other = null;
            try (Connection b = s.connect("f11-b")) {
                other = attempt(b, "SELECT pg_advisory_lock(1)");
            } catch (SQLException e) {
                other = e;
            }
            assertThat((Throwable) other)
                    .as("another session's lock while the table is full")
                    .isNotNull();
            assertThat(other.getSQLState()).isEqualTo("53200");
        }
        FactsReport.record(s, "F11", "locks held when the lock table was full", Long.toString(held));
    }
}
