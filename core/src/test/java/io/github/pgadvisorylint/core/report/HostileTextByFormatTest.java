package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.keys.KeyInventory;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Every writer of text from scanned code, fed file names and SQL text holding every hostile character class:
 * CR, LF, ESC, other C0 (BEL, NUL), C1 (CSI U+009B, NEL U+0085), a bidirectional override, {@code |},
 * {@code <script>}, Markdown link and image syntax with {@code javascript:}, Doxia's {@code {text, url}} link
 * pattern, {@code %}, {@code ::}, {@code ##[}, {@code ,} and {@code :}. Each format must show the text, never
 * act on it: text on a terminal or in a GitHub job log, workflow commands, Markdown (rendered by a CommonMark
 * parser with GFM tables, as GitHub does).
 */
class HostileTextByFormatTest {

    /** Every hostile class in one text. */
    static final String HOSTILE =
            "a\rb\nc\r\nd \u001b[31mred\u001b]0;title\u0007 nul\u0000 csi\u009b2J nel\u0085 rtl\u202e |pipe|"
                    + " <script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3))"
                    + " ![i](javascript:alert(4)) {Details, javascript:alert(5)} 100% ::stop-commands::tok"
                    + " ##[add-mask]m k:v, w &amp; `tick` *em* _u_ # h";

    /** A file at the root whose name starts a workflow command, and one holding every class. */
    static final String COMMAND_FILE = "::stop-commands::tok.java";

    static final String HOSTILE_FILE = "db/" + HOSTILE.replace("/", "_") + ".sql";

    /** SQL text as a key expression: it reaches every format through a site's display. */
    static final String SQL_KEY = "hashtext('" + HOSTILE.replace("'", "''") + "')";

    static AnalysisResult result() {
        Finding atRoot = new Finding(
                "lock-in-limit-query",
                Severity.ERROR,
                "pg_advisory_lock(" + SQL_KEY + ") in a query with LIMIT",
                new SourceRegion(COMMAND_FILE, 3, 5, 3, 30),
                List.of(new RelatedLocation(new SourceRegion(HOSTILE_FILE, 9, 1, 9, 2), "related " + HOSTILE)),
                "0000000000000001");
        Finding inSql = new Finding(
                "lock-in-limit-query",
                Severity.WARNING,
                HOSTILE,
                new SourceRegion(HOSTILE_FILE, 1, 1, 1, 9),
                List.of(),
                "0000000000000002");
        Notification note = new Notification(
                Severity.WARNING, "sql-parse-fallback", "cannot parse " + HOSTILE, SourceRegion.line(HOSTILE_FILE, 4));
        return new AnalysisResult(
                Path.of("/tmp/checkout"),
                List.of(SampleResults.rule("lock-in-limit-query", Severity.WARNING)),
                List.of(atRoot, inSql),
                List.of(note),
                new LockModel(List.of(), List.of()),
                2,
                2,
                10);
    }

    private static String render(Reporter reporter) throws IOException {
        StringWriter out = new StringWriter();
        reporter.write(result(), out);
        return out.toString();
    }

    /** The control characters a terminal or a log would act on, other than the line ends the writer puts. */
    private static void assertNoRawControls(String out) {
        for (int i = 0; i < out.length(); i++) {
            char c = out.charAt(i);
            assertThat(c != '\n' && TerminalText.needsEscape(c))
                    .as("raw U+%04X at %d in%n%s", (int) c, i, out)
                    .isFalse();
        }
    }

    /** As GitHub's runner reads lines: none starts a workflow command, in the current or the older syntax. */
    private static void assertNoWorkflowCommand(String out) {
        for (String line : out.split("\n", -1)) {
            int i = 0;
            while (i < line.length()
                    && (Character.isWhitespace(line.charAt(i)) || Character.isSpaceChar(line.charAt(i)))) {
                i++;
            }
            assertThat(line.substring(i)).as("a line of%n%s", out).doesNotStartWith("::");
            assertThat(line).doesNotContain("##[");
        }
    }

    // --- terminal text ---------------------------------------------------------------------------------------

    @Test
    void textShowsEveryControlAsAVisibleEscapeAndStartsNoWorkflowCommand() throws Exception {
        String out = render(new TextReporter());
        assertNoRawControls(out);
        assertNoWorkflowCommand(out);
        // two findings, one related location, one notification, the summary, and nothing else
        assertThat(out.split("\n", -1)).hasSize(6);
        assertThat(out)
                .contains("\\u003A:stop-commands::tok.java:3:5: error [lock-in-limit-query]")
                .contains("a\\rb\\nc\\r\\nd \\u001B[31mred\\u001B]0;title\\u0007 nul\\u0000 csi\\u009B2J nel\\u0085"
                        + " rtl\\u202E |pipe|")
                .contains("\\u0023#[add-mask]m");
    }

    @Test
    void keysTextShowsSqlAndFileNamesEscaped() throws Exception {
        StringWriter out = new StringWriter();
        KeyInventoryWriter.write(inventory(), KeyInventoryWriter.Format.TEXT, out);
        assertNoRawControls(out.toString());
        assertNoWorkflowCommand(out.toString());
        assertThat(out.toString()).contains("\\u001B[31mred");
    }

    @Test
    void terminalTextEscapesALeadingColonAfterAnyWhiteSpaceAndEveryCommandBracket() {
        assertThat(TerminalText.escape("::stop-commands::x")).isEqualTo("\\u003A:stop-commands::x");
        assertThat(TerminalText.escape("  \u00a0\u3000::x")).isEqualTo("  \u00a0\u3000\\u003A:x");
        assertThat(TerminalText.escape("a::b")).isEqualTo("a::b");
        assertThat(TerminalText.escape("x ##[error]y ###[z")).isEqualTo("x \\u0023#[error]y #\\u0023#[z");
        assertThat(TerminalText.escape("# ## #x")).isEqualTo("# ## #x");
        assertThat(TerminalText.escape("src/Zoë.java")).isEqualTo("src/Zoë.java");
    }

    // --- GitHub workflow commands ----------------------------------------------------------------------------

    /** Reads a workflow command the way the runner does ({@code ActionCommand.TryParseV2}). */
    private record Command(String name, Map<String, String> properties, String data) {
        static Command parse(String line) {
            assertThat(line).startsWith("::");
            int end = line.indexOf("::", 2);
            String info = line.substring(2, end);
            int space = info.indexOf(' ');
            Map<String, String> properties = new HashMap<>();
            for (String p : info.substring(space + 1).split(",", -1)) {
                String[] kv = p.split("=", 2);
                properties.put(
                        kv[0],
                        kv[1].replace("%0D", "\r")
                                .replace("%0A", "\n")
                                .replace("%3A", ":")
                                .replace("%2C", ",")
                                .replace("%25", "%"));
            }
            String data = line.substring(end + 2)
                    .replace("%0D", "\r")
                    .replace("%0A", "\n")
                    .replace("%25", "%");
            return new Command(info.substring(0, space), properties, data);
        }
    }

    /** What a GitHub annotation shows of a text: line breaks kept, other controls as visible escapes. */
    private static String annotation(String s) {
        return s.replace("\u001b", "\\u001B")
                .replace("\u0007", "\\u0007")
                .replace("\u0000", "\\u0000")
                .replace("\u009b", "\\u009B")
                .replace("\u0085", "\\u0085")
                .replace("\u202e", "\\u202E");
    }

    @Test
    void githubCommandsCarryEveryTextBackExactlyAndNothingElse() throws Exception {
        String out = render(new GithubReporter());
        assertNoRawControls(out);
        List<String> lines = out.lines().toList();
        assertThat(lines).hasSize(3); // two findings, one notification
        Command root = Command.parse(lines.get(0));
        assertThat(root.name()).isEqualTo("error");
        assertThat(root.properties())
                .containsEntry("file", COMMAND_FILE)
                .containsEntry("line", "3")
                .containsEntry("title", "pg-advisory-lint [lock-in-limit-query]")
                .containsOnlyKeys("file", "line", "col", "endLine", "endColumn", "title");
        assertThat(root.data()).startsWith("pg_advisory_lock(" + annotation(SQL_KEY) + ")");
        Command sql = Command.parse(lines.get(1));
        assertThat(sql.name()).isEqualTo("warning");
        assertThat(sql.properties()).containsEntry("file", annotation(HOSTILE_FILE));
        assertThat(sql.data()).isEqualTo(annotation(HOSTILE));
        assertThat(Command.parse(lines.get(2)).data()).isEqualTo("cannot parse " + annotation(HOSTILE));
    }

    @Test
    void workflowCommandTextFollowsGithubsRules() {
        assertThat(WorkflowCommandText.data("100% a\r\nb: c, d")).isEqualTo("100%25 a%0D%0Ab: c, d");
        assertThat(WorkflowCommandText.property("a,b:c%\n")).isEqualTo("a%2Cb%3Ac%25%0A");
        assertThat(WorkflowCommandText.data("\u001b[2J")).isEqualTo("\\u001B[2J");
    }

    // --- Markdown --------------------------------------------------------------------------------------------

    private static final Parser MARKDOWN =
            Parser.builder().extensions(List.of(TablesExtension.create())).build();
    private static final HtmlRenderer HTML =
            HtmlRenderer.builder().extensions(List.of(TablesExtension.create())).build();

    /** @return the HTML GitHub would make of the Markdown, with CommonMark and GFM tables */
    static String html(String markdown) {
        return HTML.render(MARKDOWN.parse(markdown));
    }

    /** @return the cells of each body row of the table at {@code index}, HTML entities decoded */
    static List<List<String>> rows(String html, int index) {
        String[] tables = html.split("<table>", -1);
        String body = tables[index + 1].substring(tables[index + 1].indexOf("<tbody>"));
        List<List<String>> rows = new ArrayList<>();
        for (String tr : body.split("<tr>", -1)) {
            if (!tr.contains("<td")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            Matcher m = Pattern.compile("<td[^>]*>(.*?)</td>", Pattern.DOTALL).matcher(tr);
            while (m.find()) {
                cells.add(m.group(1)
                        .replaceAll("</?code>", "")
                        .replace("&lt;", "<")
                        .replace("&gt;", ">")
                        .replace("&quot;", "\"")
                        .replace("&amp;", "&"));
            }
            rows.add(cells);
        }
        return rows;
    }

    /** Nothing but the writer's own markup: no link, image, script or other raw HTML, no extra heading. */
    static void assertInert(String html) {
        assertThat(html)
                .doesNotContain("<a ")
                .doesNotContain("<img")
                .doesNotContain("<script")
                .doesNotContain("javascript:alert(3)\"")
                .doesNotContainPattern("<h[1-6]>[^<]*(red|tok|alert)");
    }

    /** What a Markdown cell shows of a text: line breaks as spaces, other controls as visible escapes. */
    private static String cell(String s) {
        return annotation(s).replace("\r\n", " ").replace('\r', ' ').replace('\n', ' ');
    }

    @Test
    void markdownCellsHoldEveryTextAsTextAndTheTableStaysWhole() throws Exception {
        String md = render(new MarkdownReporter());
        assertNoRawControls(md);
        String html = html(md);
        assertInert(html);
        List<List<String>> findings = rows(html, 1);
        assertThat(findings).hasSize(2).allSatisfy(r -> assertThat(r).hasSize(4));
        assertThat(findings.get(0).get(1)).isEqualTo(COMMAND_FILE + ":3:5");
        assertThat(findings.get(1).get(1)).isEqualTo(cell(HOSTILE_FILE) + ":1:1");
        assertThat(findings.get(1).get(3)).isEqualTo(cell(HOSTILE));
        assertThat(findings.get(0).get(3)).isEqualTo("pg_advisory_lock(" + cell(SQL_KEY) + ") in a query with LIMIT");
    }

    @Test
    void htmlHoldsEveryTextAsTextInAWellFormedPage() throws Exception {
        String page = render(new HtmlReporter());
        assertNoRawControls(page);
        Document doc = NewFormatsTest.parseHtml(page);
        assertThat(doc.getElementsByTagName("script").getLength()).isZero();
        assertThat(doc.getElementsByTagName("img").getLength()).isZero();
        NodeList links = doc.getElementsByTagName("a");
        for (int i = 0; i < links.getLength(); i++) {
            assertThat(((Element) links.item(i)).getAttribute("href"))
                    .as("only the writer's rule links")
                    .startsWith(ToolInfo.INFORMATION_URI + "/blob/main/rules/src/main/resources/docs/");
        }
        List<String> cells = new ArrayList<>();
        NodeList tds = doc.getElementsByTagName("td");
        for (int i = 0; i < tds.getLength(); i++) {
            cells.add(tds.item(i).getTextContent());
        }
        assertThat(cells)
                .as("the file name and the message come back as text, controls as U+FFFD")
                .contains(ReportSupport.xmlText(HOSTILE_FILE) + ":1:1")
                .anySatisfy(c -> assertThat(c).startsWith(ReportSupport.xmlText(HOSTILE)));
    }

    @Test
    void keysMarkdownHoldsSqlAndFileNamesAsText() throws Exception {
        StringWriter out = new StringWriter();
        KeyInventoryWriter.write(inventory(), KeyInventoryWriter.Format.MARKDOWN, out);
        assertNoRawControls(out.toString());
        String html = html(out.toString());
        assertInert(html);
        List<List<String>> rows = rows(html, 0);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)).hasSize(8);
        assertThat(rows.get(0).get(1)).isEqualTo(cell(SQL_KEY) + " (not known)");
        assertThat(rows.get(0).get(7))
                .isEqualTo(cell(HOSTILE_FILE) + ":2:3 pg_advisory_lock(" + cell(SQL_KEY) + ") in "
                        + cell("Job" + HOSTILE) + ".run");
    }

    @Test
    void markdownCodeSpansOutfenceEveryBacktickRun() {
        assertThat(MarkdownText.code("a")).isEqualTo("`a`");
        assertThat(MarkdownText.code("a`b")).isEqualTo("``a`b``");
        assertThat(MarkdownText.code("`a``")).isEqualTo("``` `a`` ```");
        assertThat(MarkdownText.code("a|b\nc")).isEqualTo("`a\\|b c`");
        assertThat(MarkdownText.text("a\\|b")).isEqualTo("a\\\\\\|b");
        assertThat(html("| x |\n|---|\n| " + MarkdownText.text("a\\|b") + " |\n"))
                .contains("<td>a\\|b</td>");
        assertThat(html("| x |\n|---|\n| " + MarkdownText.code("a\\|b`") + " |\n"))
                .contains("<td><code>a\\|b`</code></td>");
    }

    /** One run-time key: its expression is the hostile SQL, at a site in the hostile file of a hostile class. */
    static KeyInventory inventory() {
        LockKey key = new LockKey(KeySpace.BIGINT, List.of(KeyPart.of(KeyPart.Kind.UNKNOWN, SQL_KEY)));
        LockSite site = new LockSite(
                "x#0",
                AdvisoryFunction.PG_ADVISORY_LOCK,
                key,
                new SourceRegion(HOSTILE_FILE, 2, 3, 2, 9),
                null,
                Language.JAVA,
                ExecutionApi.JDBC_STATEMENT,
                new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1"),
                new JavaContext("Job" + HOSTILE, "run", "st.execute", "st", null));
        return KeyInventory.of(new LockModel(List.of(site), List.of()));
    }
}
