package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.FindingSuppression;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every suppression form through the real analyzer and rules: the finding fires without it, is
 * silent (and kept as suppressed) with it, and unused or unknown suppressions are reported by
 * {@code unused-suppression}.
 */
class SuppressionFormsTest {

    private static final String RULE = "lock-in-limit-query";
    private static final String CLAIM = "\"SELECT id FROM jobs WHERE pg_try_advisory_lock(id) LIMIT 1\"";

    @TempDir
    Path dir;

    private AnalysisResult scan(String path, String text, Set<String> disabled) throws Exception {
        Path file = dir.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        // only the rules under test run: the claim below would also be a lock without unlock
        Set<String> off = new TreeSet<>(disabled);
        RuleRegistry.load().stream()
                .map(r -> r.descriptor().id())
                .filter(id -> !Set.of(RULE, "unused-suppression", "duplicate-lock-key")
                        .contains(id))
                .forEach(off::add);
        return Analyzer.builder()
                .rules(RuleRegistry.load())
                .threads(1)
                .disabledRules(off)
                .build()
                .analyze(dir, List.of());
    }

    private AnalysisResult java(String body) throws Exception {
        return scan("src/main/java/p/Q.java", "package p;\n\nimport java.sql.*;\n\n" + body, Set.of());
    }

    private static List<String> rules(List<Finding> findings) {
        return findings.stream().map(Finding::ruleId).toList();
    }

    /** A method executing the claim, with optional text before the method and at the end of the SQL line. */
    private static String method(String annotation, String endOfLine) {
        return "class Q {\n"
                + "    Connection c;\n"
                + "    " + annotation + "\n"
                + "    void claim() throws SQLException {\n"
                + "        c.prepareStatement(" + CLAIM + ");" + endOfLine + "\n"
                + "    }\n"
                + "}\n";
    }

    @Test
    void firesWithoutSuppression() throws Exception {
        AnalysisResult r = java(method("", ""));
        assertThat(rules(r.findings())).containsExactly(RULE);
        assertThat(r.findings().get(0).region().startLine()).isEqualTo(9);
        assertThat(r.suppressed()).isEmpty();
    }

    @Test
    void endOfLineComment() throws Exception {
        AnalysisResult r = java(method("", " // pg-advisory-lint:ignore " + RULE + " -- single-row lookup"));
        assertThat(r.findings()).isEmpty();
        assertThat(r.suppressed()).singleElement().satisfies(f -> {
            assertThat(f.ruleId()).isEqualTo(RULE);
            assertThat(f.suppression().kind()).isEqualTo(FindingSuppression.Kind.IN_SOURCE);
            assertThat(f.suppression().justification()).isEqualTo("single-row lookup");
            assertThat(f.suppression().location().startLine()).isEqualTo(9);
        });
    }

    @Test
    void previousLineCommentWithoutRuleId() throws Exception {
        String text = method("", "")
                .replace(
                        "        c.prepareStatement",
                        "        // pg-advisory-lint:ignore -- reviewed\n        c.prepareStatement");
        AnalysisResult r = java(text);
        assertThat(r.findings()).isEmpty();
        assertThat(r.suppressed()).hasSize(1);
    }

    @Test
    void annotationOnMethod() throws Exception {
        AnalysisResult r = java(method("@SuppressWarnings(\"pg-advisory-lint:" + RULE + "\")", ""));
        assertThat(r.findings()).isEmpty();
        assertThat(r.suppressed())
                .singleElement()
                .satisfies(f -> assertThat(f.suppression().justification()).isEmpty());
    }

    @Test
    void annotationOnClassForEveryRule() throws Exception {
        AnalysisResult r = java("@SuppressWarnings({\"unchecked\", \"pg-advisory-lint\"})\n" + method("", ""));
        assertThat(r.findings()).isEmpty();
        assertThat(r.suppressed()).hasSize(1);
    }

    @Test
    void annotationOnConstructor() throws Exception {
        String body = "class Q {\n    @SuppressWarnings(\"pg-advisory-lint:" + RULE + "\")\n"
                + "    Q(Connection c) throws SQLException {\n        c.prepareStatement(" + CLAIM + ");\n    }\n}\n";
        assertThat(rules(java(body.replace("@SuppressWarnings(\"pg-advisory-lint:" + RULE + "\")", ""))
                        .findings()))
                .containsExactly(RULE);
        AnalysisResult r = java(body);
        assertThat(r.findings()).isEmpty();
        assertThat(r.suppressed()).hasSize(1);
    }

    @Test
    void annotationOnField() throws Exception {
        String body = "class Q {\n    Connection c;\n    @SuppressWarnings(\"pg-advisory-lint:" + RULE + "\")\n"
                + "    static final String CLAIM_SQL =\n            " + CLAIM + ";\n"
                + "    void claim() throws SQLException {\n        c.prepareStatement(CLAIM_SQL);\n    }\n}\n";
        AnalysisResult without = java(body.replace("@SuppressWarnings(\"pg-advisory-lint:" + RULE + "\")", ""));
        assertThat(rules(without.findings())).containsExactly(RULE);
        AnalysisResult r = java(body);
        assertThat(r.findings()).isEmpty();
        assertThat(r.suppressed()).hasSize(1);
    }

    @Test
    void annotationOnLocalVariable() throws Exception {
        String body = "class Q {\n    Connection c;\n    void claim() throws SQLException {\n"
                + "        @SuppressWarnings(\"pg-advisory-lint:" + RULE + "\")\n"
                + "        String sql = " + CLAIM + ";\n        c.prepareStatement(sql);\n    }\n}\n";
        AnalysisResult without = java(body.replace("@SuppressWarnings(\"pg-advisory-lint:" + RULE + "\")", ""));
        assertThat(rules(without.findings())).containsExactly(RULE);
        AnalysisResult r = java(body);
        assertThat(r.findings()).isEmpty();
        assertThat(r.suppressed()).hasSize(1);
    }

    @Test
    void sqlComments() throws Exception {
        String claim = "SELECT id FROM jobs WHERE pg_try_advisory_lock(id) LIMIT 1;";
        assertThat(rules(scan("db/claim.sql", claim + "\n", Set.of()).findings()))
                .containsExactly(RULE);
        AnalysisResult eol =
                scan("db/claim.sql", claim + " -- pg-advisory-lint:ignore " + RULE + " -- one row\n", Set.of());
        assertThat(eol.findings()).isEmpty();
        assertThat(eol.suppressed())
                .singleElement()
                .satisfies(f -> assertThat(f.suppression().justification()).isEqualTo("one row"));
        AnalysisResult before =
                scan("db/claim.sql", "-- pg-advisory-lint:ignore " + RULE + "\n" + claim + "\n", Set.of());
        assertThat(before.findings()).isEmpty();
    }

    @Test
    void unusedCommentIsANote() throws Exception {
        String text = "class Q {\n    // pg-advisory-lint:ignore " + RULE + " -- was a LIMIT query once\n"
                + "    int x;\n}\n";
        AnalysisResult r = java(text);
        assertThat(r.findings()).singleElement().satisfies(f -> {
            assertThat(f.ruleId()).isEqualTo("unused-suppression");
            assertThat(f.severity()).isEqualTo(Severity.NOTE);
            assertThat(f.region().startLine()).isEqualTo(6);
            assertThat(f.region().startColumn()).isEqualTo(8);
            assertThat(f.message()).contains("silences no " + RULE + " finding here");
        });
    }

    /** A method whose prepared statement takes the claim from a text block, its lock three lines below the comment. */
    private static String textBlockClaim(String comment) {
        return "class Q {\n"
                + "    Connection c;\n"
                + "    void claim() throws SQLException {\n"
                + "        " + comment + "\n"
                + "        c.prepareStatement(\"\"\"\n"
                + "                SELECT id FROM jobs\n"
                + "                 WHERE pg_try_advisory_lock(id)\n"
                + "                 LIMIT 1\n"
                + "                \"\"\");\n"
                + "    }\n"
                + "}\n";
    }

    @Test
    void commentAboveAStatementCoversTheLinesOfItsTextBlock() throws Exception {
        AnalysisResult bare = java(textBlockClaim(""));
        assertThat(rules(bare.findings())).containsExactly(RULE);
        assertThat(bare.findings().get(0).region().startLine()).isEqualTo(11);

        AnalysisResult r = java(textBlockClaim("// pg-advisory-lint:ignore " + RULE + " -- one pending job at most"));
        // silenced, and the comment is not reported as left over from code that was fixed or moved
        assertThat(r.findings()).isEmpty();
        assertThat(r.suppressed()).singleElement().satisfies(f -> {
            assertThat(f.region().startLine()).isEqualTo(11);
            assertThat(f.suppression().location().startLine()).isEqualTo(8);
            assertThat(f.suppression().justification()).isEqualTo("one pending job at most");
        });
    }

    @Test
    void commentAboveACompoundStatementStopsAtItsBody() throws Exception {
        String text = "class Q {\n"
                + "    Connection c;\n"
                + "    void claim(boolean on) throws SQLException {\n"
                + "        // pg-advisory-lint:ignore " + RULE + "\n"
                + "        if (on) {\n"
                + "            c.prepareStatement(\"\"\"\n"
                + "                    SELECT id FROM jobs WHERE pg_try_advisory_lock(id) LIMIT 1\n"
                + "                    \"\"\");\n"
                + "        }\n"
                + "    }\n"
                + "}\n";
        AnalysisResult r = java(text);
        assertThat(rules(r.findings())).containsExactly("unused-suppression", RULE);
        assertThat(r.findings().get(1).region().startLine()).isEqualTo(11);
    }

    @Test
    void unusedAnnotationIsANote() throws Exception {
        AnalysisResult r = java("class Q {\n    @SuppressWarnings(\"pg-advisory-lint\")\n    void idle() {}\n}\n");
        assertThat(r.findings()).singleElement().satisfies(f -> {
            assertThat(f.ruleId()).isEqualTo("unused-suppression");
            assertThat(f.severity()).isEqualTo(Severity.NOTE);
            assertThat(f.region().startLine()).isEqualTo(6);
            assertThat(f.region().startColumn()).isEqualTo(23);
            assertThat(f.message()).startsWith("@SuppressWarnings(\"pg-advisory-lint\") silences no finding here");
        });
    }

    @Test
    void partlyUsedSuppressionNamesTheUnusedRule() throws Exception {
        AnalysisResult r = java(method("", " // pg-advisory-lint:ignore " + RULE + ", duplicate-lock-key"));
        assertThat(rules(r.findings())).containsExactly("unused-suppression");
        assertThat(r.findings().get(0).message()).contains("silences no duplicate-lock-key finding");
        assertThat(r.suppressed()).hasSize(1);
    }

    @Test
    void unknownRuleIdIsAWarningAndSilencesNothing() throws Exception {
        AnalysisResult r = java(method("", " // pg-advisory-lint:ignore lock-in-limt-query -- typo"));
        assertThat(rules(r.findings())).containsExactlyInAnyOrder(RULE, "unused-suppression");
        Finding unknown = r.findings().stream()
                .filter(f -> f.ruleId().equals("unused-suppression"))
                .findFirst()
                .orElseThrow();
        assertThat(unknown.severity()).isEqualTo(Severity.WARNING);
        assertThat(unknown.message())
                .contains("names 'lock-in-limt-query', which is not a pg-advisory-lint rule"
                        + " (did you mean lock-in-limit-query?)");
    }

    @Test
    void pascalCaseNameInAnnotationIsUnknownWithASuggestion() throws Exception {
        AnalysisResult r = java(method("@SuppressWarnings(\"pg-advisory-lint:LockInLimitQuery\")", ""));
        assertThat(rules(r.findings())).containsExactlyInAnyOrder(RULE, "unused-suppression");
        assertThat(r.findings())
                .filteredOn(f -> f.ruleId().equals("unused-suppression"))
                .singleElement()
                .satisfies(f -> assertThat(f.message()).contains("(did you mean lock-in-limit-query?)"));
    }

    @Test
    void suppressionOfASwitchedOffRuleIsNotUnused() throws Exception {
        AnalysisResult r = scan(
                "src/main/java/p/Q.java",
                "package p;\n\nimport java.sql.*;\n\n" + method("", " // pg-advisory-lint:ignore " + RULE),
                Set.of(RULE));
        assertThat(r.findings()).isEmpty();
        assertThat(r.rules()).extracting(d -> d.id()).doesNotContain(RULE);
    }

    @Test
    void unusedSuppressionIsSilencedOnlyByName() throws Exception {
        String text = "class Q {\n    // pg-advisory-lint:ignore unused-suppression -- kept for the legacy profile\n"
                + "    // pg-advisory-lint:ignore " + RULE + "\n    int x;\n}\n";
        AnalysisResult r = java(text);
        assertThat(r.findings()).isEmpty();
        assertThat(r.suppressed()).extracting(Finding::ruleId).containsExactly("unused-suppression");
    }
}
