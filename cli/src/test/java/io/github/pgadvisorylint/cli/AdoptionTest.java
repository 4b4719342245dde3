package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.fixtures.SarifSchema;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Suppressions, baselines, the configuration file and the output formats through the real CLI. */
class AdoptionTest {

    @TempDir
    Path dir;

    private Path project;
    private Path job;
    private Environment.Terminal terminal = Environment.Terminal.NONE;

    private record Run(int code, String out, String err) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeEach
    void project() throws Exception {
        project = Files.createDirectories(dir.resolve("repo"));
        Files.createDirectories(project.resolve(".git"));
        job = project.resolve("src/main/java/com/acme/Claims.java");
        Files.createDirectories(job.getParent());
        writeJob("", false);
    }

    /** A class with one LIMIT claim (and optionally a second one), after some blank lines. */
    private void writeJob(String padding, boolean second) throws Exception {
        Files.writeString(
                job,
                "package com.acme;\n\nimport java.sql.*;\n\nclass Claims {\n" + padding
                        + "    Connection c;\n"
                        + "    void claim() throws SQLException {\n"
                        + "        c.prepareStatement(\"SELECT id FROM jobs WHERE pg_try_advisory_xact_lock(id) LIMIT 1\");\n"
                        + "    }\n"
                        + (second
                                ? "    void claimInvoice() throws SQLException {\n"
                                        + "        c.prepareStatement(\"SELECT id FROM invoices WHERE pg_try_advisory_xact_lock(id) LIMIT 1\");\n"
                                        + "    }\n"
                                : "")
                        + "}\n");
    }

    private Run run(String... args) {
        Environment standard = Environment.standard();
        CommandLine cli = Main.commandLine(new Environment(standard.rules(), standard.engine(), dir, terminal));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static long count(String text, String rule) {
        return text.lines().filter(l -> l.contains("[" + rule + "]")).count();
    }

    // --- baselines ---------------------------------------------------------------------------------

    @Test
    void baselineLifecycle() throws Exception {
        Run first = run("scan", "repo", "--fail-on", "warning");
        assertThat(first.code()).isEqualTo(1);
        long before = count(first.out(), "lock-in-limit-query");
        assertThat(before).isEqualTo(1);

        Run record = run("scan", "repo", "--write-baseline", "baseline.json");
        assertThat(record.code()).as(record.err()).isZero();
        assertThat(record.out()).contains("Baseline written to baseline.json").contains("suppressed");
        JsonNode file = JSON.readTree(dir.resolve("baseline.json").toFile());
        assertThat(file.get("version").asInt()).isEqualTo(1);
        int recorded = file.get("findings").size();
        assertThat(recorded).isPositive();
        assertThat(file.at("/findings/0/path").asText()).isEqualTo("src/main/java/com/acme/Claims.java");

        // moved ten lines down: still baselined
        writeJob("\n".repeat(10), false);
        Run moved = run("scan", "repo", "--baseline", "baseline.json");
        assertThat(moved.code()).as(moved.out()).isZero();
        assertThat(count(moved.out(), "lock-in-limit-query")).isZero();

        // a new finding is reported
        writeJob("\n".repeat(10), true);
        Run added = run("scan", "repo", "--baseline", "baseline.json");
        assertThat(added.code()).isEqualTo(1);
        assertThat(added.out().lines().filter(l -> l.contains("[lock-in-limit-query]")))
                .singleElement()
                .asString()
                .contains(":21:");

        // the old one fixed: an update drops it and does not add the new one silently
        Files.writeString(
                job,
                Files.readString(job)
                        .replace("FROM jobs WHERE pg_try_advisory_xact_lock(id) LIMIT 1", "FROM jobs WHERE id = 1"));
        Run update = run("scan", "repo", "--baseline", "baseline.json", "--write-baseline", "baseline.json");
        assertThat(update.code()).as("the new finding is still reported").isEqualTo(1);
        assertThat(JSON.readTree(dir.resolve("baseline.json").toFile()).get("findings"))
                .isEmpty();

        Run all = run("scan", "repo", "--write-baseline", "baseline.json", "--baseline-record-all");
        assertThat(all.code()).isZero();
        assertThat(JSON.readTree(dir.resolve("baseline.json").toFile()).get("findings"))
                .hasSize(recorded);
    }

    @Test
    void baselineErrorsExitTwo() throws Exception {
        assertThat(run("scan", "repo", "--baseline", "missing.json").err())
                .contains("pg-advisory-lint: no such baseline file: missing.json");
        Files.writeString(dir.resolve("bad.json"), "{\"version\": 7, \"findings\": []}");
        Run bad = run("scan", "repo", "--baseline", "bad.json");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("bad.json: unsupported baseline version 7");
        Run flag = run("scan", "repo", "--baseline-record-all");
        assertThat(flag.code()).isEqualTo(2);
        assertThat(flag.err()).contains("--baseline-record-all needs --write-baseline FILE");
    }

    // --- configuration -------------------------------------------------------------------------------

    @Test
    void configurationFoundAboveTheScanRootSwitchesRulesAndFiles() throws Exception {
        Files.writeString(project.resolve(".pg-advisory-lint.yml"), "rules:\n  lock-in-limit-query: note\n");
        Run noted = run("scan", "repo/src", "--fail-on", "warning");
        assertThat(noted.code()).as(noted.out()).isZero();
        assertThat(noted.out()).contains(": note [lock-in-limit-query]");

        Files.writeString(project.resolve(".pg-advisory-lint.yml"), "excludes: ['**/acme/Claims.java']\n");
        Run excluded = run("scan", "repo");
        assertThat(excluded.code()).isZero();
        assertThat(excluded.out()).startsWith("0 errors, 0 warnings, 0 notes in 1 file ");

        Files.writeString(project.resolve(".pg-advisory-lint.yml"), "rules:\n  lock-in-limit-query: off\n");
        assertThat(count(run("scan", "repo").out(), "lock-in-limit-query")).isZero();
    }

    @Test
    void commandLinePoolingWinsOverTheFile() throws Exception {
        Files.writeString(
                job,
                "package com.acme;\nimport java.sql.*;\nclass Claims {\n    Connection c;\n"
                        + "    void run() throws SQLException {\n        c.createStatement().execute(\"SELECT pg_advisory_lock(7)\");\n"
                        + "        try { } finally { c.createStatement().execute(\"SELECT pg_advisory_unlock(7)\"); }\n    }\n}\n");
        Files.writeString(project.resolve(".pg-advisory-lint.yml"), "pooling: transaction\n");
        assertThat(count(run("scan", "repo").out(), "session-lock-under-transaction-pooling"))
                .isPositive();
        assertThat(count(run("scan", "repo", "--pooling", "none").out(), "session-lock-under-transaction-pooling"))
                .isZero();
    }

    @Test
    void configurationErrorsExitTwoWithFileLineAndAllowedValues() throws Exception {
        Files.writeString(project.resolve(".pg-advisory-lint.yml"), "pooling: transactional\n");
        Run bad = run("scan", "repo");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err().strip())
                .isEqualTo("pg-advisory-lint: repo/.pg-advisory-lint.yml:1:10: pooling:"
                        + " 'transactional' is not allowed (allowed: auto, transaction, statement, session, none)");

        // two mistakes: both reported, each on a line of its own with the tool's prefix
        Files.writeString(project.resolve(".pg-advisory-lint.yml"), "pooling: transactional\nincludeTests: maybe\n");
        Run two = run("scan", "repo");
        assertThat(two.code()).isEqualTo(2);
        assertThat(two.err().lines())
                .containsExactly(
                        "pg-advisory-lint: repo/.pg-advisory-lint.yml:1:10: pooling: 'transactional' is not allowed"
                                + " (allowed: auto, transaction, statement, session, none)",
                        "pg-advisory-lint: repo/.pg-advisory-lint.yml:2:15: includeTests: 'maybe' is not allowed"
                                + " (allowed: true, false)");

        Files.writeString(dir.resolve("other.yml"), "rules:\n  no-such-rule: off\n");
        Run unknown = run("scan", "repo", "--config", "other.yml");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err())
                .contains("other.yml:2:3: rules: unknown rule 'no-such-rule'")
                .contains("(allowed: ");

        Run missing = run("scan", "repo", "--config", "nope.yml");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("no such configuration file: nope.yml");
    }

    // --- suppressed findings in SARIF --------------------------------------------------------------------

    @Test
    void showSuppressedKeepsSchemaValidSarifWithSuppressions() throws Exception {
        Files.writeString(
                job,
                Files.readString(job)
                        .replace(
                                "LIMIT 1\");",
                                "LIMIT 1\"); // pg-advisory-lint:ignore lock-in-limit-query -- one row by primary key"));
        Run plain = run("scan", "repo", "--format", "sarif", "--output", "plain.sarif");
        assertThat(plain.code()).as(plain.err()).isZero();
        String hidden = Files.readString(dir.resolve("plain.sarif"));
        SarifSchema.assertValid(hidden);
        assertThat(JSON.readTree(hidden).at("/runs/0/results").findValuesAsText("ruleId"))
                .doesNotContain("lock-in-limit-query");

        run("scan", "repo", "--format", "sarif", "--output", "all.sarif", "--show-suppressed");
        String shown = Files.readString(dir.resolve("all.sarif"));
        SarifSchema.assertValid(shown);
        JsonNode result = null;
        for (JsonNode r : JSON.readTree(shown).at("/runs/0/results")) {
            if (r.get("ruleId").asText().equals("lock-in-limit-query")) {
                result = r;
            }
        }
        assertThat(result).isNotNull();
        assertThat(result.at("/suppressions/0/kind").asText()).isEqualTo("inSource");
        assertThat(result.at("/suppressions/0/justification").asText()).isEqualTo("one row by primary key");
    }

    // --- formats ---------------------------------------------------------------------------------------

    @Test
    void githubCheckstyleAndMarkdownFromTheCommandLine() throws Exception {
        Run gh = run("scan", "repo", "--format", "github");
        assertThat(gh.code()).isEqualTo(1);
        assertThat(gh.out().lines()).isNotEmpty().allMatch(l -> l.matches("^::(error|warning|notice) file=[^:]+::.+$"));
        assertThat(gh.out()).contains("::error file=src/main/java/com/acme/Claims.java,line=8,col=");
        assertThat(gh.err()).contains("1 error");

        Run xml = run(
                "scan",
                "repo",
                "--format",
                "checkstyle",
                "--output",
                "cs.xml",
                "--format",
                "markdown",
                "--output",
                "summary.md");
        assertThat(xml.code()).isEqualTo(1);
        assertThat(Files.readString(dir.resolve("cs.xml")))
                .contains("<file name=\"src/main/java/com/acme/Claims.java\">")
                .contains("source=\"pg-advisory-lint.lock-in-limit-query\"");
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("| `lock-in-limit-query` | 1 | 0 | 0 |");
        assertThat(xml.err()).contains("Checkstyle XML written to cs.xml").contains("Markdown written to summary.md");

        Run html = run("scan", "repo", "--format", "html", "--output", "report.html");
        assertThat(html.code()).isEqualTo(1);
        assertThat(html.err()).contains("HTML written to report.html");
        assertThat(Files.readString(dir.resolve("report.html")))
                .startsWith("<!DOCTYPE html>")
                .contains("<code>src/main/java/com/acme/Claims.java:");

        Run badFormat = run("scan", "repo", "--format", "pdf");
        assertThat(badFormat.code()).isEqualTo(2);
        assertThat(badFormat.err())
                .contains("'pdf' is not one of text, sarif, json, github, checkstyle, markdown, html");
    }

    // --- colour and progress -----------------------------------------------------------------------------

    private static Environment.Terminal terminal(boolean interactive, Map<String, String> env) {
        return new Environment.Terminal() {
            @Override
            public boolean interactive() {
                return interactive;
            }

            @Override
            public String getenv(String name) {
                return env.get(name);
            }
        };
    }

    @Test
    void colourOnlyOnATerminalWithoutNoColorUnlessAsked() {
        assertThat(run("scan", "repo").out()).doesNotContain("\u001b[");
        assertThat(run("scan", "repo", "--color", "always").out()).contains("\u001b[1;31merror\u001b[0m");
        terminal = terminal(true, Map.of());
        assertThat(run("scan", "repo").out()).contains("\u001b[");
        assertThat(run("scan", "repo", "--color", "never").out()).doesNotContain("\u001b[");
        terminal = terminal(true, Map.of("NO_COLOR", "1"));
        assertThat(run("scan", "repo").out()).doesNotContain("\u001b[");
        terminal = terminal(true, Map.of("NO_COLOR", ""));
        assertThat(run("scan", "repo").out())
                .as("an empty NO_COLOR does not count")
                .contains("\u001b[");
    }

    @Test
    void progressLineOnlyAfterADelayAndErasedAtTheEnd() {
        StringWriter err = new StringWriter();
        long[] now = {0};
        ProgressLine line = new ProgressLine(new PrintWriter(err, true), () -> now[0]);
        line.progress(1, 200);
        line.clear();
        assertThat(err.toString()).as("short scans print nothing").isEmpty();
        now[0] = 1500;
        line.progress(100, 200);
        now[0] = 1550;
        line.progress(150, 200);
        now[0] = 1700;
        line.progress(200, 200);
        line.clear();
        assertThat(err.toString())
                .isEqualTo("\rpg-advisory-lint: 50% of 100 files\rpg-advisory-lint: 100% of 100 files" + "\r\u001b[K");
        Run piped = run("scan", "repo");
        assertThat(piped.err()).doesNotContain("\r");
    }
}
