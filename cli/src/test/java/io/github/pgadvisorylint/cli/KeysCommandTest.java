package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.tool.ToolInfo;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code keys} with the real analyzer: the bundled example's inventory is pinned in text and JSON. */
class KeysCommandTest {

    @TempDir
    Path out;

    private static CliHarness.Run run(Path cwd, String... args) {
        return CliHarness.real(cwd, args);
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = KeysCommandTest.class.getResourceAsStream("/keys/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void exampleInventoryAsText() throws Exception {
        // the example lies in this repository: the path base keeps its paths as in the expected file
        Path example = FixtureHarness.exampleProject();
        CliHarness.Run r = run(example, "keys", example.toString(), "--path-base", example.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).isEqualTo(resource("invoice-service.txt"));
    }

    @Test
    void exampleInventoryAsJson() throws Exception {
        Path example = FixtureHarness.exampleProject();
        CliHarness.Run r =
                run(example, "keys", "--format", "json", example.toString(), "--path-base", example.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().replace("\"version\": \"" + ToolInfo.version() + "\"", "\"version\": \"VERSION\""))
                .isEqualTo(resource("invoice-service.json"));
    }

    @Test
    void csvAndMarkdownListEverySiteAndOutputGoesToAFile() throws Exception {
        Path example = FixtureHarness.exampleProject();
        Path csv = out.resolve("keys.csv");
        CliHarness.Run r = run(example, "keys", example.toString(), "--format", "csv", "--output", csv.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEmpty();
        String text = Files.readString(csv);
        assertThat(text)
                .startsWith("key_space,key,known,classid,objid,objsubid,origin,")
                .endsWith("\r\n");
        assertThat(text.split("\r\n")).hasSize(1 + 19); // header + one row per site
        assertThat(text).contains("\"namespace, id\"");

        CliHarness.Run md = run(example, "keys", "-f", "markdown", example.toString());
        assertThat(md.out().lines().filter(l -> l.startsWith("| ")).count())
                .isEqualTo(1 + 11); // header + one row per key
    }

    @Test
    void twoRunsAreByteIdentical() {
        Path example = FixtureHarness.exampleProject();
        assertThat(run(example, "keys", "-f", "json", example.toString()).out())
                .isEqualTo(run(example, "keys", "-f", "json", "--threads", "1", example.toString())
                        .out());
    }

    @Test
    void usageAndInputErrorsExitWith2() {
        assertThat(run(out, "keys", "no-such-dir").exitCode()).isEqualTo(Main.EXIT_USAGE);
        CliHarness.Run bad = run(out, "keys", "--format", "sarif");
        assertThat(bad.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(bad.err()).contains("not one of text, json, csv, markdown");
        assertThat(run(out, "keys", "--output", out.toString()).exitCode()).isEqualTo(Main.EXIT_USAGE);
    }

    @Test
    void anEmptyTreeHasNoKeys() {
        CliHarness.Run r = run(out, "keys");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).isEqualTo("0 keys (0 known statically) at 0 sites\n");
    }
}
