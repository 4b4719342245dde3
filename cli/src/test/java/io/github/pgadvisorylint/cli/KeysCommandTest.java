package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.report.ToolInfo;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code keys} with the real analyzer: the bundled example's inventory is pinned in text and JSON. */
class KeysCommandTest {

    @TempDir
    Path out;

    private record Run(int code, String stdout, String stderr) {
    }

    private static Run run(Path cwd, String... args) {
        Environment standard = Environment.standard();
        CommandLine cli = Main.commandLine(new Environment(standard.rules(), standard.engine(), cwd));
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        cli.setOut(new PrintWriter(o));
        cli.setErr(new PrintWriter(e));
        int code = cli.execute(args);
        return new Run(code, o.toString(), e.toString());
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = KeysCommandTest.class.getResourceAsStream("/keys/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void exampleInventoryAsText() throws Exception {
        Path example = FixtureHarness.exampleProject();
        Run r = run(example, "keys", example.toString());
        assertThat(r.code).as(r.stderr).isZero();
        assertThat(r.stderr).isEmpty();
        assertThat(r.stdout).isEqualTo(resource("invoice-service.txt"));
    }

    @Test
    void exampleInventoryAsJson() throws Exception {
        Path example = FixtureHarness.exampleProject();
        Run r = run(example, "keys", "--format", "json", example.toString());
        assertThat(r.code).as(r.stderr).isZero();
        assertThat(r.stdout.replace("\"version\": \"" + ToolInfo.version() + "\"", "\"version\": \"VERSION\""))
                .isEqualTo(resource("invoice-service.json"));
    }

    @Test
    void csvAndMarkdownListEverySiteAndOutputGoesToAFile() throws Exception {
        Path example = FixtureHarness.exampleProject();
        Path csv = out.resolve("keys.csv");
        Run r = run(example, "keys", example.toString(), "--format", "csv", "--output", csv.toString());
        assertThat(r.code).as(r.stderr).isZero();
        assertThat(r.stdout).isEmpty();
        String text = Files.readString(csv);
        assertThat(text).startsWith("key_space,key,known,classid,objid,objsubid,origin,").endsWith("\r\n");
        assertThat(text.split("\r\n")).hasSize(1 + 19); // header + one row per site
        assertThat(text).contains("\"namespace, id\"");

        Run md = run(example, "keys", "-f", "markdown", example.toString());
        assertThat(md.stdout.lines().filter(l -> l.startsWith("| ")).count()).isEqualTo(1 + 11); // header + one row per key
    }

    @Test
    void twoRunsAreByteIdentical() {
        Path example = FixtureHarness.exampleProject();
        assertThat(run(example, "keys", "-f", "json", example.toString()).stdout)
                .isEqualTo(run(example, "keys", "-f", "json", "--threads", "1", example.toString()).stdout);
    }

    @Test
    void usageAndInputErrorsExitWith2() {
        assertThat(run(out, "keys", "no-such-dir").code).isEqualTo(Main.EXIT_USAGE);
        Run bad = run(out, "keys", "--format", "sarif");
        assertThat(bad.code).isEqualTo(Main.EXIT_USAGE);
        assertThat(bad.stderr).contains("not one of text, json, csv, markdown");
        assertThat(run(out, "keys", "--output", out.toString()).code).isEqualTo(Main.EXIT_USAGE);
    }

    @Test
    void anEmptyTreeHasNoKeys() {
        Run r = run(out, "keys");
        assertThat(r.code).isZero();
        assertThat(r.stdout).isEqualTo("0 keys (0 known statically) at 0 sites\n");
    }
}
