package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.fixtures.Expectation;
import io.github.pgadvisorylint.fixtures.Expectations;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import io.github.pgadvisorylint.fixtures.SarifSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped CLI, the real rules and the real analyzer on the bundled example and on broken input. */
class EndToEndTest {

    @TempDir
    Path out;

    private static CliHarness.Run run(Path cwd, String... args) {
        return CliHarness.real(cwd, args);
    }

    @Test
    void exampleScanReportsExactlyItsExpectationsInSchemaValidSarif() throws Exception {
        Path example = FixtureHarness.exampleProject();
        Path sarifFile = out.resolve("example.sarif");
        CliHarness.Run r =
                run(example, "scan", example.toString(), "--format", "sarif", "--output", sarifFile.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        String sarif = Files.readString(sarifFile);
        SarifSchema.assertValid(sarif);

        JsonNode results = new ObjectMapper().readTree(sarif).at("/runs/0/results");
        List<String> reported = new ArrayList<>();
        for (JsonNode result : results) {
            JsonNode loc = result.at("/locations/0/physicalLocation");
            reported.add(loc.at("/artifactLocation/uri").asText() + ":"
                    + loc.at("/region/startLine").asInt() + ":"
                    + result.get("ruleId").asText());
        }
        // the example lives in this repository: its paths start at the repository root, the path base
        // (issue 17); a copy of the sources without .git reports them relative to the example
        Path repository = example.getParent().getParent();
        String prefix = Files.exists(repository.resolve(".git")) ? "examples/invoice-service/" : "";
        List<String> expected = Expectations.parse(example).all().stream()
                .filter(e -> e.kind() == Expectation.Kind.EXPECT)
                .map(e -> prefix + e.path() + ":" + e.line() + ":" + e.ruleId())
                .sorted()
                .toList();
        assertThat(new TreeSet<>(reported)).containsExactlyElementsOf(new TreeSet<>(expected));
        assertThat(reported).hasSameSizeAs(expected);
    }

    @Test
    void twoScansGiveByteIdenticalSarif() throws Exception {
        Path example = FixtureHarness.exampleProject();
        run(
                example,
                "scan",
                example.toString(),
                "--format",
                "sarif",
                "--output",
                out.resolve("a.sarif").toString());
        run(
                example,
                "scan",
                example.toString(),
                "--format",
                "sarif",
                "--output",
                out.resolve("b.sarif").toString(),
                "--threads",
                "1");
        assertThat(Files.readAllBytes(out.resolve("a.sarif"))).isEqualTo(Files.readAllBytes(out.resolve("b.sarif")));
    }

    @Test
    void brokenJavaAndRejectedSqlAreLocatedNotificationsAndTheScanGoesOn(@TempDir Path repo) throws Exception {
        Files.writeString(
                repo.resolve("Broken.java"),
                "class Broken {\n  void f() { jdbc.execute(\"select pg_advisory_lock(1)\"; \n");
        Files.writeString(repo.resolve("Queue.java"), """
                class Queue {
                    Object claim(java.sql.Statement st) throws Exception {
                        return st.executeQuery("SELECT id FROM jobs WHERE pg_try_advisory_xact_lock(id) ORDER BY prio LIMIT 1 FOR NO KEY UPDATE OF jobs SKIP LOCKED GARBAGE ((");
                    }
                }
                """);
        Path sarifFile = out.resolve("broken.sarif");
        CliHarness.Run r = run(
                repo,
                "scan",
                repo.toString(),
                "--format",
                "sarif",
                "--output",
                sarifFile.toString(),
                "--format",
                "text");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        String sarif = Files.readString(sarifFile);
        SarifSchema.assertValid(sarif);
        JsonNode run = new ObjectMapper().readTree(sarif).at("/runs/0");
        assertThat(run.at("/results").findValuesAsText("ruleId")).containsExactly("lock-in-limit-query");
        List<String> notes = new ArrayList<>();
        for (JsonNode n : run.at("/invocations/0/toolExecutionNotifications")) {
            notes.add(n.at("/descriptor/id").asText() + " "
                    + n.at("/locations/0/physicalLocation/artifactLocation/uri").asText() + ":"
                    + n.at("/locations/0/physicalLocation/region/startLine").asInt());
        }
        assertThat(notes).containsExactly("java-parse-error Broken.java:2", "sql-parse-fallback Queue.java:3");
        assertThat(r.out())
                .contains("Broken.java:2:")
                .contains("[tool:java-parse-error]")
                .contains("Queue.java:3:")
                .contains("[tool:sql-parse-fallback]");
    }

    @Test
    void poolingOptionOverridesTheConfiguration(@TempDir Path repo) throws Exception {
        Files.writeString(repo.resolve("Job.java"), """
                class Job {
                    void run(java.sql.Statement st) throws Exception {
                        st.execute("SELECT pg_advisory_lock(7)");
                        try { st.execute("VACUUM t"); } finally { st.execute("SELECT pg_advisory_unlock(7)"); }
                    }
                }
                """);
        assertThat(run(repo, "scan", repo.toString()).exitCode()).isZero();
        CliHarness.Run forced = run(repo, "scan", repo.toString(), "--pooling", "transaction");
        assertThat(forced.exitCode()).isEqualTo(1);
        assertThat(forced.out()).contains("error [session-lock-under-transaction-pooling]");
        Files.writeString(repo.resolve("pgbouncer.ini"), "[pgbouncer]\npool_mode = transaction\n");
        assertThat(run(repo, "scan", repo.toString()).out()).contains("pgbouncer.ini:2:");
        assertThat(run(repo, "scan", repo.toString(), "--pooling", "session").exitCode())
                .isZero();
        assertThat(run(repo, "scan", repo.toString(), "--pooling", "sometimes").exitCode())
                .isEqualTo(2);
    }
}
