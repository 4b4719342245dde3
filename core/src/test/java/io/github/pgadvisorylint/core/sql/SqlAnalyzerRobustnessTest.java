package io.github.pgadvisorylint.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Any input returns, in about linear time, without throwing or overflowing the stack. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SqlAnalyzerRobustnessTest {

    private final SqlAnalyzer analyzer = new SqlAnalyzer();

    @Test
    void binaryGarbage() {
        Random r = new Random(42);
        String alphabet = "();,'\"$:?#{}[]-/*.\n eE0123pg_advisory_lock SELECT LIMIT FROM WHERE UNION";
        for (int round = 0; round < 200; round++) {
            char[] cs = new char[r.nextInt(2000)];
            for (int i = 0; i < cs.length; i++) {
                cs[i] = r.nextInt(4) == 0 ? (char) r.nextInt(0x10000) : alphabet.charAt(r.nextInt(alphabet.length()));
            }
            SqlAnalysis a = analyzer.analyze(new String(cs));
            assertThat(a.problems()).noneSatisfy(p -> assertThat(p.message()).contains("stopped early"));
        }
    }

    @Test
    void fragmentsOfRealStatements() {
        String sql = "WITH c AS (SELECT id FROM t WHERE pg_try_advisory_lock(id) LIMIT 1) "
                + "SELECT (SELECT pg_advisory_lock(x.id) FROM u x UNION SELECT 1 LIMIT 1) FROM c ORDER BY 1; "
                + "DO $$ BEGIN PERFORM pg_advisory_lock(1); END $$; { call pg_advisory_xact_lock(?) }";
        for (int i = 0; i <= sql.length(); i++) {
            for (String part : new String[] {sql.substring(0, i), sql.substring(i)}) {
                assertThat(analyzer.analyze(part).problems())
                        .noneSatisfy(p -> assertThat(p.message()).contains("stopped early"));
                assertThat(new SqlAnalyzer(false).analyze(part).problems()).isEmpty();
            }
        }
    }

    @Test
    void unterminatedQuotesAndComments() {
        for (String sql : new String[] {
            "SELECT 'abc",
            "SELECT E'abc\\",
            "SELECT \"abc",
            "SELECT $$abc",
            "SELECT $tag$ abc $ta",
            "SELECT /* /* */ pg_advisory_lock(1)",
            "DO $$ BEGIN PERFORM pg_advisory_lock(1);",
            "SELECT #{abc",
            "SELECT ${",
            "SELECT pg_advisory_lock(",
            "SELECT ))))) pg_advisory_lock(1) (((("
        }) {
            assertThat(analyzer.analyze(sql)).as(sql).isNotNull();
        }
        assertThat(analyzer.analyze("DO $$ BEGIN PERFORM pg_advisory_lock(1);").calls())
                .hasSize(1);
        assertThat(analyzer.analyze("SELECT ))))) pg_advisory_lock(1) ((((").calls())
                .hasSize(1);
    }

    @Test
    void deepNestingIsAnalysedLexically() {
        int n = 10_000;
        String sql = "SELECT " + "(".repeat(n) + "SELECT pg_try_advisory_lock(id) FROM t LIMIT 1" + ")".repeat(n);
        SqlAnalysis a = analyzer.analyze(sql);
        assertThat(a.calls()).hasSize(1);
        assertThat(a.calls().get(0).context().parsedBySqlParser()).isFalse();
        assertThat(a.calls().get(0).context().limitKeyword()).isEqualTo("LIMIT");
        String unbalanced = "SELECT " + "(".repeat(n) + "pg_advisory_lock(1)";
        assertThat(analyzer.analyze(unbalanced).calls()).hasSize(1);
        String nestedSelects = "SELECT " + "(SELECT ".repeat(n) + "pg_advisory_lock(1)" + ")".repeat(n);
        SqlAnalysis b = analyzer.analyze(nestedSelects);
        assertThat(b.calls())
                .singleElement()
                .satisfies(c -> assertThat(c.context().depth()).isEqualTo(n));
    }

    /**
     * Found by the fuzzing harness (issue 27): JSqlParser backtracks exponentially on an unclosed
     * {@code ARRAY[} (four of them took minutes), and on deeply nested brackets even when they close,
     * because only parentheses were counted. Brackets now count with parentheses: an unclosed one, or
     * nesting past the limit, goes to the lexical analysis without JSqlParser, which the note says.
     */
    @Test
    void unclosedOrDeeplyNestedBracketsSkipJSqlParser() {
        SqlAnalysis unclosed = analyzer.analyze("SELECT ARRAY[ARRAY[ARRAY[ARRAY[pg_advisory_lock(5);");
        assertThat(unclosed.calls())
                .singleElement()
                .satisfies(c -> assertThat(c.context().parsedBySqlParser()).isFalse());
        assertThat(unclosed.problems())
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("(unbalanced brackets)"));
        SqlAnalysis mismatched = analyzer.analyze("SELECT ARRAY[(pg_advisory_lock(5)];");
        assertThat(mismatched.problems())
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("(unbalanced brackets)"));
        int n = SqlAnalyzer.MAX_PARSE_NESTING;
        SqlAnalysis deep =
                analyzer.analyze("SELECT " + "ARRAY[".repeat(n) + "pg_advisory_lock(5)" + "]".repeat(n) + ";");
        assertThat(deep.calls()).hasSize(1);
        assertThat(deep.problems())
                .singleElement()
                .satisfies(p -> assertThat(p.message())
                        .contains("parentheses and brackets nested " + (n + 1) + " deep (more than " + n + ")"));
        SqlAnalysis shallow = analyzer.analyze("SELECT ARRAY[ARRAY[pg_advisory_lock(5)]], a[1:2] FROM t;");
        assertThat(shallow.problems()).isEmpty();
        assertThat(shallow.calls())
                .singleElement()
                .satisfies(c -> assertThat(c.context().parsedBySqlParser()).isTrue());
    }

    /**
     * Found by the fourth adversarial pass (issue 27): 300 statements with {@code IN (SELECT ...)} nested
     * twelve deep (each about a second in JSqlParser) made one 108 KB file take five minutes. The text's
     * budget for deeply nested statements, counted in nesting and not in time, parses the first few and
     * analyses the rest lexically, each with a note naming the budget; shallow statements are never
     * counted against it.
     */
    @Test
    void deeplyNestedStatementsShareOneParserBudgetPerText() {
        String deep = "SELECT pg_advisory_lock(1) FROM t WHERE a IN " + "(SELECT a FROM t WHERE a IN ".repeat(11)
                + "(1)" + ")".repeat(11) + ";\n";
        SqlAnalysis many = analyzer.analyze(deep.repeat(300) + "SELECT pg_advisory_lock(2) FROM t LIMIT 1;\n");
        assertThat(many.calls()).hasSize(301);
        long parsed = many.calls().stream()
                .filter(c -> c.context().parsedBySqlParser())
                .count();
        // 12 levels cost 1.5^8 = 25.6 units of 200: seven statements, then the shallow one at the end
        assertThat(parsed).isEqualTo(8);
        assertThat(many.calls().get(300).context().parsedBySqlParser()).isTrue();
        assertThat(many.problems())
                .hasSize(293)
                .allSatisfy(p -> assertThat(p.message()).contains("parser budget for deeply nested statements"));
        SqlAnalysis shallow =
                analyzer.analyze("SELECT pg_advisory_lock(1) FROM t WHERE a IN (SELECT 1);\n".repeat(500));
        assertThat(shallow.problems()).isEmpty();
    }

    /**
     * Found by the fuzzing harness (issue 27): JSqlParser backtracks exponentially on CASE expressions
     * that are not closed (seven took seconds, eighteen did not finish in minutes). A statement with a
     * CASE and no END for it goes to the lexical analysis without JSqlParser; closed ones still parse.
     */
    @Test
    void anUnclosedCaseSkipsJSqlParser() {
        String when = "CASE WHEN pg_try_advisory_lock(4) THEN ";
        for (int n : new int[] {1, 5, 18}) {
            SqlAnalysis unclosed = analyzer.analyze("SELECT " + when.repeat(n) + "1" + " END".repeat(n - 1) + ";");
            assertThat(unclosed.calls()).as("%d", n).hasSize(n);
            assertThat(unclosed.problems())
                    .as("%d", n)
                    .singleElement()
                    .satisfies(p -> assertThat(p.message()).contains("(CASE without END)"));
        }
        SqlAnalysis simple = analyzer.analyze("SELECT CASE x WHEN 1 THEN CASE y WHEN 2 THEN pg_advisory_lock(1);");
        assertThat(simple.problems())
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("(CASE without END)"));
        SqlAnalysis closed = analyzer.analyze("SELECT " + when.repeat(18) + "1" + " END".repeat(18) + ";");
        assertThat(closed.problems()).isEmpty();
        assertThat(closed.calls())
                .hasSize(18)
                .allSatisfy(c -> assertThat(c.context().parsedBySqlParser()).isTrue());
    }

    @Test
    void hugeInput() {
        StringBuilder sb = new StringBuilder("SELECT pg_try_advisory_lock(id) FROM t WHERE a IN (");
        for (int i = 0; i < 50_000; i++) {
            sb.append(i).append(", ");
        }
        sb.append("0) LIMIT 1;\n");
        for (int i = 0; i < 5_000; i++) {
            sb.append("SELECT pg_advisory_xact_lock(").append(i).append(");\n");
        }
        SqlAnalysis a = analyzer.analyze(sb.toString());
        assertThat(a.calls()).hasSize(5_001);
        assertThat(a.calls().get(0).context().parsedBySqlParser()).isFalse();
        assertThat(a.calls().get(0).context().limitKeyword()).isEqualTo("LIMIT");
        assertThat(a.calls().get(5_000).arguments().get(0).value()).isEqualTo(4_999L);
    }

    @Test
    void manyCallsInOneStatementStayLinear() {
        StringBuilder sb = new StringBuilder("SELECT 1");
        for (int i = 0; i < 20_000; i++) {
            sb.append(", pg_advisory_lock(").append(i).append(")");
        }
        assertThat(analyzer.analyze(sb.toString()).calls()).hasSize(20_000);
    }

    @Test
    void longDollarTagsAndRepeatedOpeners() {
        String sql = "$" + "a".repeat(100_000) + "$ " + "$$".repeat(10_000) + " '".repeat(10_000);
        assertThat(analyzer.analyze(sql)).isNotNull();
        assertThat(analyzer.analyze("/*".repeat(50_000))).isNotNull();
    }
}
