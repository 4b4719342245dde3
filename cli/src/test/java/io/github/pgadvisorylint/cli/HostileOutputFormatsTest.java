package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.report.TerminalText;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27: file names and SQL text a hostile repository controls, scanned through the real CLI and analyzer (with
 * the test rule that reports every acquisition, so each message quotes the SQL), in every format a person or CI
 * reads: the text report (a terminal, the Action's job log), GitHub workflow commands, the Markdown step summary,
 * and {@code keys} as text and Markdown. A file named {@code ::stop-commands::x.java} at the root must not stop the
 * job's workflow commands; a carriage return, a pipe, HTML or link syntax in a name or in SQL must not split a row
 * or add a heading, link, image or HTML.
 */
@Timeout(120)
class HostileOutputFormatsTest {

    private static final String HOSTILE_SQL_NAME =
            "src/a\rb\n## H [l](javascript:alert(1)) <img src=x onerror=alert(2)>"
                    + " |c| 100% ,:\u001b[2J\u0085 ##[add-mask]q.sql";

    private static final String HOSTILE_SQL = "SELECT pg_advisory_lock(hashtext('<script>alert(3)</script> |"
            + " [y](javascript:alert(4)) ![i](javascript:alert(5)) ::stop-commands::t ##[add-mask]z %0A \u001b[31m"
            + " \u0007 {Details, javascript:alert(6)}'));\n";

    @TempDir
    Path root;

    private CliHarness.Run run(String... args) throws Exception {
        Files.writeString(
                root.resolve("::stop-commands::x.java"),
                "class X { void run(java.sql.Statement st) throws Exception {"
                        + " st.execute(\"SELECT pg_advisory_lock(7)\"); } }\n");
        Path sql = root.resolve(HOSTILE_SQL_NAME);
        Files.createDirectories(sql.getParent());
        Files.writeString(sql, HOSTILE_SQL);
        return CliHarness.plumbing(root, args);
    }

    private static void assertNoRawControls(String out) {
        for (int i = 0; i < out.length(); i++) {
            char c = out.charAt(i);
            assertThat(c != '\n'
                            && c != ':'
                            && c != '#'
                            && !TerminalText.escape(String.valueOf(c)).equals(String.valueOf(c)))
                    .as("raw U+%04X at %d in%n%s", (int) c, i, out)
                    .isFalse();
        }
    }

    private static void assertNoWorkflowCommand(String out) {
        for (String line : out.split("\n", -1)) {
            assertThat(line.strip()).as(out).doesNotStartWith("::");
            assertThat(line).as(out).doesNotContain("##[");
        }
    }

    private static String html(String markdown) {
        List<org.commonmark.Extension> tables = List.of(TablesExtension.create());
        return HtmlRenderer.builder()
                .extensions(tables)
                .build()
                .render(Parser.builder().extensions(tables).build().parse(markdown));
    }

    private static void assertEveryRowHas(String html, int cells, int rows) {
        String body = html.substring(html.indexOf("<tbody>"), html.indexOf("</tbody>"));
        String[] trs = body.split("<tr>", -1);
        assertThat(trs).hasSize(rows + 1);
        for (int i = 1; i < trs.length; i++) {
            Matcher m = Pattern.compile("<td[^>]*>").matcher(trs[i]);
            int n = 0;
            while (m.find()) {
                n++;
            }
            assertThat(n).as(trs[i]).isEqualTo(cells);
        }
        assertThat(html)
                .doesNotContain("<a ")
                .doesNotContain("<img")
                .doesNotContain("<script")
                .doesNotContain("<h2>H");
    }

    @Test
    void theTextReportShowsHostileNamesAndSqlEscapedAndStartsNoWorkflowCommand() throws Exception {
        CliHarness.Run r = run("scan", ".", "--format", "text", "--color", "never");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertNoRawControls(r.out());
        assertNoWorkflowCommand(r.out());
        assertThat(r.out())
                .contains("\\u003A:stop-commands::x.java:1:")
                .contains("src/a\\rb\\n## H [l](javascript:alert(1))")
                .contains("\\u001B[31m");
    }

    @Test
    void githubAnnotationsAreOneCommandPerFindingWithEveryTextEscaped() throws Exception {
        CliHarness.Run r = run("scan", ".", "--format", "github");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertNoRawControls(r.out());
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(2).allSatisfy(l -> assertThat(l).startsWith("::warning file="));
        assertThat(lines.get(0)).startsWith("::warning file=%3A%3Astop-commands%3A%3Ax.java,line=1,");
        assertThat(lines.get(1))
                .startsWith("::warning file=src/a%0Db%0A## H [l](javascript%3Aalert(1)) <img src=x onerror=alert(2)>"
                        + " |c| 100%25 %2C%3A\\u001B[2J\\u0085 ##[add-mask]q.sql,line=1,")
                .contains("%250A \\u001B[31m \\u0007");
    }

    @Test
    void theMarkdownSummaryKeepsOneRowPerFindingAndNoMarkupFromTheRepository() throws Exception {
        CliHarness.Run r = run("scan", ".", "--format", "markdown");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertNoRawControls(r.out());
        String html = html(r.out());
        assertEveryRowHas(html.substring(html.indexOf("Findings")), 4, 2);
        assertThat(html).contains("src/a b ## H [l](javascript:alert(1))");
    }

    @Test
    void keysAsMarkdownAndTextHoldHostileNamesAndSqlAsText() throws Exception {
        CliHarness.Run md = run("keys", ".", "--format", "markdown");
        assertThat(md.exitCode()).as(md.err()).isZero();
        assertNoRawControls(md.out());
        assertEveryRowHas(html(md.out()), 8, 2);

        CliHarness.Run text = run("keys", ".", "--format", "text");
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertNoRawControls(text.out());
        assertNoWorkflowCommand(text.out());
    }

    @Test
    void aFileThatCouldNotBeAnalysedIsNamedEscapedOnStandardError() throws Exception {
        Notification failed = new Notification(
                Severity.ERROR,
                "file-read-error",
                "cannot read \u001b]0;title\u0007",
                SourceRegion.line("::stop-commands::b\u001b[2J\nforged.java", 1));
        CliHarness harness = new CliHarness(root, CliHarness.rules(), CliHarness.result(List.of(), List.of(failed)));
        for (String command : new String[] {"keys", "graph"}) {
            CliHarness.Run r = harness.run(command, ".");
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err())
                    .startsWith("\\u003A:stop-commands::b\\u001B[2J\\nforged.java:1:1: error: cannot read"
                            + " \\u001B]0;title\\u0007\n");
            // graph also says why its drawing is empty; nothing else is written
            assertThat(r.err().lines()).hasSize(command.equals("graph") ? 2 : 1);
        }
    }
}
