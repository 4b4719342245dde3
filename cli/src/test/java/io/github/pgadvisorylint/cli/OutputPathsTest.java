package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 10, item 2: a scan writes the report files it is given and nothing else. The example
 * project is copied to a temporary tree made read-only (which stops writes for any user but root, so
 * the test also compares every file's content and modification time before and after).
 */
class OutputPathsTest {

    @TempDir
    Path work;

    /** @return every path below the directory with its content hash and modification time */
    private static Map<String, String> snapshot(Path dir) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                String what = Files.isDirectory(p)
                        ? "dir"
                        : HexFormat.of()
                                .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
                out.put(
                        dir.relativize(p).toString(),
                        what + " " + Files.getLastModifiedTime(p).toMillis());
            }
        }
        return out;
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                if (from.relativize(p).startsWith("target")) {
                    continue; // build output of the example's own Maven build (its README step), not sources
                }
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static void readOnly(Path dir, boolean on) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                Files.setPosixFilePermissions(
                        p,
                        PosixFilePermissions.fromString(
                                Files.isDirectory(p)
                                        ? (on ? "r-xr-xr-x" : "rwxr-xr-x")
                                        : (on ? "r--r--r--" : "rw-r--r--")));
            }
        }
    }

    @Test
    void onlyTheGivenReportFilesAreWritten() throws Exception {
        Path tree = work.resolve("tree");
        Path out = work.resolve("out");
        Files.createDirectories(out);
        copy(FixtureHarness.exampleProject(), tree);
        Files.deleteIfExists(tree.resolve("target"));
        readOnly(tree, true);
        try {
            Map<String, String> treeBefore = snapshot(tree);
            Map<String, String> outBefore = snapshot(out);
            Environment standard = Environment.standard();
            CommandLine cli = Main.commandLine(new Environment(standard.rules(), standard.engine(), out));
            cli.setOut(new PrintWriter(new StringWriter()));
            cli.setErr(new PrintWriter(new StringWriter()));
            int code = cli.execute(
                    "scan",
                    "--format",
                    "sarif",
                    "--output",
                    "r.sarif",
                    "--format",
                    "json",
                    "--output",
                    "sub/r.json",
                    "--format",
                    "text",
                    tree.toString());
            assertThat(code).isEqualTo(1);
            assertThat(snapshot(tree)).isEqualTo(treeBefore);
            Map<String, String> outAfter = snapshot(out);
            outAfter.keySet().removeAll(outBefore.keySet());
            assertThat(outAfter.keySet()).containsExactlyInAnyOrder("r.sarif", "sub", "sub/r.json");
        } finally {
            readOnly(tree, false);
        }
    }
}
