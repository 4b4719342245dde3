package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code graph}: pinned on the bundled example, and rendered by Graphviz. */
class GraphCommandTest {

    @TempDir
    Path out;

    private static String run(Path cwd, String... args) {
        CliHarness.Run r = CliHarness.real(cwd, args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out();
    }

    private static String resource(String name) throws Exception {
        try (InputStream in = GraphCommandTest.class.getResourceAsStream("/graph/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aGraphWithoutEdgesSaysWhyOnStandardError() throws Exception {
        Files.writeString(
                out.resolve("Single.java"),
                "class Single { void run(java.sql.Statement s) throws Exception {"
                        + " s.execute(\"SELECT pg_advisory_xact_lock(1)\"); } }\n");
        CliHarness.Run one = CliHarness.real(out, "graph", out.toString());
        assertThat(one.exitCode()).isZero();
        assertThat(one.out()).startsWith("digraph lock_order {");
        assertThat(one.err())
                .isEqualTo("pg-advisory-lint: the lock-order graph has no edges: the one advisory-lock acquisition"
                        + " found is never taken while another lock is held (keys appear in the graph only on an"
                        + " edge; `keys` lists them all)\n");
        Path empty = Files.createDirectory(out.resolve("empty"));
        assertThat(CliHarness.real(empty, "graph", empty.toString()).err())
                .contains("no advisory-lock acquisition was found");
        Path example = FixtureHarness.exampleProject();
        assertThat(CliHarness.real(example, "graph", example.toString()).err()).isEmpty();
        // a lock-using file that does not parse is left out: graph and keys say so, as scan does
        Files.writeString(out.resolve("Broken.java"), "class Broken { void x( { \"pg_advisory_lock\" }\n");
        for (String command : List.of("graph", "keys")) {
            assertThat(CliHarness.real(out, command, out.toString()).err())
                    .as(command)
                    .contains("Broken.java:1:")
                    .contains("warning: Java file could not be parsed; skipped");
        }
    }

    @Test
    void exampleGraphIsPinnedInBothFormats() throws Exception {
        Path example = FixtureHarness.exampleProject();
        assertThat(run(example, "graph", example.toString())).isEqualTo(resource("invoice-service.dot"));
        assertThat(run(example, "graph", "--format", "mermaid", example.toString()))
                .isEqualTo(resource("invoice-service.mmd"));
    }

    @Test
    void inversionsAreRedAndTryLocksDashed() {
        Path fixture = FixtureHarness.fixture("unordered-multi-key-lock");
        String dot = run(fixture, "graph", fixture.toString());
        assertThat(dot)
                .contains("kB_700_ -> kB_800_ [label=\"FixedKeys#closeBooks\", color=red")
                .contains("kB_200_ -> kB_100_ [label=\"FixedKeys#tryThenSkip\", style=dashed]")
                .contains("kB_100_ -> kB_200_ [label=\"FixedKeys#archive\\nFixedKeys#archiveAgain\"]");
        assertThat(run(fixture, "graph", "-f", "mermaid", fixture.toString())).contains("linkStyle ");
    }

    /**
     * The ring through three classes' lock helpers is red on all three edges, the open chain beside it
     * is not, and the try-lock that would close the chain is dashed.
     */
    @Test
    void aRingThroughThreeClassesIsRedAndTheOpenChainIsNot() {
        Path fixture = FixtureHarness.fixture("unordered-multi-key-lock/projects/helpers");
        String dot = run(fixture, "graph", fixture.toString());
        assertThat(dot)
                .contains("kB_5101_ -> kB_5102_ [label=\"Ledger#closeDay\", color=red")
                .contains("kB_5102_ -> kB_5103_ [label=\"Payouts#sendPayouts\", color=red")
                .contains("kB_5103_ -> kB_5101_ [label=\"Statements#issue\", color=red")
                .contains("kB_5201_ -> kB_5202_ [label=\"Archive#archiveAll\"];")
                .contains("kB_5202_ -> kB_5203_ [label=\"Exports#exportAll\"];")
                .contains("kB_5203_ -> kB_5201_ [label=\"Reports#publishIfIdle\", style=dashed];");
        String mermaid = run(fixture, "graph", "-f", "mermaid", fixture.toString());
        List<String> links = mermaid.lines()
                .filter(l -> l.contains("-->") || l.contains("-.->"))
                .toList();
        List<String> red = new ArrayList<>();
        for (int i = 0; i < links.size(); i++) {
            if (links.get(i).contains(" kB_510")) {
                red.add(Integer.toString(i));
            }
        }
        assertThat(red).hasSize(3);
        assertThat(mermaid).contains("linkStyle " + String.join(",", red) + " stroke:red");
    }

    /**
     * Graphviz renders the DOT. CI installs Graphviz (.ci/run); on a developer machine without
     * {@code dot} the test is skipped with that message, never passed silently.
     */
    @Test
    void graphvizRendersTheExample() throws Exception {
        Path example = FixtureHarness.exampleProject();
        Path dotFile = out.resolve("lock-order.dot");
        Files.writeString(dotFile, run(example, "graph", example.toString()));
        boolean haveDot;
        try {
            haveDot = new ProcessBuilder("dot", "-V")
                    .redirectErrorStream(true)
                    .start()
                    .waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            haveDot = false;
        }
        if (!haveDot) {
            if (System.getenv("CI") != null) {
                Assertions.fail(
                        "Graphviz 'dot' is not installed, but CI must render the graph (.ci/run installs graphviz)");
            }
            Assumptions.abort("Graphviz 'dot' is not installed: install the Debian package graphviz to run this test");
        }
        Process p = new ProcessBuilder(
                        "dot",
                        "-Tsvg",
                        dotFile.toString(),
                        "-o",
                        out.resolve("lock-order.svg").toString())
                .redirectErrorStream(true)
                .start();
        String messages = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(messages).isZero();
        assertThat(Files.readString(out.resolve("lock-order.svg")))
                .contains("<svg")
                .contains("LEDGER_CLOSE");
    }
}
