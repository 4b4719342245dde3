package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.discovery.FileDiscovery;
import io.github.pgadvisorylint.core.report.SarifReporter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19: file names, directories, links and settings that a hostile repository controls, scanned
 * through the real CLI with the real rules. None may hide a finding, stop the walk, leak the
 * machine's paths, drive the terminal or a spreadsheet, or make the scan write outside the output
 * directory the user chose.
 */
@Timeout(180)
class HostilePathsTest {

    /** A session lock whose unlock an exception skips: {@code lock-without-finally-unlock} on line 3. */
    private static final String UNSAFE_JAVA = "class Job {\n"
            + "  void run(java.sql.Statement st) throws Exception {\n"
            + "    st.execute(\"SELECT pg_advisory_lock(7)\");\n"
            + "    work();\n"
            + "    st.execute(\"SELECT pg_advisory_unlock(7)\");\n"
            + "  }\n"
            + "  void work() {}\n"
            + "}\n";

    @TempDir
    Path root;

    @TempDir
    Path elsewhere;

    private void write(String path, String text) throws Exception {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private CliHarness.Run run(String... args) {
        return CliHarness.real(root, args);
    }

    private static JsonNode json(Path file) throws Exception {
        return new ObjectMapper().readTree(Files.readString(file));
    }

    @Test
    void anEmptyFileWithABackslashInItsNameDoesNotHideTheFileItsNameMimics() throws Exception {
        write("src/back/slash.java", UNSAFE_JAVA);
        // on Linux "back\slash.java" is one name in src/, not src/back/slash.java: it must not replace it
        write("src/back\\slash.java", "");
        Path sarif = elsewhere.resolve("out.sarif");
        CliHarness.Run r = run(
                "scan", ".", "--format", "text", "--format", "sarif", "--output", "-", "--output", sarif.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out())
                .contains("src/back/slash.java:3:")
                .contains("[lock-without-finally-unlock]")
                .contains("in 2 files");
        List<String> uris = new ArrayList<>();
        json(sarif)
                .at("/runs/0/results")
                .forEach(n -> uris.add(n.at("/locations/0/physicalLocation/artifactLocation/uri")
                        .asText()));
        // the backslash is part of a name, so it is percent-encoded, never turned into a separator
        assertThat(uris).contains("src/back/slash.java");
        assertThat(SarifReporter.relativeUri("src/back\\slash.java")).isEqualTo("src/back%5Cslash.java");
    }

    @Test
    void oneDirectoryThatCannotBeListedIsReportedAndTheWalkGoesOn() throws Exception {
        write("a-first/Hidden.java", UNSAFE_JAVA.replace("Job", "Hidden"));
        write("z-after/Job.java", UNSAFE_JAVA);
        // tests run as root, which permission bits do not stop: the discovery's seam makes listing
        // a-first fail mid-iteration, as a /proc mount does (checked by hand with mount -t proc)
        Path sarif = elsewhere.resolve("out.sarif");
        CliHarness.Run r;
        try (AutoCloseable unreadable = FileDiscovery.simulateUnreadableDirectory(root.resolve("a-first"))) {
            r = run(
                    "scan",
                    ".",
                    "--format",
                    "text",
                    "--format",
                    "sarif",
                    "--output",
                    "-",
                    "--output",
                    sarif.toString());
        }
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out())
                .contains("z-after/Job.java:3:")
                .doesNotContain("Hidden.java:")
                .containsPattern("(?m)^a-first:1:1: warning \\[tool:unreadable-path\\] cannot list this directory");
        JsonNode note = json(sarif).at("/runs/0/invocations/0/toolExecutionNotifications/0");
        assertThat(note.at("/descriptor/id").asText()).isEqualTo("unreadable-path");
        assertThat(note.at("/locations/0/physicalLocation/artifactLocation/uri").asText())
                .isEqualTo("a-first");
    }

    @Test
    void aNonAsciiFileNameUnderTheCLocaleIsAnalysedLikeAnyOther() throws Exception {
        write("src/Jöb.java", UNSAFE_JAVA);
        write("src/Plain.java", UNSAFE_JAVA.replace("Job", "Plain").replace("(7)", "(8)"));
        // the locale is read once when a JVM starts: run the CLI in a JVM of its own under LC_ALL=C
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "scan",
                        ".",
                        "--format",
                        "json",
                        "--color",
                        "never")
                .directory(root.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG"));
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        JsonNode report = new ObjectMapper().readTree(new String(out, StandardCharsets.UTF_8));
        assertThat(p.exitValue()).as(report.toString()).isEqualTo(1);
        List<String> located = new ArrayList<>();
        report.at("/findings")
                .forEach(f -> located.add(
                        f.at("/ruleId").asText() + " " + f.at("/path").asText()));
        // the name is decoded from its UTF-8 bytes whatever the locale, and no rule fails at .:1:1
        assertThat(located)
                .contains("lock-without-finally-unlock src/Jöb.java", "lock-without-finally-unlock src/Plain.java");
        assertThat(report.toString())
                .doesNotContain("rule-failure")
                .doesNotContain("\\uFFFD")
                .doesNotContain("\uFFFD");
    }

    @Test
    void aCommittedLinkAsTheOutputIsReplacedNotWrittenThrough() throws Exception {
        write("src/Job.java", UNSAFE_JAVA);
        Path victim = elsewhere.resolve("victim.txt");
        Files.writeString(victim, "precious\n");
        Files.createDirectories(root.resolve("reports"));
        Files.createSymbolicLink(root.resolve("reports/out.sarif"), victim);
        Files.createSymbolicLink(root.resolve("reports/dangling.json"), elsewhere.resolve("created-outside.json"));
        CliHarness.Run r = run(
                "scan",
                ".",
                "--format",
                "sarif",
                "--output",
                "reports/out.sarif",
                "--format",
                "json",
                "--output",
                "reports/dangling.json");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(Files.readString(victim)).isEqualTo("precious\n");
        assertThat(elsewhere.resolve("created-outside.json")).doesNotExist();
        assertThat(root.resolve("reports/out.sarif")).isRegularFile().content().contains("lock-without-finally-unlock");
        assertThat(Files.isSymbolicLink(root.resolve("reports/out.sarif"))).isFalse();
        assertThat(r.err()).contains("reports/out.sarif was a symbolic link leading out of its directory");

        // a link to a file in the same directory is kept: the file it names is replaced atomically
        Files.writeString(root.resolve("reports/real.txt"), "old\n");
        Files.createSymbolicLink(root.resolve("reports/latest.txt"), Path.of("real.txt"));
        r = run("scan", ".", "--format", "text", "--output", "reports/latest.txt");
        assertThat(r.err()).doesNotContain("symbolic link");
        assertThat(Files.isSymbolicLink(root.resolve("reports/latest.txt"))).isTrue();
        assertThat(Files.readString(root.resolve("reports/real.txt"))).contains("[lock-without-finally-unlock]");
    }

    @Test
    void sarifNotificationsNeverHoldTheMachinesAbsolutePaths() throws Exception {
        write("src/Job.java", UNSAFE_JAVA);
        write("src/Broken.java", "class Broken { String s = \"pg_advisory_lock(1)");
        write("src/inner/Other.java", UNSAFE_JAVA);
        Files.createSymbolicLink(root.resolve("src/away"), elsewhere);
        Path sarif = elsewhere.resolve("out.sarif");
        try (AutoCloseable unreadable = FileDiscovery.simulateUnreadableDirectory(root.resolve("src/inner"))) {
            run("scan", ".", "--format", "sarif", "--output", sarif.toString());
        }
        String text = Files.readString(sarif);
        JsonNode notes = json(sarif).at("/runs/0/invocations/0/toolExecutionNotifications");
        assertThat(notes.size()).isGreaterThanOrEqualTo(3);
        for (JsonNode n : notes) {
            assertThat(n.at("/locations/0/physicalLocation/artifactLocation/uriBaseId")
                            .asText())
                    .isEqualTo("%SRCROOT%");
            assertThat(n.at("/locations/0/physicalLocation/artifactLocation/uri")
                            .asText())
                    .doesNotStartWith("/");
        }
        assertThat(text)
                .doesNotContain(root.toString())
                .doesNotContain(root.toRealPath().toString());
    }

    @Test
    void controlCharactersInFileNamesAreShownEscapedNeverSentToTheTerminal() throws Exception {
        String name = "src/Evil\u001b]0;owned\u0007\u001b[2J\nfake.java:1:1: error [made-up] forged.java";
        write(name, UNSAFE_JAVA.replace("Job", "Evil"));
        CliHarness.Run r = run("scan", ".", "--color", "always");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out())
                .contains("src/Evil\\u001B]0;owned\\u0007\\u001B[2J\\nfake.java:1:1: error [made-up] forged.java:3:");
        // the only escapes left are the tool's own colours (ESC [ digits m); no line starts with the forged text
        assertThat(r.out().replaceAll("\u001b\\[[0-9;]*m", ""))
                .doesNotContain("\u001b")
                .doesNotContain("\u0007");
        assertThat(r.out()).doesNotContainPattern("(?m)^fake\\.java");
        CliHarness.Run missing = run("scan", "no\u001b[31mdir");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("no\\u001B[31mdir").doesNotContain("\u001b");
    }

    @Test
    void csvCellsThatASpreadsheetWouldRunAsFormulasAreDefused() throws Exception {
        write(
                "=HYPERLINK(1)/Job.java",
                "class Job { void f(java.sql.Statement s) throws Exception {"
                        + " s.execute(\"SELECT pg_advisory_xact_lock(-42)\"); } }\n");
        write("+sum/@cmd.sql", "SELECT pg_advisory_xact_lock(5);\n");
        Path csv = elsewhere.resolve("keys.csv");
        CliHarness.Run r = run("keys", ".", "--format", "csv", "--output", csv.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String text = Files.readString(csv);
        assertThat(text).contains(",\"'=HYPERLINK(1)/Job.java\",").contains(",\"'+sum/@cmd.sql\",");
        // a negative key is a number, not a formula: it stays as it is
        assertThat(text).contains("bigint,-42,true,");
        for (String line : text.split("\r\n", -1)) {
            for (String cell : line.split(",", -1)) {
                assertThat(cell).doesNotStartWith("=").doesNotStartWith("+").doesNotStartWith("@");
            }
        }
    }

    @Test
    void aConfigurationAboveTheScanRootOutsideARepositoryIsIgnoredAndTheOneUsedIsNamed() throws Exception {
        Path project = Files.createDirectories(root.resolve("project/src"));
        Files.writeString(project.resolve("Job.java"), UNSAFE_JAVA);
        // a file in a parent folder, no repository anywhere: it must not switch the rule off unseen
        Files.writeString(
                root.resolve(".pg-advisory-lint.yml"),
                "rules:\n  lock-without-finally-unlock: off\n  unlock-result-ignored: on\n");
        CliHarness.Run r = run("scan", "project");
        assertThat(r.out()).contains("[lock-without-finally-unlock]").doesNotContain("Configuration:");

        // once the parent is the repository root, the file applies and every output names it, relative to
        // the repository root: the path base (issue 17), as the findings' paths are
        Files.createDirectories(root.resolve(".git"));
        Path sarif = elsewhere.resolve("out.sarif");
        r = run(
                "scan",
                "project",
                "--format",
                "text",
                "--format",
                "sarif",
                "--output",
                "-",
                "--output",
                sarif.toString());
        assertThat(r.out())
                .doesNotContain("[lock-without-finally-unlock]")
                .contains("project/src/Job.java:5:24:")
                .contains("Configuration: .pg-advisory-lint.yml");
        assertThat(json(sarif)
                        .at("/runs/0/invocations/0/properties/configurationFile")
                        .asText())
                .isEqualTo(".pg-advisory-lint.yml");
    }

    @Test
    void aThreadCountBeyondTheMachineIsCappedWithANote() throws Exception {
        write("src/Job.java", UNSAFE_JAVA);
        long start = System.nanoTime();
        CliHarness.Run r = run("scan", ".", "--threads", "150000");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err())
                .contains("--threads 150000 is more than this machine can use; using " + Analyzer.maxThreads()
                        + " (4 per processor)");
        assertThat(r.out()).contains("[lock-without-finally-unlock]");
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(60);

        CliHarness harness = new CliHarness(root, CliHarness.rules(), CliHarness.result());
        harness.run("scan", ".", "--threads", "150000");
        assertThat(harness.calls)
                .singleElement()
                .extracting(CliHarness.Call::threads)
                .isEqualTo(Analyzer.maxThreads());
    }
}
