package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.fixtures.SarifSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanCommandTest {

    @TempDir
    Path cwd;

    private final ObjectMapper mapper = new ObjectMapper();

    @BeforeEach
    void tree() throws IOException {
        Files.createDirectories(cwd.resolve("src/main/java"));
        Files.writeString(cwd.resolve("src/main/java/A.java"), "class A {}\n");
        Files.createDirectories(cwd.resolve("db"));
        Files.writeString(cwd.resolve("db/V1__init.sql"), "select 1;\n");
    }

    private CliHarness with(Finding... findings) {
        return new CliHarness(cwd, CliHarness.rules(), CliHarness.result(findings));
    }

    private static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    // --- exit codes -------------------------------------------------------------------------------

    @Test
    void exit0WhenNothingReachesFailOnAndTextGoesToStdout() {
        CliHarness.Run run = with(CliHarness.finding(Severity.NOTE, "src/main/java/A.java", 3))
                .run("scan");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .isEqualTo("src/main/java/A.java:3:5: note [duplicate-lock-key] A note finding.\n"
                        + "0 errors, 0 warnings, 1 note in 7 files (1.2 s)\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void exit1WhenAFindingReachesFailOn() {
        CliHarness h = with(CliHarness.finding(Severity.WARNING, "src/main/java/A.java", 3));
        assertThat(h.run("scan").exitCode()).as("default --fail-on warning").isEqualTo(1);
        assertThat(h.run("scan", "--fail-on", "error").exitCode()).isZero();
        assertThat(h.run("scan", "--fail-on", "NOTE").exitCode()).isEqualTo(1);
        assertThat(with(CliHarness.finding(Severity.ERROR, "a.sql", 1))
                        .run("scan", "--fail-on", "none")
                        .exitCode())
                .isZero();
        assertThat(with(CliHarness.finding(Severity.NOTE, "a.sql", 1))
                        .run("scan", "--fail-on", "note")
                        .exitCode())
                .isEqualTo(1);
    }

    @Test
    void exit2ForAMissingPathNamingIt() {
        CliHarness h = with();
        CliHarness.Run run = h.run("scan", "src", "no/such dir");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("pg-advisory-lint: no such file or directory: no/such dir\n");
        assertThat(run.out()).isEmpty();
        assertThat(h.calls).isEmpty();
    }

    @Test
    void exit2ForBadOptionValues() {
        CliHarness h = with();
        CliHarness.Run failOn = h.run("scan", "--fail-on", "fatal");
        assertThat(failOn.exitCode()).isEqualTo(2);
        assertThat(failOn.err())
                .contains("--fail-on")
                .contains("'fatal' is not one of error, warning, note, none")
                .contains("Try 'pg-advisory-lint scan --help'");
        assertThat(h.run("scan", "--format", "xml").err()).contains("'xml' is not one of text, sarif, json");
        assertThat(h.run("scan", "--format", "xml").exitCode()).isEqualTo(2);
        assertThat(h.run("scan", "--threads", "0").exitCode()).isEqualTo(2);
        assertThat(h.run("scan", "--threads", "many").exitCode()).isEqualTo(2);
        assertThat(h.run("scan", "--no-such-option").exitCode()).isEqualTo(2);
        assertThat(h.run().exitCode()).as("no subcommand").isEqualTo(2);
        assertThat(h.run("frobnicate").exitCode()).isEqualTo(2);
        assertThat(h.calls).isEmpty();
    }

    @Test
    void failOnIncompleteExits1WhenAMethodWasLeftOutAndSaysWhy() {
        Notification leftOut = new Notification(
                Severity.WARNING,
                "method-budget",
                "the lock-state analysis left out Job.run/0: more than 96 path states at one node",
                SourceRegion.line("src/main/java/A.java", 1));
        CliHarness h = new CliHarness(cwd, CliHarness.rules(), CliHarness.result(List.of(), List.of(leftOut)));
        CliHarness.Run plain = h.run("scan");
        assertThat(plain.exitCode()).as("off by default in the CLI").isZero();
        assertThat(plain.out()).contains("[tool:method-budget]");
        CliHarness.Run asked = h.run("scan", "--fail-on-incomplete");
        assertThat(asked.exitCode()).isEqualTo(1);
        assertThat(asked.err())
                .contains("1 part of the input left out of the analysis")
                .contains("--fail-on-incomplete");
        assertThat(h.run("scan", "--no-fail-on-incomplete").exitCode()).isZero();
        // a note that still analysed the file leaves nothing out
        Notification fallback = new Notification(
                Severity.NOTE, "sql-parse-fallback", "lexical", SourceRegion.line("db/V1__init.sql", 1));
        assertThat(new CliHarness(cwd, CliHarness.rules(), CliHarness.result(List.of(), List.of(fallback)))
                        .run("scan", "--fail-on-incomplete")
                        .exitCode())
                .isZero();
    }

    @Test
    void exit2ForATimeLimitOutOfRange() {
        CliHarness h = with();
        assertThat(h.run("scan", "--time-limit", "0").exitCode()).isEqualTo(2);
        assertThat(h.run("scan", "--time-limit", "0").err()).contains("--time-limit must be a whole number of seconds");
        assertThat(h.run("scan", "--time-limit", "soon").exitCode()).isEqualTo(2);
        assertThat(h.run("scan", "--time-limit", "60").exitCode()).isZero();
    }

    @Test
    void exit2WhenTwoFormatsWouldGoToStdoutOrOutputsOutnumberFormats() {
        CliHarness h = with();
        CliHarness.Run two = h.run("scan", "--format", "text", "--format", "sarif");
        assertThat(two.exitCode()).isEqualTo(2);
        assertThat(two.err()).contains("only one report can go to standard output");
        CliHarness.Run extra = h.run("scan", "--output", "a.sarif", "--output", "b.json");
        assertThat(extra.exitCode()).isEqualTo(2);
        assertThat(extra.err()).contains("--output is given 2 times but --format only 1 time");
        assertThat(h.run("scan", "-f", "sarif", "-o", "x.out", "-f", "json", "-o", "./x.out")
                        .err())
                .contains("two reports would be written to ./x.out");
        assertThat(h.calls).isEmpty();
    }

    @Test
    void exit2ForAnUnwritableOutput() throws IOException {
        Files.writeString(cwd.resolve("plain-file"), "x");
        CliHarness.Run run = with().run("scan", "--format", "sarif", "--output", "plain-file/out.sarif");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("pg-advisory-lint: cannot write plain-file/out.sarif: " + cwd.resolve("plain-file")
                        + " is not a directory\n");
        CliHarness.Run dir = with().run("scan", "--format", "sarif", "--output", "src");
        assertThat(dir.exitCode()).isEqualTo(2);
        assertThat(dir.err()).isEqualTo("pg-advisory-lint: cannot write src: it is a directory\n");
    }

    @Test
    void exit3ForAnInternalErrorWithTheStackTraceOnlyUnderDebug() {
        CliHarness h = with().failWith(new IllegalStateException("boom"));
        CliHarness.Run run = h.run("scan");
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err())
                .startsWith("pg-advisory-lint: internal error: java.lang.IllegalStateException: boom.")
                .contains("please report it")
                .contains("--debug")
                .doesNotContain("\tat ");
        assertThat(run.err().lines()).hasSize(1);
        CliHarness.Run debug = h.run("scan", "--debug");
        assertThat(debug.exitCode()).isEqualTo(3);
        assertThat(debug.err()).contains("please report it").contains("\tat ");
        assertThat(h.run("--debug", "scan").err())
                .as("--debug before the subcommand")
                .contains("\tat ");
    }

    // --- formats and outputs ----------------------------------------------------------------------

    @Test
    void sarifToStdoutIsSchemaValidAndTheSummaryGoesToStderr() throws IOException {
        CliHarness.Run run = with(CliHarness.finding(Severity.ERROR, "src/main/java/A.java", 9))
                .run("scan", "--format", "sarif");
        assertThat(run.exitCode()).isEqualTo(1);
        SarifSchema.assertValid(run.out());
        JsonNode log = mapper.readTree(run.out());
        assertThat(log.at("/runs/0/results/0/ruleId").asText()).isEqualTo("session-lock-under-transaction-pooling");
        assertThat(log.at("/runs/0/tool/driver/rules")).hasSize(2);
        assertThat(run.err()).isEqualTo("1 error, 0 warnings, 0 notes in 7 files (1.2 s)\n");
    }

    @Test
    void jsonToStdout() throws IOException {
        CliHarness.Run run = with(CliHarness.finding(Severity.WARNING, "db/V1__init.sql", 1))
                .run("scan", "--format=json", "--fail-on=none");
        assertThat(run.exitCode()).isZero();
        JsonNode doc = mapper.readTree(run.out());
        assertThat(doc.at("/findings/0/path").asText()).isEqualTo("db/V1__init.sql");
        assertThat(doc.at("/summary/warnings").asInt()).isEqualTo(1);
    }

    @Test
    void eachFormatToAFile() throws IOException {
        CliHarness h = with(CliHarness.finding(Severity.WARNING, "db/V1__init.sql", 1));
        CliHarness.Run text = h.run("scan", "--format", "text", "--output", "reports/out.txt", "--fail-on", "none");
        assertThat(text.exitCode()).isZero();
        assertThat(text.out()).isEmpty();
        assertThat(read(cwd.resolve("reports/out.txt")))
                .startsWith("db/V1__init.sql:1:5: warning [duplicate-lock-key] A warning finding.\n")
                .endsWith("(1.2 s)\n");
        assertThat(text.err())
                .isEqualTo("0 errors, 1 warning, 0 notes in 7 files (1.2 s). Text written to reports/out.txt\n");

        assertThat(h.run("scan", "-f", "sarif", "-o", "out.sarif").exitCode()).isEqualTo(1);
        SarifSchema.assertValid(read(cwd.resolve("out.sarif")));

        assertThat(h.run("scan", "-f", "json", "-o", "out.json").exitCode()).isEqualTo(1);
        assertThat(mapper.readTree(read(cwd.resolve("out.json")))
                        .at("/findings/0/ruleId")
                        .asText())
                .isEqualTo("duplicate-lock-key");
    }

    @Test
    void twoFormatsAtOnceTextSummaryNamesTheFiles() throws IOException {
        CliHarness h = with(CliHarness.finding(Severity.ERROR, "src/main/java/A.java", 9));
        CliHarness.Run run = h.run(
                "scan",
                "--format",
                "sarif",
                "--output",
                "target/pg-advisory-lint.sarif",
                "--format",
                "json",
                "--output",
                "out.json",
                "--format",
                "text");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out())
                .isEqualTo(String.join(
                        "\n",
                        "src/main/java/A.java:9:5: error [session-lock-under-transaction-pooling] A error finding.",
                        "    pgbouncer.ini:3:1: related pool_mode = transaction.",
                        "1 error, 0 warnings, 0 notes in 7 files (1.2 s). SARIF written to target/pg-advisory-lint.sarif."
                                + " JSON written to out.json",
                        ""));
        assertThat(run.err()).isEmpty();
        SarifSchema.assertValid(read(cwd.resolve("target/pg-advisory-lint.sarif")));
        assertThat(mapper.readTree(read(cwd.resolve("out.json"))).get("findings"))
                .hasSize(1);
    }

    @Test
    void dashMeansStdout() {
        CliHarness.Run run = with().run("scan", "-f", "json", "-o", "-");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("{\n");
    }

    @Test
    void reportFilesAreReplacedAtomicallyLeavingNoTemporaryFiles() throws IOException {
        Path out = cwd.resolve("out.sarif");
        Files.writeString(out, "old content");
        CliHarness h = with(CliHarness.finding(Severity.NOTE, "a.sql", 2));
        assertThat(h.run("scan", "-f", "sarif", "-o", "out.sarif").exitCode()).isZero();
        assertThat(h.run("scan", "-f", "sarif", "-o", "out.sarif").exitCode()).isZero();
        SarifSchema.assertValid(read(out));
        try (Stream<Path> files = Files.list(cwd)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("src", "db", "out.sarif");
        }
        // a failed write leaves neither a temporary file nor a half-written report
        Files.writeString(cwd.resolve("blocker"), "x");
        assertThat(h.run("scan", "-f", "json", "-o", "blocker/r.json").exitCode())
                .isEqualTo(2);
        try (Stream<Path> files = Files.list(cwd)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void notificationsAppearInTextAndSarif() throws IOException {
        Notification broken = new Notification(
                Severity.ERROR, "java-parse-error", "cannot parse", SourceRegion.line("src/main/java/A.java", 1));
        CliHarness h = new CliHarness(cwd, CliHarness.rules(), CliHarness.result(List.of(), List.of(broken)));
        CliHarness.Run text = h.run("scan");
        assertThat(text.exitCode())
                .as("notifications alone do not fail the scan")
                .isZero();
        assertThat(text.out()).startsWith("src/main/java/A.java:1:1: error [tool:java-parse-error] cannot parse\n");
        CliHarness.Run sarif = h.run("scan", "-f", "sarif");
        SarifSchema.assertValid(sarif.out());
        assertThat(mapper.readTree(sarif.out())
                        .at("/runs/0/invocations/0/executionSuccessful")
                        .asBoolean())
                .isFalse();
    }

    // --- scan root --------------------------------------------------------------------------------

    @Test
    void oneDirectoryIsTheRootOtherwiseTheWorkingDirectory() throws IOException {
        Path real = cwd.toRealPath();
        CliHarness h = with();
        h.run("scan");
        h.run("scan", "db");
        h.run("scan", "db", "src");
        h.run("scan", "db/V1__init.sql");
        h.run("scan", "--threads", "3", ".");
        assertThat(h.calls)
                .containsExactly(
                        new CliHarness.Call(real, List.of(real), h.calls.get(0).threads()),
                        new CliHarness.Call(
                                real.resolve("db"),
                                List.of(real.resolve("db")),
                                h.calls.get(1).threads()),
                        new CliHarness.Call(
                                real,
                                List.of(real.resolve("db"), real.resolve("src")),
                                h.calls.get(2).threads()),
                        new CliHarness.Call(
                                real,
                                List.of(real.resolve("db/V1__init.sql")),
                                h.calls.get(3).threads()),
                        new CliHarness.Call(real, List.of(real), 3));
        assertThat(h.calls.get(0).threads()).isPositive();
    }

    @Test
    void exit2ForAPathOutsideTheRoot() throws IOException {
        Path inner = Files.createDirectories(cwd.resolve("inner"));
        CliHarness h = new CliHarness(inner, CliHarness.rules(), CliHarness.result());
        CliHarness.Run run = h.run("scan", ".", "../db");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("../db is outside the scan root");
        assertThat(h.run("scan", "../db").exitCode())
                .as("one directory is its own root")
                .isZero();
    }
}
