package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.fixtures.SarifSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real analyzer end to end through the command line. Tests of the command line's own behaviour
 * (files, caches, exit codes) run test rules only ({@link CliHarness#plumbing}), so a new rule in the
 * catalog cannot change their outcome; the catalog itself is checked against the registry.
 */
class RealPipelineTest {

    @TempDir
    Path dir;

    @Test
    void scansATreeAndWritesValidSarif() throws Exception {
        Files.createDirectories(dir.resolve("src/main/java/com/acme"));
        Files.writeString(
                dir.resolve("src/main/java/com/acme/Job.java"),
                "class Job {\n"
                        + "  void run(java.sql.Connection c) throws Exception {\n"
                        + "    c.createStatement().execute(\"select pg_advisory_lock(42)\");\n  }\n}\n");
        Files.writeString(dir.resolve("init.sql"), "select pg_advisory_unlock(42);\n");
        CliHarness.Run run = CliHarness.plumbing(
                dir, "scan", "--format", "sarif", "--output", "out/report.sarif", "--format", "text", ".");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(Main.EXIT_FINDINGS);
        String sarif = Files.readString(dir.resolve("out/report.sarif"));
        SarifSchema.assertValid(sarif);
        JsonNode log = new ObjectMapper().readTree(sarif);
        assertThat(log.at("/runs/0/tool/driver/rules").findValuesAsText("id"))
                .containsExactly(CliHarness.ACQUISITION_RULE, "test-only-rule");
        assertThat(log.at("/runs/0/results").findValuesAsText("ruleId")).containsExactly(CliHarness.ACQUISITION_RULE);
        assertThat(run.out()).contains("SARIF written to out/report.sarif");
    }

    /** Every installed rule (the registry decides which) describes itself in valid SARIF. */
    @Test
    void everyInstalledRuleIsDescribedInValidSarif() throws Exception {
        Files.writeString(dir.resolve("init.sql"), "select 1;\n");
        CliHarness.Run run = CliHarness.real(dir, "scan", "--format", "sarif", "--output", "report.sarif", ".");
        assertThat(run.exitCode()).as(run.err()).isZero();
        String sarif = Files.readString(dir.resolve("report.sarif"));
        SarifSchema.assertValid(sarif);
        List<String> enabled = RuleRegistry.load().stream()
                .map(Rule::descriptor)
                .filter(RuleDescriptor::enabledByDefault)
                .map(RuleDescriptor::id)
                .toList();
        assertThat(new ObjectMapper()
                        .readTree(sarif)
                        .at("/runs/0/tool/driver/rules")
                        .findValuesAsText("id"))
                .containsExactlyElementsOf(enabled);
    }

    @Test
    void cacheGivesTheSameReportAndAWarningWhenCorrupt() throws Exception {
        Path project = dir.resolve("project");
        Files.createDirectories(project.resolve("src/main/java/com/acme"));
        Files.writeString(project.resolve("src/main/java/com/acme/Job.java"), """
                package com.acme;
                class Job {
                    void run(java.sql.Connection c) throws Exception {
                        c.createStatement().execute("select pg_advisory_lock(42)");
                        work();
                        c.createStatement().execute("select pg_advisory_unlock(42)");
                    }
                    void work() { }
                }
                """);
        // the cache inside the scanned tree is never read as an input
        String[] args = {"scan", "--format", "sarif", "--cache", "project/.cache/facts.json", "project"};
        CliHarness.Run cold = CliHarness.plumbing(dir, "scan", "--format", "sarif", "project");
        CliHarness.Run first = CliHarness.plumbing(dir, args);
        CliHarness.Run warm = CliHarness.plumbing(dir, args);
        assertThat(cold.exitCode()).as(cold.err()).isEqualTo(Main.EXIT_FINDINGS);
        assertThat(first.out()).isEqualTo(cold.out());
        assertThat(warm.out()).isEqualTo(cold.out());
        assertThat(warm.exitCode()).isEqualTo(cold.exitCode());
        assertThat(project.resolve(".cache/facts.json")).isRegularFile();

        // cut short, as a full disk would leave it
        Path facts = project.resolve(".cache/facts.json");
        Files.writeString(facts, Files.readString(facts).substring(0, 40));
        CliHarness.Run corrupt = CliHarness.plumbing(dir, args);
        assertThat(corrupt.out()).isEqualTo(cold.out());
        assertThat(corrupt.err())
                .contains("pg-advisory-lint: warning: cannot use cache file")
                .contains("facts.json")
                .contains("not valid JSON at line 1");
        assertThat(corrupt.err()).doesNotContain("cannot write cache");
        assertThat(warm.err())
                .contains("pg-advisory-lint: cache project/.cache/facts.json: 1 files reused, 0 analysed");
        assertThat(first.err())
                .contains("pg-advisory-lint: cache project/.cache/facts.json: 0 files reused, 1 analysed");
        assertThat(Files.readString(project.resolve(".cache/facts.json"))).startsWith("{");
    }

    @Test
    void timingsGoToStandardErrorPhaseByPhase() throws Exception {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/Job.java"), "class Job { String sql = \"select pg_advisory_xact_lock(1)\"; }\n");
        CliHarness.Run plain = CliHarness.real(dir, "scan", "--format", "sarif", ".");
        CliHarness.Run timed = CliHarness.real(dir, "scan", "--format", "sarif", "--timings", ".");
        assertThat(timed.out()).isEqualTo(plain.out());
        assertThat(timed.err().lines().filter(l -> l.startsWith("timing: ")).map(l -> l.split("\\s+", -1)[1]))
                .containsExactly(
                        "discover", "read", "outlines", "helpers-round-0", "parsed", "extract", "paths", "rules");
        // one outline and one whole parse: the file is parsed once for its facts
        assertThat(timed.err())
                .contains(
                        "timing: parsed 1 outlines, 1 whole files (0 again for helper rounds), 0 extractions from the cache");
        assertThat(plain.err()).doesNotContain("timing:");
    }

    @Test
    void aCacheThatIsNoRegularFileIsAUsageError() throws Exception {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/Job.java"), "class Job { String sql = \"select pg_advisory_xact_lock(1)\"; }\n");
        Path fifo = dir.resolve("cache.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo is available");
        CliHarness.Run run = CliHarness.real(dir, "scan", "--cache", "cache.fifo", "src");
        assertThat(run.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(run.err()).contains("--cache cache.fifo: not a regular file");
    }

    @Test
    void theCacheNeverReplacesAFileThatIsNotACacheNorAnotherOutput() throws Exception {
        Files.createDirectories(dir.resolve("src"));
        Path source = dir.resolve("src/Job.java");
        String code = "class Job { String sql = \"select pg_advisory_xact_lock(1)\"; }\n";
        Files.writeString(source, code);
        CliHarness.Run mistaken = CliHarness.plumbing(
                dir, "scan", "--format", "sarif", "-o", "r.sarif", "--cache", "src/Job.java", "src");
        assertThat(Files.readString(source)).isEqualTo(code);
        assertThat(mistaken.exitCode()).isEqualTo(Main.EXIT_OK);
        assertThat(mistaken.err())
                .contains("warning: cannot write cache src/Job.java")
                .contains("is not a pg-advisory-lint cache; not replaced");
        assertThat(dir.resolve("r.sarif")).isRegularFile();

        CliHarness.Run same =
                CliHarness.plumbing(dir, "scan", "--format", "sarif", "-o", "r.sarif", "--cache", "r.sarif", "src");
        assertThat(same.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(same.err()).contains("--cache r.sarif is also given as r.sarif");
        assertThat(CliHarness.plumbing(dir, "scan", "--cache", "-", "src").exitCode())
                .isEqualTo(Main.EXIT_USAGE);
        assertThat(CliHarness.plumbing(dir, "scan", "--cache", "", "src").exitCode())
                .isEqualTo(Main.EXIT_USAGE);
    }
}
