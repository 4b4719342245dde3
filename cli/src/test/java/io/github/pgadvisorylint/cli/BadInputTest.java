package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.core.report.SarifReporter;
import io.github.pgadvisorylint.fixtures.SarifSchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 10, item 1: every kind of bad input, scanned end to end by the real CLI with the real rules.
 * Each gives a located notification in the text output and in SARIF {@code toolExecutionNotifications}
 * (the SARIF is schema-checked), or a clear usage error; the scan finishes; and the exit code follows
 * the documented table: 1 when an intact file still has its finding, 0 when nothing was found, 2 for
 * a usage or input error. Every bad file mentions {@code advisory}, so the prefilter does not skip it.
 */
@Timeout(120)
class BadInputTest {

    /** A finding every "intact" tree has: {@code lock-in-limit-query} on line 3. */
    private static final String GOOD_JAVA = "class Queue {\r\n"
            + "\tObject next(java.sql.Statement st) throws Exception {\r\n"
            + "\t\treturn st.executeQuery(\"SELECT id FROM jobs WHERE pg_try_advisory_lock(id) ORDER BY id LIMIT 1\");\r\n"
            + "\t}\r\n"
            + "}\r\n";

    @TempDir
    Path root;

    @TempDir
    Path reports;

    /** What one scan printed, returned and wrote. */
    record Scan(int code, String out, String err, String sarifText, JsonNode sarif) {

        /** @return {@code kind path:line} of every SARIF tool notification */
        List<String> notifications() {
            List<String> out = new ArrayList<>();
            for (JsonNode n : sarif.at("/runs/0/invocations/0/toolExecutionNotifications")) {
                JsonNode loc = n.at("/locations/0/physicalLocation");
                out.add(n.at("/descriptor/id").asText() + " "
                        + loc.at("/artifactLocation/uri").asText() + ":"
                        + loc.at("/region/startLine").asInt());
            }
            return out;
        }

        /** @return {@code ruleId uri:line:column} of every SARIF result */
        List<String> results() {
            List<String> out = new ArrayList<>();
            for (JsonNode r : sarif.at("/runs/0/results")) {
                JsonNode loc = r.at("/locations/0/physicalLocation");
                out.add(r.at("/ruleId").asText() + " "
                        + loc.at("/artifactLocation/uri").asText() + ":"
                        + loc.at("/region/startLine").asInt() + ":"
                        + loc.at("/region/startColumn").asInt());
            }
            return out;
        }
    }

    private Scan scan(Path cwd, String... paths) throws Exception {
        Environment standard = Environment.standard();
        CommandLine cli = Main.commandLine(new Environment(standard.rules(), standard.engine(), cwd));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        Path report = reports.resolve("report.sarif");
        Files.deleteIfExists(report);
        List<String> args = new ArrayList<>(
                List.of("scan", "--format", "sarif", "--output", report.toString(), "--format", "text"));
        args.addAll(List.of(paths));
        int code = cli.execute(args.toArray(String[]::new));
        String sarif = Files.exists(report) ? Files.readString(report) : null;
        if (sarif != null) {
            SarifSchema.assertValid(sarif);
        }
        return new Scan(
                code, out.toString(), err.toString(), sarif, sarif == null ? null : new ObjectMapper().readTree(sarif));
    }

    private Scan scan() throws Exception {
        return scan(root, ".");
    }

    private void write(String path, String text) throws Exception {
        write(path, text.getBytes(StandardCharsets.UTF_8));
    }

    private void write(String path, byte[] bytes) throws Exception {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }

    /** @return the 1-based column of {@code needle} on the 1-based line of {@code text}, in UTF-16 code units */
    private static int column(String text, int line, String needle) {
        return text.split("\r\n|\n|\r", -1)[line - 1].indexOf(needle) + 1;
    }

    @BeforeEach
    void intactFile() throws Exception {
        write("src/Queue.java", GOOD_JAVA);
    }

    /** The intact file's finding is reported and decides the exit code (1), whatever else is broken. */
    private void intactFindingReported(Scan s) {
        assertThat(s.code()).as(s.err()).isEqualTo(1);
        assertThat(s.results())
                .contains("lock-in-limit-query src/Queue.java:3:" + column(GOOD_JAVA, 3, "pg_try_advisory_lock"));
        assertThat(s.out())
                .contains("src/Queue.java:3:" + column(GOOD_JAVA, 3, "pg_try_advisory_lock")
                        + ": error [lock-in-limit-query]");
    }

    /** A notification is in both outputs, located at the line given. */
    private static void notified(Scan s, String kind, String path, int line, String level) {
        assertThat(s.notifications()).contains(kind + " " + relative(path) + ":" + line);
        assertThat(s.out())
                .containsPattern("(?m)^" + Pattern.quote(path + ":" + line + ":") + "\\d+: " + level + " \\[tool:"
                        + Pattern.quote(kind) + "\\] ");
    }

    private static String relative(String path) {
        return SarifReporter.relativeUri(path);
    }

    @Test
    void crlfAndTabsKeepExactColumns() throws Exception {
        Scan s = scan();
        intactFindingReported(s);
        // the two tabs before "return" count one column each; CRLF ends each line
        assertThat(column(GOOD_JAVA, 3, "pg_try_advisory_lock")).isEqualTo(53);
        assertThat(s.notifications()).isEmpty();
        assertThat(s.sarif().at("/runs/0/columnKind").asText()).isEqualTo("utf16CodeUnits");
    }

    @Test
    void unparsableJavaIsALocatedWarningPerFile() throws Exception {
        write("src/Unterminated.java", "class U {\n  String s = \"select pg_advisory_lock(1);\n}\n");
        write("src/Comment.java", "class C {\n  /* pg_advisory_lock never closed\n  void f() {}\n");
        write(
                "src/HalfTyped.java",
                "class H {\n  void f(java.sql.Statement st) {\n    st.execute(\"select pg_advisory_lock(1)\"\n");
        write("src/Unsupported.java", "class T {\n  String s = STR.\"pg_advisory_lock(\\{key})\";\n  int #x = 1;\n}\n");
        Scan s = scan();
        intactFindingReported(s);
        // lexical errors are located where the lexer gave up: the end of the unterminated string's
        // line, the end of the file for a comment never closed
        notified(s, "java-parse-error", "src/Unterminated.java", 2, "warning");
        assertThat(s.out()).contains("src/Unterminated.java:2:42: warning [tool:java-parse-error]");
        notified(s, "java-parse-error", "src/Comment.java", 4, "warning");
        notified(s, "java-parse-error", "src/HalfTyped.java", 3, "warning");
        notified(s, "java-parse-error", "src/Unsupported.java", 2, "warning");
        assertThat(s.sarif()
                        .at("/runs/0/invocations/0/toolExecutionNotifications/0/level")
                        .asText())
                .isEqualTo("warning");
    }

    @Test
    void sqlJSqlParserRejectsIsAnalysedLexicallyWithANote() throws Exception {
        write(
                "db/V1__odd.sql",
                "-- PostgreSQL-only syntax\nSELECT id FROM jobs WHERE pg_try_advisory_lock(id) AND tags @@@ 'x' ORDER BY id LIMIT 1;\n");
        Scan s = scan();
        assertThat(s.code()).isEqualTo(1);
        assertThat(s.results()).anyMatch(r -> r.startsWith("lock-in-limit-query db/V1__odd.sql:2:"));
        notified(s, "sql-parse-fallback", "db/V1__odd.sql", 2, "note");
    }

    @Test
    void aFiftyMegabyteFileIsSkippedWithAWarning() throws Exception {
        String line = "// pg_advisory_lock padding padding padding padding padding padding padding padding\n";
        byte[] big = line.repeat(50 * 1024 * 1024 / line.length() + 1).getBytes(StandardCharsets.UTF_8);
        write("src/Huge.java", big);
        Scan s = scan();
        intactFindingReported(s);
        notified(s, "file-too-large", "src/Huge.java", 1, "warning");
        assertThat(s.out()).contains("file is " + big.length + " bytes, over the limit of 16777216; skipped");
    }

    @Test
    void aBinaryFileNamedJavaIsSkippedWithAWarning() throws Exception {
        byte[] garbage = new byte[4096];
        new Random(10).nextBytes(garbage);
        write(
                "src/Blob.java",
                concat("pg_advisory_lock".getBytes(StandardCharsets.US_ASCII), new byte[] {0, 0}, garbage));
        Scan s = scan();
        intactFindingReported(s);
        notified(s, "binary-file", "src/Blob.java", 1, "warning");
    }

    @Test
    void invalidUtf8IsReadAsLatin1WithANoteAndKeepsColumns() throws Exception {
        Files.delete(root.resolve("src/Queue.java"));
        // 0xFF is never valid UTF-8; read as ISO-8859-1 it is one character, one column
        String before = GOOD_JAVA.substring(0, GOOD_JAVA.indexOf("pg_try"));
        String after = GOOD_JAVA.substring(GOOD_JAVA.indexOf("pg_try"));
        write(
                "src/Queue.java",
                concat(
                        before.replace("WHERE", "WHERE/*").getBytes(StandardCharsets.US_ASCII),
                        new byte[] {(byte) 0xFF, '*', '/', ' '},
                        after.getBytes(StandardCharsets.US_ASCII)));
        Scan s = scan();
        assertThat(s.code()).isEqualTo(1);
        assertThat(s.results()).contains("lock-in-limit-query src/Queue.java:3:" + (53 + 6));
        notified(s, "encoding", "src/Queue.java", 1, "note");
    }

    @Test
    void latin1SourceIsReadWithANoteAndOneColumnPerCharacter() throws Exception {
        String text = GOOD_JAVA.replace("WHERE", "WHERE /* café */");
        write("src/Queue.java", text.getBytes(StandardCharsets.ISO_8859_1));
        Scan s = scan();
        assertThat(s.results())
                .contains("lock-in-limit-query src/Queue.java:3:" + column(text, 3, "pg_try_advisory_lock"));
        notified(s, "encoding", "src/Queue.java", 1, "note");
    }

    @Test
    void utf16WithByteOrderMarkAndUtf8WithBomAreDecoded() throws Exception {
        String text = GOOD_JAVA.replace("WHERE", "WHERE /* \uD83D\uDE00 ü */");
        int col = column(text, 3, "pg_try_advisory_lock");
        write(
                "src/Queue.java",
                concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, text.getBytes(StandardCharsets.UTF_16LE)));
        write(
                "src/QueueBe.java",
                concat(
                        new byte[] {(byte) 0xFE, (byte) 0xFF},
                        text.replace("Queue", "QueueBe").getBytes(StandardCharsets.UTF_16BE)));
        write(
                "src/QueueBom.java",
                concat(
                        new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                        text.replace("Queue", "QueueBom").getBytes(StandardCharsets.UTF_8)));
        Scan s = scan();
        assertThat(s.code()).isEqualTo(1);
        // the emoji is two UTF-16 code units: SARIF columnKind utf16CodeUnits
        assertThat(s.results())
                .filteredOn(r -> r.startsWith("lock-in-limit-query"))
                .containsExactly(
                        "lock-in-limit-query src/Queue.java:3:" + col,
                        "lock-in-limit-query src/QueueBe.java:3:" + col,
                        "lock-in-limit-query src/QueueBom.java:3:" + col);
        assertThat(s.notifications()).isEmpty();
    }

    @Test
    void tenThousandDeepConcatenationAndParenthesesFinish() throws Exception {
        String terms = String.join(" + ", Collections.nCopies(10_000, "\"a\""));
        write(
                "src/Concat.java",
                "class Concat { Object f(java.sql.Statement st) throws Exception {\n"
                        + " return st.executeQuery(\"SELECT id FROM t WHERE pg_try_advisory_lock(id) LIMIT 1 \" + "
                        + terms + "); } }\n");
        write(
                "src/Parens.java",
                "class Parens { String k = \"pg_advisory_lock\"; long v = " + "(".repeat(10_000) + "1"
                        + ")".repeat(10_000) + "; }\n");
        write("db/parens.sql", "SELECT pg_advisory_lock(" + "(".repeat(10_000) + "1" + ")".repeat(10_000) + ");\n");
        Scan s = scan();
        intactFindingReported(s);
        assertThat(s.results()).anyMatch(r -> r.startsWith("lock-in-limit-query src/Concat.java:2:"));
        assertThat(s.err()).doesNotContain("internal error").doesNotContain("StackOverflowError");
        assertThat(s.out()).doesNotContain("StackOverflowError");
        // the deep Java is parsed on a large stack or reported as too deep; never an internal error
        assertThat(s.notifications()).noneMatch(n -> n.startsWith("internal-error"));
        notified(s, "sql-parse-fallback", "db/parens.sql", 1, "note");
    }

    @Test
    void hundredThousandTokenSqlFinishesQuickly() throws Exception {
        write(
                "db/wide.sql",
                "SELECT pg_advisory_xact_lock(1), " + "a + 1, ".repeat(25_000) + "1 FROM t;\n"
                        + "SELECT 1;\n".repeat(10_000)
                        + "SELECT pg_try_advisory_lock(id) FROM jobs ORDER BY id LIMIT 1;\n");
        long start = System.nanoTime();
        Scan s = scan();
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(60_000);
        assertThat(s.code()).isEqualTo(1);
        assertThat(s.results()).anyMatch(r -> r.startsWith("lock-in-limit-query db/wide.sql:10002:"));
        notified(s, "sql-parse-fallback", "db/wide.sql", 1, "note");
    }

    @Test
    void unreadableFileAndFolderAreWarningsWhenNotRoot() throws Exception {
        assumeFalse(
                "root".equals(System.getProperty("user.name")),
                "running as root: permissions do not stop root from reading; RobustnessTest"
                        + ".aFileThatVanishesBetweenDiscoveryAndReadingIsAWarning simulates an unreadable file");
        write("src/Secret.java", "class Secret { String s = \"pg_advisory_lock(1)\"; }\n");
        write("locked/Inner.java", "class Inner {}\n");
        Files.setPosixFilePermissions(root.resolve("src/Secret.java"), PosixFilePermissions.fromString("---------"));
        Files.setPosixFilePermissions(root.resolve("locked"), PosixFilePermissions.fromString("---------"));
        try {
            Scan s = scan();
            intactFindingReported(s);
            notified(s, "unreadable-file", "src/Secret.java", 1, "warning");
            notified(s, "unreadable-path", "locked", 1, "warning");
        } finally {
            Files.setPosixFilePermissions(
                    root.resolve("src/Secret.java"), PosixFilePermissions.fromString("rw-------"));
            Files.setPosixFilePermissions(root.resolve("locked"), PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void symlinkLoopsAndLinksLeavingTheRootAreNotFollowed(@TempDir Path outside) throws Exception {
        Files.writeString(outside.resolve("Outside.java"), GOOD_JAVA.replace("Queue", "Outside"));
        Files.createSymbolicLink(root.resolve("src/loop"), root.resolve("src"));
        Files.createSymbolicLink(root.resolve("src/self"), root.resolve("src/self"));
        Files.createSymbolicLink(root.resolve("elsewhere"), outside);
        Files.createSymbolicLink(root.resolve("src/Outside.java"), outside.resolve("Outside.java"));
        Scan s = scan();
        intactFindingReported(s);
        assertThat(s.results()).noneMatch(r -> r.contains("Outside"));
        notified(s, "symlink-loop", "src/loop", 1, "warning");
        notified(s, "link-outside-root", "elsewhere", 1, "note");
        notified(s, "link-outside-root", "src/Outside.java", 1, "note");
    }

    @Test
    void pathsWithSpacesAndNonAsciiNames() throws Exception {
        write("my src/Zürich jobs/Qüeue 1.java", GOOD_JAVA.replace("Queue", "Q"));
        Scan s = scan(root, "my src");
        assertThat(s.code()).isEqualTo(1);
        // one directory given: it is the scan root
        assertThat(s.out()).contains("Zürich jobs/Qüeue 1.java:3:53: error [lock-in-limit-query]");
        assertThat(s.results()).contains("lock-in-limit-query Z%C3%BCrich%20jobs/Q%C3%BCeue%201.java:3:53");
        Scan named = scan(root, "my src/Zürich jobs/Qüeue 1.java");
        assertThat(named.out()).contains("my src/Zürich jobs/Qüeue 1.java:3:53: error");
    }

    @Test
    void anEmptyRepositoryIsACleanScan(@TempDir Path empty) throws Exception {
        Scan s = scan(empty, ".");
        assertThat(s.code()).isZero();
        assertThat(s.out()).contains("0 errors, 0 warnings, 0 notes in 0 files");
        assertThat(s.results()).isEmpty();
        assertThat(s.notifications()).isEmpty();
    }

    @Test
    void aPathThatDoesNotExistIsAUsageError() throws Exception {
        Scan s = scan(root, "no/such/dir");
        assertThat(s.code()).isEqualTo(2);
        assertThat(s.err()).contains("no such file or directory: no/such/dir");
        assertThat(s.sarifText()).isNull();
    }

    @Test
    void onlyBrokenFilesMeansExitZeroWithNotifications() throws Exception {
        Files.delete(root.resolve("src/Queue.java"));
        write("src/Broken.java", "class Broken { String s = \"pg_advisory_lock(1)");
        Scan s = scan();
        assertThat(s.code()).isZero();
        notified(s, "java-parse-error", "src/Broken.java", 1, "warning");
        assertThat(s.out()).contains("1 tool notification");
        assertThat(s.sarif().at("/runs/0/invocations/0/executionSuccessful").asBoolean())
                .isTrue();
    }
}
