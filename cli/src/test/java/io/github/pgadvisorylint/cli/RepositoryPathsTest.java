package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 through the real CLI: the path base, a baseline that matches nothing, test sources left out. */
class RepositoryPathsTest {

    private static final String LIMIT_QUERY =
            "SELECT id FROM jobs WHERE pg_try_advisory_lock(id) ORDER BY id LIMIT 1;\n";

    @TempDir
    Path repo;

    private void write(String relative, String text) throws IOException {
        Path p = repo.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private JsonNode sarif(String file) throws IOException {
        return new ObjectMapper().readTree(repo.resolve(file).toFile()).at("/runs/0");
    }

    @Test
    void aSubdirectoryScanReportsPathsFromTheGitRootOrTheChosenBase() throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        write("server/db/V1.sql", LIMIT_QUERY);
        CliHarness.Run run = CliHarness.real(repo, "scan", "server/db", "--format", "sarif", "--output", "a.sarif");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        JsonNode location = sarif("a.sarif").at("/results/0/locations/0/physicalLocation/artifactLocation");
        assertThat(location.get("uri").asText()).isEqualTo("server/db/V1.sql");
        assertThat(location.get("uriBaseId").asText()).isEqualTo("%SRCROOT%");
        assertThat(sarif("a.sarif").at("/originalUriBaseIds").has("%SRCROOT%")).isTrue();

        CliHarness.Run chosen = CliHarness.real(repo, "scan", "server/db", "--path-base", "server", "--format", "text");
        assertThat(chosen.out()).startsWith("db/V1.sql:1:");
        CliHarness.Run outside = CliHarness.real(repo, "scan", "server", "--path-base", "server/db");
        assertThat(outside.exitCode()).isEqualTo(2);
        assertThat(outside.err()).contains("does not contain the scanned directory");
    }

    @Test
    void keysAndGraphNameFilesFromTheSameBaseAsScan() throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        write("server/db/V1.sql", LIMIT_QUERY);
        CliHarness.Run keys = CliHarness.real(repo, "keys", "server/db", "--format", "csv");
        assertThat(keys.exitCode()).as(keys.err()).isZero();
        assertThat(keys.out()).contains("server/db/V1.sql");
        CliHarness.Run chosen =
                CliHarness.real(repo, "keys", "server/db", "--path-base", "server/db", "--format", "csv");
        assertThat(chosen.out()).contains("V1.sql").doesNotContain("server/db/V1.sql");
        CliHarness.Run outside = CliHarness.real(repo, "graph", "server", "--path-base", "server/db");
        assertThat(outside.exitCode()).isEqualTo(2);
        assertThat(outside.err()).contains("does not contain the scanned directory");
    }

    @Test
    void aBaselineFromTheRootFitsASubdirectoryAndOneThatMatchesNothingSaysSo() throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        write("server/db/V1.sql", LIMIT_QUERY);
        assertThat(CliHarness.real(repo, "scan", ".", "--write-baseline", "b.json")
                        .exitCode())
                .isZero();
        CliHarness.Run fromModule = CliHarness.real(repo, "scan", "server/db", "--baseline", "b.json");
        assertThat(fromModule.exitCode()).as(fromModule.err()).isZero();
        assertThat(fromModule.err()).doesNotContain("warning");

        // a baseline written with the module as base: nothing matches, and the scan says so
        assertThat(CliHarness.real(repo, "scan", "server/db", "--path-base", "server/db", "--write-baseline", "m.json")
                        .exitCode())
                .isZero();
        CliHarness.Run mismatched =
                CliHarness.real(repo, "scan", "server/db", "--baseline", "m.json", "--format", "json");
        assertThat(mismatched.exitCode()).isEqualTo(1);
        assertThat(mismatched.err())
                .contains("pg-advisory-lint: warning: baseline m.json has 1 entry but none"
                        + " matches a finding of this scan: it was probably written from another directory or with another"
                        + " path base");
    }

    @Test
    void testSourcesAreLeftOutUnlessIncluded() throws IOException {
        write("src/main/resources/db/V1.sql", LIMIT_QUERY);
        write("src/test/resources/db/fixture.sql", LIMIT_QUERY);
        CliHarness.Run byDefault = CliHarness.real(repo, "scan", ".");
        assertThat(byDefault.out())
                .contains("src/main/resources/db/V1.sql:1:")
                .doesNotContain("fixture.sql")
                .contains("in 1 file");
        CliHarness.Run included = CliHarness.real(repo, "scan", ".", "--include-tests");
        assertThat(included.out())
                .contains("src/test/resources/db/fixture.sql:1:")
                .contains("in 2 files");
        write(".pg-advisory-lint.yml", "includeTests: true\n");
        assertThat(CliHarness.real(repo, "scan", ".").out()).contains("fixture.sql");
        assertThat(CliHarness.real(repo, "scan", ".", "--no-include-tests").out())
                .doesNotContain("fixture.sql");
    }
}
