package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.fixtures.SarifSchema;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 19, second hostile-input round: each case scanned end to end by the real CLI with the real
 * rules. The {@link Timeout} is a guard against the hangs these cases caused, not a benchmark.
 */
@Timeout(180)
class HostileInputRoundTwoTest {

    /** A file with one finding, so every scan shows the rest of the tree is still analysed. */
    private static final String QUEUE = "class Queue {\n"
            + "  Object next(java.sql.Statement st) throws Exception {\n"
            + "    return st.executeQuery(\"SELECT id FROM jobs WHERE pg_try_advisory_lock(id) ORDER BY id LIMIT 1\");\n"
            + "  }\n"
            + "}\n";

    @TempDir
    Path root;

    @TempDir
    Path reports;

    /** What one scan printed, returned and wrote. */
    record Scan(int code, String out, String err, JsonNode sarif) {

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

        /** @return {@code kind uri:line:column} of every SARIF tool notification */
        List<String> notifications() {
            List<String> out = new ArrayList<>();
            for (JsonNode n : sarif.at("/runs/0/invocations/0/toolExecutionNotifications")) {
                JsonNode loc = n.at("/locations/0/physicalLocation");
                out.add(n.at("/descriptor/id").asText() + " "
                        + loc.at("/artifactLocation/uri").asText() + ":"
                        + loc.at("/region/startLine").asInt() + ":"
                        + loc.at("/region/startColumn").asInt());
            }
            return out;
        }

        /** @return the SARIF results of one rule */
        List<JsonNode> resultsOf(String ruleId) {
            List<JsonNode> out = new ArrayList<>();
            sarif.at("/runs/0/results").forEach(r -> {
                if (r.at("/ruleId").asText().equals(ruleId)) {
                    out.add(r);
                }
            });
            return out;
        }
    }

    private Scan scan(Environment env, String... extra) throws Exception {
        CommandLine cli = Main.commandLine(env);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        Path report = reports.resolve("report.sarif");
        Files.deleteIfExists(report);
        List<String> args = new ArrayList<>(
                List.of("scan", "--format", "sarif", "--output", report.toString(), "--format", "text"));
        args.addAll(List.of(extra));
        args.add(".");
        int code = cli.execute(args.toArray(String[]::new));
        JsonNode sarif = null;
        if (Files.exists(report)) {
            String text = Files.readString(report);
            SarifSchema.assertValid(text);
            sarif = new ObjectMapper().readTree(text);
        }
        return new Scan(code, out.toString(), err.toString(), sarif);
    }

    private Scan scan(String... extra) throws Exception {
        Environment standard = Environment.standard();
        return scan(new Environment(standard.rules(), standard.engine(), root), extra);
    }

    private void write(String path, String text) throws Exception {
        write(path, text.getBytes(StandardCharsets.UTF_8));
    }

    private void write(String path, byte[] bytes) throws Exception {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
    }

    /** @return the 1-based column of {@code needle} on the 1-based line of {@code text} */
    private static int column(String text, int line, String needle) {
        return text.split("\n", -1)[line - 1].indexOf(needle) + 1;
    }

    @BeforeEach
    void intactFile() throws Exception {
        write("src/Queue.java", QUEUE);
    }

    private static void queueReported(Scan s) {
        assertThat(s.results())
                .contains("lock-in-limit-query src/Queue.java:3:" + column(QUEUE, 3, "pg_try_advisory_lock"));
    }

    // case 1 --------------------------------------------------------------------------------------

    @Test
    void manyStarGlobsMatchInLinearTime() throws Exception {
        write("src/gen/deep/er/Generated.java", QUEUE.replace("Queue", "Generated"));
        // fifteen stars ran the JDK's backtracking glob for minutes on every path; the stars collapse
        // to one "**", which still matches every path ending in x (none here), and src/gen/ is excluded
        write(
                ".pg-advisory-lint.yml",
                "excludes:\n  - \"***************x\"\n  - \"*****************************y\"\n" + "  - \"src/gen/\"\n");
        write(".git/HEAD", "ref: refs/heads/main\n");
        long started = System.nanoTime();
        Scan s = scan();
        assertThat(s.code()).as(s.err()).isEqualTo(1);
        queueReported(s);
        assertThat(s.results()).noneMatch(r -> r.contains("Generated"));
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("a hang guard, not a benchmark")
                .isLessThan(Duration.ofSeconds(60));
    }

    @Test
    void starsStillMatchWhatTheyMatchedBefore() throws Exception {
        write("src/gen/Generated.java", QUEUE.replace("Queue", "Generated"));
        write("src/genx/Other.java", QUEUE.replace("Queue", "Other"));
        // "src/*/Gen*.java" matches within one folder; "**/Oth?r.jav[a-c]" any depth, one char, a class
        write(".pg-advisory-lint.yml", "excludes:\n  - \"src/*/Gen*.java\"\n  - \"**/Oth?r.jav[a-c]\"\n");
        write(".git/HEAD", "ref: refs/heads/main\n");
        Scan s = scan();
        queueReported(s);
        assertThat(s.results()).noneMatch(r -> r.contains("Generated") || r.contains("Other"));
    }

    // case 2 --------------------------------------------------------------------------------------

    private static String keysThenReverse(int keys) {
        StringBuilder b = new StringBuilder("class Keys {\n  void both(java.sql.Statement st) throws Exception {\n");
        for (int k = 0; k < keys; k++) {
            b.append("    st.execute(\"SELECT pg_advisory_xact_lock(").append(k).append(")\");\n");
        }
        for (int k = keys - 1; k >= 0; k--) {
            b.append("    st.execute(\"SELECT pg_advisory_xact_lock(").append(k).append(")\");\n");
        }
        return b.append("  }\n}\n").toString();
    }

    @Test
    void oneHundredTwentyKeysThenTheSameInReverseFinishAndReportOneBoundedInversion() throws Exception {
        String java = keysThenReverse(120);
        write("src/Keys.java", java);
        Scan s = scan();
        queueReported(s);
        // the second run over the keys takes 119 while 0..118 are held: one component, closed at line 124
        // (key 118 taken while 119 is held: the first acquisition whose edge closes a cycle)
        List<JsonNode> inversions = s.resultsOf("unordered-multi-key-lock").stream()
                .filter(r -> r.at("/level").asText().equals("error"))
                .toList();
        assertThat(inversions).hasSize(1);
        assertThat(inversions
                        .get(0)
                        .at("/locations/0/physicalLocation/region/startLine")
                        .asInt())
                .isEqualTo(124);
        assertThat(inversions.get(0).at("/relatedLocations").size()).isBetween(1, 20);
        assertThat(inversions.get(0).at("/message/text").asText()).contains("more, see `pg-advisory-lint graph`");
        assertThat(s.notifications()).noneMatch(n -> n.startsWith("rule-time-budget"));
    }

    /** Spins until interrupted (or 30 s pass): stands for a rule that never ends on some model. */
    static final class SpinningRule implements Rule {
        @Override
        public RuleDescriptor descriptor() {
            return new RuleDescriptor(
                    "spinning-rule",
                    "SpinningRule",
                    Severity.WARNING,
                    "A rule that never ends in time.",
                    "Used to check the rules phase's time budget.",
                    "# spinning-rule\n\nNever ends in time.\n",
                    List.of("test"));
        }

        @Override
        public void check(RuleContext context) {
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!Thread.currentThread().isInterrupted() && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            context.model().sites().forEach(site -> context.report(Severity.WARNING, site, "too late", List.of()));
        }
    }

    @Test
    void aRuleOverTheTimeLimitStopsTheRunWithoutAReport() throws Exception {
        Environment standard = Environment.standard();
        List<Rule> rules = new ArrayList<>(standard.rules().get());
        rules.add(new SpinningRule());
        Environment env = new Environment(
                () -> rules,
                new Environment.Engine() {
                    @Override
                    public AnalysisResult analyze(Path r, List<Path> targets, int threads, List<Rule> rs) {
                        return analyze(r, targets, threads, rs, b -> {});
                    }

                    @Override
                    public AnalysisResult analyze(
                            Path r,
                            List<Path> targets,
                            int threads,
                            List<Rule> rs,
                            Consumer<Analyzer.Builder> configure) {
                        Analyzer.Builder b = Analyzer.builder().rules(rs).threads(threads);
                        configure.accept(b);
                        return b.timeLimit(Duration.ofSeconds(3)).build().analyze(r, targets);
                    }
                },
                root);
        Scan s = scan(env);
        // a run whose report would depend on the machine's speed reports nothing: exit 3, one clear line
        assertThat(s.code()).as(s.err()).isEqualTo(3);
        assertThat(s.err())
                .contains("the analysis of rule spinning-rule took longer than the time limit of 3 s")
                .doesNotContain("internal error");
        assertThat(s.out()).isEmpty();
    }

    // case 3 --------------------------------------------------------------------------------------

    @Test
    void aKeySharedByThirtyFilesListsTenRelatedLocationsPerFindingAndKeysListsThemAll() throws Exception {
        for (int i = 0; i < 30; i++) {
            write(String.format("db/V%02d__job.sql", i), "SELECT pg_advisory_xact_lock(42);\n");
        }
        Scan s = scan();
        List<JsonNode> dup = s.resultsOf("duplicate-lock-key");
        assertThat(dup).hasSize(30);
        for (JsonNode r : dup) {
            assertThat(r.at("/relatedLocations").size()).isEqualTo(10);
            assertThat(r.at("/message/text").asText())
                    .contains("29 other acquisitions")
                    .contains("The 10 nearest in path order are listed as related locations, and 19 more, see"
                            + " `pg-advisory-lint keys`.");
        }
        // the first file's nearest are the next ten in path order
        JsonNode first = dup.stream()
                .filter(r -> r.at("/locations/0/physicalLocation/artifactLocation/uri")
                        .asText()
                        .equals("db/V00__job.sql"))
                .findFirst()
                .orElseThrow();
        assertThat(first.at("/relatedLocations/9/physicalLocation/artifactLocation/uri")
                        .asText())
                .isEqualTo("db/V10__job.sql");
        CliHarness.Run keys = CliHarness.real(root, "keys", "--format", "csv", ".");
        assertThat(keys.exitCode()).as(keys.err()).isZero();
        assertThat(keys.out().split("\r\n"))
                .filteredOn(l -> l.contains("__job.sql"))
                .hasSize(30);
    }

    // case 4 --------------------------------------------------------------------------------------

    private static String nested(int depth) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            b.append("  ".repeat(i)).append("k").append(i).append(":\n");
        }
        return b.append("  ".repeat(depth)).append("v: 1\n").toString();
    }

    @Test
    void aLintConfigurationNestedFiveThousandDeepIsAUsageErrorNamingFileAndLine() throws Exception {
        write(".pg-advisory-lint.yml", "rules:\n" + "  [".repeat(1) + "[".repeat(5000) + "]".repeat(5001) + "\n");
        write(".git/HEAD", "ref: refs/heads/main\n");
        Scan s = scan();
        assertThat(s.code()).isEqualTo(Main.EXIT_USAGE);
        assertThat(s.err())
                .contains(".pg-advisory-lint.yml:2:")
                .contains("collections nested more than 100 levels deep")
                .doesNotContain("StackOverflowError");
    }

    @Test
    void applicationYamlNestedThousandsDeepIsALocatedWarningAndTheScanGoesOn() throws Exception {
        write("src/main/resources/application.yml", "# jdbc:postgresql through pgbouncer\n" + nested(1000));
        write(
                "src/main/resources/flow.yml",
                "url: jdbc:postgresql://db:6432/app\na: " + "[".repeat(5000) + "]".repeat(5000) + "\n");
        Scan s = scan();
        assertThat(s.code()).as(s.err()).isEqualTo(1);
        queueReported(s);
        // the 101st level: line 102 of the block file (after the comment), the 101st "[" of the flow file
        assertThat(s.notifications())
                .contains(
                        "config-parse-error src/main/resources/application.yml:102:201",
                        "config-parse-error src/main/resources/flow.yml:2:103");
    }

    // case 5 --------------------------------------------------------------------------------------

    @Test
    void aTwoAndAHalfGigabyteBaselineIsExitTwoNamingTheFile() throws Exception {
        Path baseline = reports.resolve("huge-baseline.json");
        try (RandomAccessFile f = new RandomAccessFile(baseline.toFile(), "rw")) {
            f.setLength(2_500_000_000L); // sparse: no disk blocks are written
        }
        Scan s = scan("--baseline", baseline.toString());
        assertThat(s.code()).isEqualTo(Main.EXIT_USAGE);
        assertThat(s.err())
                .contains("huge-baseline.json")
                .contains("the baseline is 2500000000 bytes, over the limit of 67108864 bytes")
                .doesNotContain("syntax tree");
    }

    @Test
    void aBaselineNestedTooDeepIsExitTwoNamingTheFile() throws Exception {
        Path baseline = reports.resolve("deep-baseline.json");
        Files.writeString(baseline, "{\"version\": 1, \"findings\": " + "[".repeat(5000) + "]".repeat(5000) + "}");
        Scan s = scan("--baseline", baseline.toString());
        assertThat(s.code()).isEqualTo(Main.EXIT_USAGE);
        assertThat(s.err())
                .contains("deep-baseline.json")
                .contains("not valid JSON")
                .contains("nesting depth");
    }

    // case 6 --------------------------------------------------------------------------------------

    @Test
    void anUnclosedParenthesisKeepsTheLockSiteWithALexicalFallbackNote() throws Exception {
        // the statement ends with ";" but its first "(" is never closed: the call is kept, its argument
        // is what was closed inside it, "(1)", and the statement gets the lexical-fallback note
        String sql = "-- one ( too many\nSELECT pg_advisory_lock((1);\n";
        write("db/V1__claim.sql", sql);
        // a fragment without ";" stays no call: a Java string that is only the start of a statement
        write("db/V2__fragment.sql", "SELECT pg_advisory_lock(\n");
        Scan s = scan();
        queueReported(s);
        assertThat(s.notifications()).contains("sql-parse-fallback db/V1__claim.sql:2:0");
        assertThat(s.out())
                .contains("db/V1__claim.sql:2:1: note [tool:sql-parse-fallback] JSqlParser could not parse"
                        + " this statement (unbalanced parentheses); analysed lexically");
        CliHarness.Run keys = CliHarness.real(root, "keys", ".");
        assertThat(keys.exitCode()).as(keys.err()).isZero();
        assertThat(keys.out())
                .contains("db/V1__claim.sql:2:" + column(sql, 2, "pg_advisory_lock") + "  pg_advisory_lock((1))")
                .doesNotContain("V2__fragment.sql");
    }

    // case 7 --------------------------------------------------------------------------------------

    @Test
    @SuppressWarnings("UnicodeEscape") // the escapes are what this test reads
    void unicodeEscapesAreDecodedAndFindingsPointIntoTheFileAsWritten() throws Exception {
        // \u0022 opens and closes the literal, \u0020 is a space before it: javac reads both; the column
        // of the lock call is counted in the file as written (each escape is six chars there, one after)
        String java = "class Esc {\n"
                + "  Object next(java.sql.Statement st) throws Exception {\n"
                + "    return st.executeQuery(\\u0020\\u0022SELECT id FROM jobs WHERE pg_try_advisory_lock(id) ORDER BY id"
                + " LIMIT 1\\u0022);\n"
                + "  }\n"
                + "}\n";
        write("src/Esc.java", java);
        Scan s = scan();
        assertThat(s.notifications()).noneMatch(n -> n.contains("Esc.java"));
        assertThat(s.results())
                .contains("lock-in-limit-query src/Esc.java:3:" + column(java, 3, "pg_try_advisory_lock"));
        assertThat(column(java, 3, "pg_try_advisory_lock"))
                .as("not the decoded column, 56")
                .isEqualTo(66);
    }

    // case 8 --------------------------------------------------------------------------------------

    @Test
    void utf16WithoutAByteOrderMarkIsDecoded() throws Exception {
        write("src/Le.java", QUEUE.replace("Queue", "Le").getBytes(StandardCharsets.UTF_16LE));
        write("src/Be.java", QUEUE.replace("Queue", "Be").getBytes(StandardCharsets.UTF_16BE));
        Scan s = scan();
        int col = column(QUEUE, 3, "pg_try_advisory_lock");
        assertThat(s.results())
                .contains("lock-in-limit-query src/Le.java:3:" + col, "lock-in-limit-query src/Be.java:3:" + col);
    }

    @Test
    void aUtf16MapperWithAByteOrderMarkIsAnalysed() throws Exception {
        // the mapper check used to test the raw bytes for "advisory", which UTF-16 spreads over NULs
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n"
                + "<mapper namespace=\"p.QueueMapper\">\n"
                + "  <select id=\"next\">\n"
                + "    SELECT id FROM jobs WHERE pg_try_advisory_lock(id) ORDER BY id LIMIT 1\n"
                + "  </select>\n"
                + "</mapper>\n";
        write("src/main/resources/p/QueueMapper.xml", xml.getBytes(StandardCharsets.UTF_16)); // UTF_16 writes a BOM
        Scan s = scan();
        assertThat(s.results())
                .contains("lock-in-limit-query src/main/resources/p/QueueMapper.xml:4:"
                        + column(xml, 4, "pg_try_advisory_lock"));
    }

    // case 9 --------------------------------------------------------------------------------------

    @Test
    void aStatementAfterAnEmptyResultMapIsAnalysed() throws Exception {
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<mapper namespace=\"p.JobMapper\">\n"
                + "  <resultMap id=\"r\" type=\"p.R\"/>\n"
                + "  <!-- a <select> in a comment is not one -->\n"
                + "  <select id=\"next\" resultMap=\"r\">\n"
                + "    SELECT id FROM jobs WHERE pg_try_advisory_lock(id) ORDER BY id LIMIT 1\n"
                + "  </select>\n"
                + "</mapper>\n";
        write("src/main/resources/p/JobMapper.xml", xml);
        Scan s = scan();
        assertThat(s.results())
                .contains("lock-in-limit-query src/main/resources/p/JobMapper.xml:6:"
                        + column(xml, 6, "pg_try_advisory_lock"));
    }

    // case 10 -------------------------------------------------------------------------------------

    @Test
    void typeArgumentsNestedThousandsDeepAreSkippedAtOnceWithALocatedNotification() throws Exception {
        String deep = "Map<String, ".repeat(5000) + "String" + ">".repeat(5000);
        String java = "import java.util.Map;\n"
                + "class Deep {\n"
                + "  void m(java.sql.Statement st) throws Exception {\n"
                + "    " + deep + " v = null;\n"
                + "    st.execute(\"SELECT pg_advisory_lock(1)\");\n"
                + "  }\n"
                + "}\n";
        write("src/Deep.java", java);
        // comparisons and shifts add no level: this file is analysed
        write(
                "src/Shallow.java",
                "class Shallow {\n  boolean f(int a, int b) {\n    return " + "a < b && ".repeat(300)
                        + "(a << 2) <= b;\n  }\n  // pg_advisory_lock\n}\n");
        long started = System.nanoTime();
        Scan s = scan();
        queueReported(s);
        // the 101st "<" of line 4
        int col = 4 + 100 * "Map<String, ".length() + "Map".length() + 1;
        assertThat(s.notifications()).containsExactly("java-too-deep src/Deep.java:4:" + col);
        assertThat(s.out()).contains("type arguments nested more than 100 levels deep");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("a hang guard, not a benchmark")
                .isLessThan(Duration.ofSeconds(30));
        assertThat(Pattern.compile("src/Shallow.java")
                        .matcher(String.join("\n", s.notifications()))
                        .find())
                .isFalse();
    }
}
