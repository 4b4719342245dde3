package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandsTest {

    @TempDir
    Path cwd;

    private CliHarness harness() {
        return new CliHarness(cwd, CliHarness.rules(), CliHarness.result());
    }

    @Test
    void listRulesPrintsAlignedColumns() {
        CliHarness.Run run = harness().run("list-rules");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .isEqualTo("duplicate-lock-key                      warning  Two unrelated locks share a key.\n"
                        + "session-lock-under-transaction-pooling  error    Session lock behind a transaction-pooling"
                        + " PgBouncer.\n");
    }

    @Test
    void listRulesWithoutRules() {
        CliHarness.Run run = new CliHarness(cwd, List.of(), CliHarness.result()).run("list-rules");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("No rules are installed.\n");
    }

    @Test
    void explainPrintsTheDocumentationPage() {
        CliHarness.Run run = harness().run("explain", "duplicate-lock-key");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("# duplicate-lock-key\n\nWhy it matters.\n");
    }

    @Test
    void explainOfAnUnknownRuleListsTheKnownOnes() {
        CliHarness.Run run = harness().run("explain", "no-such-rule");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("pg-advisory-lint: unknown rule 'no-such-rule'. Known rules:"
                        + " duplicate-lock-key, session-lock-under-transaction-pooling\n");
        assertThat(harness().run("explain").exitCode()).as("missing id").isEqualTo(2);
    }

    @Test
    void explainSuggestsTheNearestIdsForATypoOrAFragment() {
        CliHarness.Run typo = harness().run("explain", "duplicate-lock-keys");
        assertThat(typo.exitCode()).isEqualTo(2);
        assertThat(typo.err())
                .isEqualTo("pg-advisory-lint: unknown rule 'duplicate-lock-keys'. Did you mean duplicate-lock-key?"
                        + " Known rules: duplicate-lock-key, session-lock-under-transaction-pooling\n");
        assertThat(harness().run("explain", "pooling").err())
                .contains("Did you mean session-lock-under-transaction-pooling?");
        assertThat(harness().run("explain", "xyz").err()).doesNotContain("Did you mean");
    }

    @Test
    void explainTakesTheSarifNameAndTheSuppressionForm() {
        for (String given : List.of(
                "DuplicateLockKey",
                "duplicatelockkey",
                "pg-advisory-lint:duplicate-lock-key",
                " DUPLICATE-LOCK-KEY ")) {
            CliHarness.Run run = harness().run("explain", given);
            assertThat(run.exitCode()).as(given).isZero();
            assertThat(run.out()).as(given).startsWith("# duplicate-lock-key\n");
        }
    }

    @Test
    void versionAndHelp() {
        CliHarness.Run version = harness().run("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("pg-advisory-lint " + ToolInfo.version() + "\n");

        CliHarness.Run help = harness().run("--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out())
                .contains("Usage: pg-advisory-lint")
                .contains("scan")
                .contains("list-rules")
                .contains("explain")
                .contains("Exit codes:")
                .contains("0   no finding at or above --fail-on")
                .contains("3   internal error");

        CliHarness.Run scanHelp = harness().run("scan", "--help");
        assertThat(scanHelp.exitCode()).isZero();
        assertThat(scanHelp.out())
                .contains("Usage: pg-advisory-lint scan")
                .contains("--fail-on=LEVEL")
                .contains("--output=FILE")
                .contains("Exit codes:");
        assertThat(harness().run("help", "scan").out()).isEqualTo(scanHelp.out());
        assertThat(harness().run("explain", "--help").out()).contains("RULE-ID");
    }

    @Test
    void outOfMemoryNamesTheLimitAndHowToRaiseIt() {
        assertThat(Main.outOfMemory(256L << 20))
                .contains("heap limit is 256 MB")
                .contains("JAVA_OPTS=-Xmx2g")
                .doesNotContain("bug")
                // the heap may have run out anywhere (the analysis, a report being written): the message
                // does not guess, and never tells the user that their code is the cause (issue 27)
                .doesNotContainIgnoringCase("file")
                .doesNotContainIgnoringCase("line")
                .doesNotContainIgnoringCase("fewer");
        assertThat(Main.outOfMemory(6L << 30)).contains("JAVA_OPTS=-Xmx14g");
    }

    /**
     * picocli reads every description, header and footer as a {@code String.format} pattern; one it cannot format
     * (an unescaped {@code %}, as in {@code %SRCROOT%}) is printed raw with a {@code [picocli WARN]} line on the
     * JVM's standard error, where picocli's tracer writes (so a JVM of its own).
     */
    @Test
    void helpPrintsNoPicocliWarnings() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "scan", "--help")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        byte[] err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(new String(err, StandardCharsets.UTF_8))
                .doesNotContain("[picocli WARN]")
                .isEmpty();

        // every other command's help, in one JVM of its own
        Process all = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), HelpProbe.class.getName())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        byte[] allErr = all.getErrorStream().readAllBytes();
        assertThat(all.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(all.exitValue()).isZero();
        assertThat(new String(allErr, StandardCharsets.UTF_8)).isEmpty();
    }
}
