package io.github.pgadvisorylint.cli;

import static io.github.pgadvisorylint.cli.facts.Sql.exec;
import static io.github.pgadvisorylint.cli.facts.Sql.pid;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.cli.facts.PostgresServer;
import io.github.pgadvisorylint.cli.facts.PostgresServers;
import io.github.pgadvisorylint.cli.facts.Sql;
import io.github.pgadvisorylint.core.report.MarkdownText;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locks} against a real PostgreSQL server (the newest of {@link PostgresServers#versions()}): sessions
 * holding and awaiting keys of the bundled example project in both key spaces, a blocked chain, a key no code
 * takes, and the failures it must name: an unreachable server, a refused login, a role that cannot see other
 * roles' sessions. Credentials from the URL, {@code PGPASSWORD} and a {@code .pgpass} file.
 */
class LocksCommandTest {

    private static final String ROLE = "lint_reader";
    private static final String SECRET = "s3cret-Pa55";

    private static PostgresServer server;
    private final List<Connection> sessions = new ArrayList<>();
    private final List<CompletableFuture<?>> waits = new ArrayList<>();

    @TempDir
    Path tmp;

    @BeforeAll
    static void startServer() throws Exception {
        server = PostgresServers.server(PostgresServers.newest());
        try (Connection c = server.connect("locks-test-setup")) {
            exec(c, "DROP ROLE IF EXISTS " + ROLE);
            exec(c, "CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + SECRET + "'");
        }
    }

    @AfterEach
    void endSessions() throws Exception {
        for (Connection c : sessions) {
            c.close();
        }
        for (CompletableFuture<?> w : waits) {
            w.get(30, TimeUnit.SECONDS);
        }
        for (Connection c : sessions) {
            assertThat(c.isClosed()).isTrue();
        }
    }

    /** A session that stays open until the test ends. */
    private Connection session(String application) throws Exception {
        Connection c = server.connect(application);
        sessions.add(c);
        return c;
    }

    /** Starts a blocking statement on {@code c} in the background and returns once the session waits. */
    private int waitFor(Connection c, String sql) throws Exception {
        int pid = pid(c);
        waits.add(CompletableFuture.runAsync(() -> {
            try {
                exec(c, sql);
            } catch (Exception e) {
                // the test closes the session that waits: its statement ends with an error
            }
        }));
        try (Connection observer = server.connect("locks-test-observer")) {
            for (int i = 0; i < 200; i++) {
                if (Sql.number(observer, "SELECT count(*) FROM pg_locks WHERE NOT granted AND pid = " + pid) > 0) {
                    return pid;
                }
                Thread.sleep(25);
            }
        }
        throw new AssertionError("session " + pid + " never waited: " + sql);
    }

    private static CliHarness.Run run(Path cwd, Map<String, String> environment, String... args) {
        Environment standard = Environment.standard();
        Environment.Terminal terminal = new Environment.Terminal() {
            @Override
            public boolean interactive() {
                return false;
            }

            @Override
            public String getenv(String name) {
                return environment.get(name);
            }
        };
        CommandLine cli = Main.commandLine(new Environment(standard.rules(), standard.engine(), cwd, terminal));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new CliHarness.Run(code, out.toString(), err.toString());
    }

    private static String superuserUrl() {
        return server.url("postgres") + "?user=" + PostgresServer.SUPERUSER;
    }

    /**
     * The scene: settlement's month-end close holds LEDGER_CLOSE (2001) idle in its transaction; the payout holds
     * PAYOUT_BATCH (2002) and waits for 2001; a second payout waits for 2002 (a chain of three); the PDF archive
     * holds (12, 77) in the two-int space, a key the code computes from a customer id; an operator holds 424242,
     * which no code takes.
     */
    private int[] scene() throws Exception {
        Connection close = session("settlement-close");
        close.setAutoCommit(false);
        exec(close, "SELECT pg_advisory_xact_lock(2001)");
        Connection payout = session("settlement-payout");
        payout.setAutoCommit(false);
        exec(payout, "SELECT pg_advisory_xact_lock(2002)");
        int payoutPid = waitFor(payout, "SELECT pg_advisory_xact_lock(2001)");
        Connection secondPayout = session("settlement-payout-2");
        secondPayout.setAutoCommit(false);
        int secondPid = waitFor(secondPayout, "SELECT pg_advisory_xact_lock(2002)");
        Connection pdf = session("pdf-archive");
        exec(pdf, "SELECT pg_advisory_lock(12, 77)");
        Connection operator = session("psql-operator");
        exec(operator, "SELECT pg_advisory_lock(424242)");
        return new int[] {pid(close), payoutPid, secondPid, pid(pdf), pid(operator)};
    }

    @Test
    void heldAndAwaitedKeysOfTheExampleWithTheirCodeSitesAndTheWaitChain() throws Exception {
        int[] pids = scene();
        int close = pids[0];
        int payout = pids[1];
        int second = pids[2];
        Path example = FixtureHarness.exampleProject();
        CliHarness.Run r = run(
                example,
                Map.of(),
                "locks",
                "--url",
                superuserUrl(),
                example.toString(),
                "--path-base",
                example.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        String out = r.out();
        assertThat(out)
                .startsWith("Advisory locks on 127.0.0.1:" + server.port() + "/postgres (PostgreSQL "
                        + server.serverVersion() + ", as role postgres) at ")
                .contains(": 4 held, 2 awaited, by 5 sessions\n");
        assertThat(block(out, "key 2001  bigint  (pg_locks classid=0 objid=2001 objsubid=1)"))
                .containsPattern("held by     pid " + close
                        + " \\(settlement-close\\) from 127\\.0\\.0\\.1 exclusive, idle in transaction"
                        + " since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ \\(\\d+ s\\), blocks " + payout
                        + ", connected since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ \\(\\d+ s\\), last query: .+\n")
                .containsPattern(
                        "awaited by  pid " + payout + " \\(settlement-payout\\) from 127\\.0\\.0\\.1 exclusive, active"
                                + " since .*, waiting since .*, blocked by " + close + ", connected since .*"
                                + ", last query: SELECT pg_advisory_xact_lock\\(2001\\)\n")
                .contains("  code:\n"
                        + "    src/main/java/com/acme/invoice/settlement/SettlementJob.java:27:37  pg_advisory_xact_lock(LockKeys.LEDGER_CLOSE)"
                        + "  in SettlementJob.closeMonth\n"
                        + "    src/main/java/com/acme/invoice/settlement/SettlementJob.java:36:37  pg_advisory_xact_lock(LockKeys.LEDGER_CLOSE)"
                        + "  in SettlementJob.payOut\n");
        assertThat(block(out, "key 2002  bigint  (pg_locks classid=0 objid=2002 objsubid=1)"))
                .contains("held by     pid " + payout + " (settlement-payout) from 127.0.0.1 exclusive")
                .contains("blocks " + second + ", connected since ")
                .contains("awaited by  pid " + second + " (settlement-payout-2) from 127.0.0.1 exclusive")
                .contains(
                        "SettlementJob.java:28:37  pg_advisory_xact_lock(LockKeys.PAYOUT_BATCH)  in SettlementJob.closeMonth");
        assertThat(block(out, "key 12, 77  int, int  (pg_locks classid=12 objid=77 objsubid=2)"))
                .contains("held by     pid " + pids[3] + " (pdf-archive) from 127.0.0.1 exclusive, idle since")
                .contains("  code:       unknown to the code; may be a key computed at run time by:\n")
                .contains(
                        "src/main/java/com/acme/invoice/pdf/PdfArchiveWorker.java:42:47  AdvisoryLock.acquire"
                                + " (pg_advisory_lock(LockKeys.PDF_ARCHIVE_NAMESPACE, customerId))  in PdfArchiveWorker.archive");
        assertThat(block(out, "key 424242  bigint  (pg_locks classid=0 objid=424242 objsubid=1)"))
                .contains("held by     pid " + pids[4] + " (psql-operator) from 127.0.0.1 exclusive")
                .contains("  code:       unknown to the code")
                .doesNotContain("SettlementJob");
        assertThat(out)
                .contains("\nwait chains (each pid waits for the next):\n  " + second + " -> " + payout + " -> " + close
                        + "  (" + close + " is idle in transaction)\n");
        assertThat(out.indexOf("key 2001")).isLessThan(out.indexOf("key 2002"));
        assertThat(out.indexOf("key 424242")).isLessThan(out.indexOf("key 12, 77")); // bigint keys before int pairs

        CliHarness.Run json = run(
                example,
                Map.of(),
                "locks",
                "--url",
                superuserUrl(),
                "--format",
                "json",
                example.toString(),
                "--path-base",
                example.toString());
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertThat(root.get("code_matched").asBoolean()).isTrue();
        assertThat(root.get("hidden_sessions").asInt()).isZero();
        JsonNode ledger = keyNode(root, "bigint", "2001");
        assertThat(ledger.get("known_to_code").asBoolean()).isTrue();
        assertThat(ledger.get("held_by").get(0).get("pid").asInt()).isEqualTo(close);
        assertThat(ledger.get("held_by").get(0).get("blocks").get(0).asInt()).isEqualTo(payout);
        assertThat(ledger.get("awaited_by").get(0).get("blocked_by").get(0).asInt())
                .isEqualTo(close);
        assertThat(ledger.get("awaited_by").get(0).get("waiting_since").asText())
                .endsWith("Z");
        // which client holds the key, since when it is connected, and what it ran last
        assertThat(ledger.get("held_by").get(0).get("client_addr").asText()).isEqualTo("127.0.0.1");
        assertThat(ledger.get("held_by").get(0).get("backend_start").asText()).endsWith("Z");
        assertThat(ledger.get("awaited_by").get(0).get("query").asText())
                .isEqualTo("SELECT pg_advisory_xact_lock(2001)");
        assertThat(ledger.get("sites").get(0).get("path").asText())
                .isEqualTo("src/main/java/com/acme/invoice/settlement/SettlementJob.java");
        assertThat(ledger.get("sites").get(0).get("line").asInt()).isEqualTo(27);
        assertThat(ledger.get("sites").get(0).get("method").asText()).isEqualTo("SettlementJob.closeMonth");
        JsonNode pair = keyNode(root, "int, int", "12, 77");
        assertThat(pair.get("known_to_code").asBoolean()).isFalse();
        assertThat(pair.get("pg_locks").get("objsubid").asInt()).isEqualTo(2);
        assertThat(pair.get("possible_sites").toString()).contains("PdfArchiveWorker.java");
        assertThat(keyNode(root, "bigint", "424242").get("known_to_code").asBoolean())
                .isFalse();
        assertThat(root.get("wait_chains").toString()).isEqualTo("[[" + second + "," + payout + "," + close + "]]");

        CliHarness.Run md = run(
                example,
                Map.of(),
                "locks",
                "--url",
                superuserUrl(),
                "--format",
                "markdown",
                example.toString(),
                "--path-base",
                example.toString());
        assertThat(md.exitCode()).as(md.err()).isZero();
        assertThat(md.out())
                .contains("| Key | Key space | pg_locks (classid, objid, objsubid) | Held by | Awaited by | Code |")
                .contains("| 2001 | bigint | 0, 2001, 1 | pid " + close + " (settlement-close)")
                .contains(
                        "`src/main/java/com/acme/invoice/settlement/SettlementJob.java:27:37` `pg_advisory_xact_lock(LockKeys.LEDGER_CLOSE)` in SettlementJob.closeMonth")
                .contains("| 424242 | bigint | 0, 424242, 1 | pid " + pids[4])
                .contains("- " + second + " -> " + payout + " -> " + close);

        CliHarness.Run bare = run(example, Map.of(), "locks", "--url", superuserUrl());
        assertThat(bare.exitCode()).as(bare.err()).isZero();
        assertThat(bare.out())
                .contains("  code:       not matched (no PATH given)\n")
                .doesNotContain("unknown to the code");
    }

    private static String block(String out, String heading) {
        int start = out.indexOf("\n" + heading + "\n");
        assertThat(start).as("%s in%n%s", heading, out).isNotNegative();
        int end = out.indexOf("\n\n", start + 1);
        return end < 0 ? out.substring(start + 1) : out.substring(start + 1, end + 1);
    }

    private static JsonNode keyNode(JsonNode root, String space, String key) {
        for (JsonNode k : root.get("keys")) {
            if (k.get("key_space").asText().equals(space)
                    && k.get("key").asText().equals(key)) {
                return k;
            }
        }
        throw new AssertionError("no key " + space + " " + key + " in " + root);
    }

    @Test
    void libpqVariablesOrAConnectionUriNameTheServerWithoutAJdbcUrl() throws Exception {
        Connection holder = session("uri-holder");
        exec(holder, "SELECT pg_advisory_lock(5150)");
        Map<String, String> libpq = Map.of(
                "PGHOST",
                "127.0.0.1",
                "PGPORT",
                Integer.toString(server.port()),
                "PGUSER",
                PostgresServer.SUPERUSER,
                "PGDATABASE",
                "postgres");
        CliHarness.Run viaEnv = run(tmp, libpq, "locks");
        assertThat(viaEnv.exitCode()).as(viaEnv.err()).isZero();
        assertThat(viaEnv.out())
                .startsWith("Advisory locks on 127.0.0.1:" + server.port() + "/postgres")
                .contains("key 5150  bigint");
        CliHarness.Run viaUri = run(
                tmp,
                Map.of(),
                "locks",
                "--url",
                "postgresql://" + PostgresServer.SUPERUSER + "@127.0.0.1:" + server.port() + "/postgres");
        assertThat(viaUri.exitCode()).as(viaUri.err()).isZero();
        assertThat(viaUri.out()).contains("held by     pid " + pid(holder) + " (uri-holder) from 127.0.0.1 exclusive");
        CliHarness.Run socket = run(tmp, Map.of("PGHOST", "/var/run/postgresql"), "locks");
        assertThat(socket.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(socket.err()).contains("Unix-domain socket");
    }

    @Test
    void noLockIsAnEmptyListAndTheOutputFileIsWritten() throws Exception {
        Path file = tmp.resolve("locks.txt");
        CliHarness.Run r = run(tmp, Map.of(), "locks", "--url", superuserUrl(), "--output", file.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(Files.readString(file))
                .contains(": 0 held, 0 awaited, by 0 sessions\n")
                .doesNotContain("key ");
    }

    @Test
    void anUnreachableServerIsOneLineAndExitCode4() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        CliHarness.Run r =
                run(tmp, Map.of(), "locks", "--url", "jdbc:postgresql://127.0.0.1:" + closedPort + "/app?user=x");
        assertThat(r.exitCode()).isEqualTo(LocksCommand.EXIT_UNREACHABLE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .startsWith("pg-advisory-lint: cannot reach 127.0.0.1:" + closedPort + "/app: ")
                .endsWith("\n");
        assertThat(r.err().strip()).doesNotContain("\n");
    }

    @Test
    void aRefusedLoginIsExitCode5AndNeverPrintsThePassword() throws Exception {
        String url = server.url("postgres") + "?user=" + ROLE;
        CliHarness.Run wrong = run(tmp, Map.of("PGPASSWORD", "not-" + SECRET), "locks", "--url", url);
        assertThat(wrong.exitCode()).isEqualTo(LocksCommand.EXIT_LOGIN_REFUSED);
        assertThat(wrong.err())
                .startsWith("pg-advisory-lint: login refused by 127.0.0.1:" + server.port() + "/postgres: ")
                .contains("password authentication failed for user \"" + ROLE + "\"")
                .doesNotContain(SECRET);
        assertThat(wrong.err().strip()).doesNotContain("\n");

        CliHarness.Run none = run(tmp, Map.of(), "locks", "--url", url);
        assertThat(none.exitCode()).isEqualTo(LocksCommand.EXIT_LOGIN_REFUSED);
        assertThat(none.err()).contains("no password was provided").contains("PGPASSWORD");

        CliHarness.Run inUrl = run(tmp, Map.of(), "locks", "--url", url + "&password=wrong-" + SECRET);
        assertThat(inUrl.exitCode()).isEqualTo(LocksCommand.EXIT_LOGIN_REFUSED);
        assertThat(inUrl.err()).doesNotContain(SECRET);

        CliHarness.Run noDatabase = run(tmp, Map.of(), "locks", "--url", server.url("no_such_db") + "?user=postgres");
        assertThat(noDatabase.exitCode()).isEqualTo(LocksCommand.EXIT_LOGIN_REFUSED);
        assertThat(noDatabase.err()).contains("no_such_db");

        CliHarness.Run notPostgres = run(tmp, Map.of(), "locks", "--url", "jdbc:mysql://h/db?password=" + SECRET);
        assertThat(notPostgres.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(notPostgres.err())
                .contains("--url must be a PostgreSQL JDBC URL")
                .doesNotContain(SECRET);
    }

    @Test
    void aRoleThatCannotSeeOtherSessionsSaysSoWithExitCode6UntilGrantedPgReadAllStats() throws Exception {
        Connection holder = session("nightly-invoices");
        holder.setAutoCommit(false);
        exec(holder, "SELECT pg_try_advisory_xact_lock(9001)");
        Path example = FixtureHarness.exampleProject();
        String url = server.url("postgres") + "?user=" + ROLE;

        CliHarness.Run viaEnv = run(example, Map.of("PGPASSWORD", SECRET), "locks", "--url", url, example.toString());
        assertThat(viaEnv.exitCode()).as(viaEnv.err()).isEqualTo(LocksCommand.EXIT_INCOMPLETE);
        assertThat(viaEnv.err())
                .isEqualTo("pg-advisory-lint: role " + ROLE + " cannot see the activity of 1 of 1 sessions"
                        + " (pg_stat_activity shows <insufficient privilege>): their state and times are missing; connect as a"
                        + " superuser or a member of pg_read_all_stats\n");
        // pg_stat_activity still shows the application name of a hidden session, not its state
        assertThat(viaEnv.out())
                .contains("held by     pid " + pid(holder)
                        + " (nightly-invoices) exclusive, activity hidden from this role\n")
                .contains(
                        "NightlyInvoiceJob.java:41:56  pg_try_advisory_xact_lock(LockKeys.NIGHTLY_INVOICE_RUN)  in NightlyInvoiceJob.sendInvoices")
                .contains("\nrole " + ROLE + " cannot see the activity of 1 of 1 sessions")
                .doesNotContain(SECRET);

        Path pgpass = tmp.resolve("pgpass");
        Files.writeString(pgpass, "127.0.0.1:" + server.port() + ":*:" + ROLE + ":" + SECRET + "\n");
        String before = System.getProperty("org.postgresql.pgpassfile");
        System.setProperty("org.postgresql.pgpassfile", pgpass.toString());
        try (Connection admin = server.connect("locks-test-grant")) {
            CliHarness.Run viaPgpass = run(tmp, Map.of(), "locks", "--url", url);
            assertThat(viaPgpass.exitCode()).as(viaPgpass.err()).isEqualTo(LocksCommand.EXIT_INCOMPLETE);
            exec(admin, "GRANT pg_read_all_stats TO " + ROLE);
            try {
                CliHarness.Run granted = run(tmp, Map.of(), "locks", "--url", url);
                assertThat(granted.exitCode()).as(granted.err()).isZero();
                assertThat(granted.err()).isEmpty();
                assertThat(granted.out())
                        .contains("held by     pid " + pid(holder)
                                + " (nightly-invoices) from 127.0.0.1 exclusive, idle in transaction since");
            } finally {
                exec(admin, "REVOKE pg_read_all_stats FROM " + ROLE);
            }
        } finally {
            if (before == null) {
                System.clearProperty("org.postgresql.pgpassfile");
            } else {
                System.setProperty("org.postgresql.pgpassfile", before);
            }
        }
    }

    @Test
    void failuresAreClassifiedByTheirSqlStateAndNeverEchoThePassword() {
        String target = "db:5432/app";
        assertThat(LiveLocks.classify(
                                new SQLException("permission denied for database app", "42501"), target, List.of(), 10)
                        .exitCode())
                .isEqualTo(LocksCommand.EXIT_LOGIN_REFUSED);
        assertThat(LiveLocks.classify(new SQLException("too many clients already", "53300"), target, List.of(), 10)
                        .exitCode())
                .isEqualTo(LocksCommand.EXIT_UNREACHABLE);
        LiveLocks.Failure timeout = LiveLocks.classify(
                new SQLException("canceling statement due to statement timeout", "57014"), target, List.of(), 10);
        assertThat(timeout.exitCode()).isEqualTo(LocksCommand.EXIT_UNREACHABLE);
        assertThat(timeout.getMessage())
                .isEqualTo("reading the locks of db:5432/app failed: canceling statement due to"
                        + " statement timeout (no answer within the timeout of 10 s; --timeout) (SQLSTATE 57014)");
        LiveLocks.Failure echoed = LiveLocks.classify(
                new SQLException("bad\n  password " + SECRET + " for jdbc:postgresql://u:other@h/db", "28P01"),
                target,
                List.of(SECRET),
                10);
        assertThat(echoed.getMessage())
                .isEqualTo("login refused by db:5432/app: bad password **** for jdbc:postgresql://u:****@h/db");
        assertThat(UrlMask.mask("jdbc:postgresql://h/db?user=u&password=" + SECRET + "&ssl=true"))
                .isEqualTo("jdbc:postgresql://h/db?user=u&password=****&ssl=true");
    }

    /** Nothing a run printed holds the password. */
    private static void assertNoSecret(CliHarness.Run r) {
        assertThat(r.out()).doesNotContain(SECRET);
        assertThat(r.err()).doesNotContain(SECRET);
    }

    /**
     * Found by the fourth adversarial pass (issue 27): PgJDBC logs "JDBC URL invalid port number:
     * PASSWORD@host" through java.util.logging, straight to the console, for a user-info URL.
     */
    @Test
    void theDriversOwnLoggerPublishesNothing() throws Exception {
        List<LogRecord> records = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger driver = Logger.getLogger("org.postgresql");
        driver.addHandler(capture);
        try {
            CliHarness.Run r =
                    run(tmp, Map.of(), "locks", "--url", "jdbc:postgresql://" + ROLE + ":" + SECRET + "@db:5432/app");
            assertNoSecret(r);
        } finally {
            driver.removeHandler(capture);
        }
        assertThat(records).extracting(LogRecord::getMessage).isEmpty();
    }

    @Test
    void thePasswordOfAUrlIsMaskedInEveryFormWhereverTheUrlIsShown() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        // user-info without a port: PgJDBC cannot read it; the message shows it masked and says why
        CliHarness.Run userinfo =
                run(tmp, Map.of(), "locks", "--url", "jdbc:postgresql://" + ROLE + ":" + SECRET + "@db/app");
        assertThat(userinfo.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(userinfo.err())
                .contains("jdbc:postgresql://" + ROLE + ":****@db/app")
                .contains("PgJDBC reads no user:password@ part");
        assertNoSecret(userinfo);

        // user-info with a port: PgJDBC takes it for a host name it cannot resolve
        CliHarness.Run unresolved = run(
                tmp,
                Map.of(),
                "locks",
                "--url",
                "jdbc:postgresql://" + ROLE + ":" + SECRET + "@127.0.0.1:" + server.port() + "/postgres",
                "--timeout",
                "2");
        assertThat(unresolved.exitCode()).as(unresolved.err()).isEqualTo(LocksCommand.EXIT_UNREACHABLE);
        assertThat(unresolved.err())
                .startsWith(
                        "pg-advisory-lint: cannot reach " + ROLE + ":****@127.0.0.1:" + server.port() + "/postgres");
        assertNoSecret(unresolved);

        // multi-host: the first host cannot be resolved, the second is the server; the header shows both, masked
        String multi = "jdbc:postgresql://" + ROLE + ":" + SECRET + "@127.0.0.1:" + closedPort + ",127.0.0.1:"
                + server.port() + "/postgres?user=" + PostgresServer.SUPERUSER;
        String shown = ROLE + ":****@127.0.0.1:" + closedPort + ",127.0.0.1:" + server.port() + "/postgres";
        for (String format : new String[] {"text", "json", "markdown"}) {
            CliHarness.Run r = run(tmp, Map.of(), "locks", "--url", multi, "--format", format);
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.out())
                    .contains(
                            switch (format) {
                                case "json" -> "\"target\" : \"" + shown + "\"";
                                case "markdown" -> "### Advisory locks on " + MarkdownText.text(shown) + " (";
                                default -> "Advisory locks on " + shown + " (";
                            });
            assertNoSecret(r);
        }

        // ?password=: a login that works, one that fails, and the URL given as a PATH by mistake
        String withPassword = server.url("postgres") + "?user=" + ROLE + "&password=" + SECRET;
        CliHarness.Run ok = run(tmp, Map.of(), "locks", "--url", withPassword, "--format", "json");
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertNoSecret(ok);
        CliHarness.Run refused = run(tmp, Map.of(), "locks", "--url", withPassword + "x");
        assertThat(refused.exitCode()).isEqualTo(LocksCommand.EXIT_LOGIN_REFUSED);
        assertNoSecret(refused);
        CliHarness.Run asPath = run(tmp, Map.of(), "locks", "--url", superuserUrl(), withPassword);
        assertThat(asPath.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(asPath.err()).contains("password=****");
        assertNoSecret(asPath);
    }

    @Test
    void aServerThatAcceptsTheConnectionAndNeverAnswersIsExitCode4WithinTheTimeout() throws Exception {
        assertThat(LiveLocks.DEFAULT_TIMEOUT_SECONDS).isEqualTo(10);
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // read nothing, write nothing
                    }
                } catch (IOException e) {
                    // the test closed the socket
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            long start = System.nanoTime();
            CliHarness.Run r = run(
                    tmp,
                    Map.of(),
                    "locks",
                    "--url",
                    "jdbc:postgresql://127.0.0.1:" + silent.getLocalPort() + "/app?user=x",
                    "--timeout",
                    "1");
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertThat(r.exitCode()).as(r.err()).isEqualTo(LocksCommand.EXIT_UNREACHABLE);
            assertThat(seconds).isLessThan(1 + LiveLocks.SOCKET_MARGIN_SECONDS + 3);
            assertThat(r.err())
                    .startsWith("pg-advisory-lint: cannot reach 127.0.0.1:" + silent.getLocalPort() + "/app: ")
                    .contains("(no answer within the timeout of 1 s; --timeout)");
            assertThat(accepted).isNotEmpty();
        } finally {
            for (Socket s : accepted) {
                s.close();
            }
        }
        CliHarness.Run zero = run(tmp, Map.of(), "locks", "--url", superuserUrl(), "--timeout", "0");
        assertThat(zero.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(zero.err()).contains("--timeout must be from 1 to 3600 seconds");
    }

    @Test
    void aQueryThatWaitsLongerThanTheTimeoutIsCancelledWithExitCode4() throws Exception {
        // a session holding pg_locks exclusively: the locks query waits for it until statement_timeout
        Connection blocker = session("locks-test-blocker");
        blocker.setAutoCommit(false);
        exec(blocker, "LOCK TABLE pg_catalog.pg_locks IN ACCESS EXCLUSIVE MODE");
        long start = System.nanoTime();
        CliHarness.Run r = run(tmp, Map.of(), "locks", "--url", superuserUrl(), "--timeout", "1");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        blocker.rollback();
        assertThat(r.exitCode()).as(r.err()).isEqualTo(LocksCommand.EXIT_UNREACHABLE);
        assertThat(seconds).isLessThan(1 + LiveLocks.SOCKET_MARGIN_SECONDS);
        assertThat(r.err())
                .startsWith("pg-advisory-lint: reading the locks of 127.0.0.1:" + server.port() + "/postgres failed: ")
                // the server's statement_timeout, or under load the driver's cancel a second later: both 57014
                .containsPattern("canceling statement due to (statement timeout|user request)")
                .contains("(SQLSTATE 57014)");
    }

    @Test
    void aSessionWhoseQueryTextReadsInsufficientPrivilegeHidesNothingFromASuperuser() throws Exception {
        Connection forger = session("forger");
        int forgerPid = pid(forger);
        exec(forger, "SELECT pg_advisory_lock(31337)");
        try {
            exec(forger, LiveLocks.INSUFFICIENT_PRIVILEGE); // a syntax error, but pg_stat_activity shows its text
        } catch (SQLException e) {
            // expected
        }
        try (Connection observer = server.connect("locks-test-observer")) {
            assertThat(Sql.text(observer, "SELECT query FROM pg_stat_activity WHERE pid = " + forgerPid))
                    .isEqualTo(LiveLocks.INSUFFICIENT_PRIVILEGE);
        }
        CliHarness.Run r = run(tmp, Map.of(), "locks", "--url", superuserUrl());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out())
                .contains("held by     pid " + forgerPid + " (forger) from 127.0.0.1 exclusive, idle since")
                .doesNotContain("hidden");
    }
}
