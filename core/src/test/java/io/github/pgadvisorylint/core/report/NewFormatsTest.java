package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** SARIF with suppressions, GitHub workflow commands, Checkstyle XML, Markdown, coloured text. */
class NewFormatsTest {

    private static String render(Reporter reporter, AnalysisResult result) throws Exception {
        StringWriter w = new StringWriter();
        reporter.write(result, w);
        return w.toString();
    }

    /** @return the sample with suppressions plus one error at {@code A.java:3:1} with that message */
    private static AnalysisResult withTrickyFinding(String message) {
        AnalysisResult base = SampleResults.withSuppressed();
        List<Finding> findings = new ArrayList<>(base.findings());
        findings.add(new Finding(
                "lock-in-limit-query",
                Severity.ERROR,
                message,
                new SourceRegion("A.java", 3, 1, 3, 5),
                List.of(),
                "abcdefabcdef0000"));
        return base.withFindings(findings, base.suppressed());
    }

    // --- SARIF -------------------------------------------------------------------------------

    @Test
    void sarifLeavesSuppressedResultsOutByDefault() throws Exception {
        JsonNode log = new ObjectMapper().readTree(render(new SarifReporter(), SampleResults.withSuppressed()));
        assertThat(log.at("/runs/0/results")).hasSize(3);
        assertThat(log.at("/runs/0/results").findValues("suppressions")).isEmpty();
    }

    @Test
    void sarifShowsSuppressedResultsWithSuppressionsAndStaysSchemaValid() throws Exception {
        String sarif = render(new SarifReporter(true), SampleResults.withSuppressed());
        assertThat(SarifSchemaCheck.violations(sarif)).isEmpty();
        JsonNode results = new ObjectMapper().readTree(sarif).at("/runs/0/results");
        assertThat(results).hasSize(5);
        List<JsonNode> suppressed = new ArrayList<>();
        for (JsonNode r : results) {
            assertThat(r.has("suppressions"))
                    .as("every result says whether it is suppressed")
                    .isTrue();
            if (!r.get("suppressions").isEmpty()) {
                suppressed.add(r);
            }
        }
        assertThat(suppressed).hasSize(2);
        JsonNode inSource = suppressed.stream()
                .filter(r -> r.at("/suppressions/0/kind").asText().equals("inSource"))
                .findFirst()
                .orElseThrow();
        assertThat(inSource.at("/suppressions/0/justification").asText()).isEqualTo("single-row lookup by primary key");
        assertThat(inSource.at("/suppressions/0/status").asText()).isEqualTo("accepted");
        assertThat(inSource.at("/suppressions/0/location/physicalLocation/region/startColumn")
                        .asInt())
                .isEqualTo(50);
        JsonNode external = suppressed.stream()
                .filter(r -> r.at("/suppressions/0/kind").asText().equals("external"))
                .findFirst()
                .orElseThrow();
        assertThat(external.at("/suppressions/0/location/physicalLocation/artifactLocation/uri")
                        .asText())
                .isEqualTo("baseline.json");
    }

    // --- GitHub --------------------------------------------------------------------------------

    private static final Pattern COMMAND = Pattern.compile("^::(error|warning|notice) ([^:]*)::(.*)$");

    @Test
    void githubWritesOneWorkflowCommandPerFindingAndNotification() throws Exception {
        String out = render(new GithubReporter(), SampleResults.withSuppressed());
        List<String> lines = out.lines().toList();
        assertThat(lines).hasSize(4);
        for (String line : lines) {
            assertThat(line).matches(COMMAND.pattern());
        }
        Matcher first = COMMAND.matcher(lines.get(0));
        assertThat(first.matches()).isTrue();
        assertThat(first.group(1)).isEqualTo("warning");
        assertThat(first.group(2))
                .isEqualTo("file=db/my scripts/Zoë.sql,line=3,col=8,endLine=3,endColumn=29,"
                        + "title=pg-advisory-lint [lock-in-limit-query]");
        assertThat(lines.get(1)).startsWith("::notice file=src/main/java/com/acme/InvoiceJob.java,line=12,endLine=13,");
        assertThat(lines.get(2))
                .startsWith("::error file=src/main/java/com/acme/InvoiceJob.java,line=41,col=17,")
                .contains("Related: src/main/resources/application.yml:7 (pool_mode is transaction here.);"
                        + " pgbouncer.ini:2 (PgBouncer configuration.)");
        assertThat(lines.get(3))
                .startsWith("::error file=src/Broken.java,line=9,title=pg-advisory-lint [tool%3Ajava-parse-error]::");
        assertThat(out).doesNotContain("Suppressed in source").doesNotContain("Baselined");
    }

    @Test
    void githubEscapesDataAndProperties() {
        String line = GithubReporter.command(
                Severity.ERROR,
                new SourceRegion("a,b:c%.java", 2, 3, 2, 9),
                "t:1,2",
                "100% sure\r\nnext: line, really");
        assertThat(line)
                .isEqualTo("::error file=a%2Cb%3Ac%25.java,line=2,col=3,endLine=2,endColumn=8,title=t%3A1%2C2"
                        + "::100%25 sure%0D%0Anext: line, really\n");
    }

    // --- Checkstyle -----------------------------------------------------------------------------

    @Test
    void checkstyleIsWellFormedSortedAndEscaped() throws Exception {
        String xml = render(new CheckstyleReporter(), withTrickyFinding("a < b && \"c\" > 'd'\u0001 end\nnext"));
        assertThat(xml).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        Document doc =
                DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
        Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("checkstyle");
        assertThat(root.getAttribute("version")).isEqualTo(ToolInfo.version());
        NodeList files = root.getElementsByTagName("file");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < files.getLength(); i++) {
            names.add(((Element) files.item(i)).getAttribute("name"));
        }
        assertThat(names)
                .containsExactly(
                        "A.java", "db/my scripts/Zoë.sql", "src/Broken.java", "src/main/java/com/acme/InvoiceJob.java");
        Element a = (Element)
                ((Element) files.item(0)).getElementsByTagName("error").item(0);
        assertThat(a.getAttribute("message")).isEqualTo("a < b && \"c\" > 'd'\uFFFD end next");
        assertThat(a.getAttribute("severity")).isEqualTo("error");
        assertThat(a.getAttribute("source")).isEqualTo("pg-advisory-lint.lock-in-limit-query");
        NodeList job = ((Element) files.item(3)).getElementsByTagName("error");
        assertThat(job.getLength()).as("suppressed findings are left out").isEqualTo(2);
        assertThat(((Element) job.item(0)).getAttribute("line")).isEqualTo("12");
        assertThat(((Element) job.item(0)).getAttribute("severity")).isEqualTo("info");
        assertThat(((Element) job.item(1)).getAttribute("line")).isEqualTo("41");
        assertThat(((Element) job.item(1)).getAttribute("column")).isEqualTo("17");
        Element broken = (Element)
                ((Element) files.item(2)).getElementsByTagName("error").item(0);
        assertThat(broken.getAttribute("source")).isEqualTo("pg-advisory-lint.tool.java-parse-error");
    }

    @Test
    void checkstyleOfACleanScanIsAnEmptyRoot() throws Exception {
        String xml = render(new CheckstyleReporter(), SampleResults.empty());
        assertThat(xml.strip()).endsWith("<checkstyle version=\"" + ToolInfo.version() + "\">\n</checkstyle>");
    }

    // --- Markdown ------------------------------------------------------------------------------

    @Test
    void markdownHasACountTableAndTheFindings() throws Exception {
        String md = render(new MarkdownReporter(), SampleResults.withSuppressed());
        assertThat(md).startsWith("## pg-advisory-lint\n\n**1 error, 1 warning, 1 note** in 412 files.\n");
        assertThat(md)
                .contains("| Rule | Errors | Warnings | Notes |\n|---|---:|---:|---:|\n"
                        + "| `lock-in-limit-query` | 0 | 1 | 1 |\n"
                        + "| `session-lock-under-transaction-pooling` | 1 | 0 | 0 |\n");
        assertThat(md)
                .contains("| warning | `db/my scripts/Zoë.sql:3:8` | `lock-in-limit-query` | "
                        + "pg\\_advisory\\_lock(id) in a query with LIMIT may lock rows\\[\\] it does not return |");
        assertThat(md).contains("2 findings suppressed").contains("1 tool notification");
        assertThat(md.lines()
                        .filter(l ->
                                l.startsWith("| error |") || l.startsWith("| warning |") || l.startsWith("| note |")))
                .hasSize(3);
    }

    @Test
    void markdownEscapesTableCells() {
        assertThat(MarkdownText.text("a|b <x> `c`\nd")).isEqualTo("a\\|b \\<x\\> \\`c\\` d");
    }

    @Test
    void markdownOfACleanScan() throws Exception {
        assertThat(render(new MarkdownReporter(), SampleResults.empty()))
                .isEqualTo("## pg-advisory-lint\n\n**No findings** in 1 file.\n");
    }

    // --- HTML ------------------------------------------------------------------------------------

    /** Parses the page as XML (it is XHTML-compatible), which also proves no text added markup. */
    static Document parseHtml(String html) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        return f.newDocumentBuilder().parse(new InputSource(new StringReader(html)));
    }

    @Test
    void htmlIsOnePageWithCountsRulesFindingsAndNotifications() throws Exception {
        String html =
                render(new HtmlReporter(), withTrickyFinding("a < b && \"c\" > 'd'\u0001 <script>alert(1)</script>"));
        assertThat(html).startsWith("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>");
        Document doc = parseHtml(html);
        assertThat(doc.getElementsByTagName("script").getLength()).isZero();
        assertThat(doc.getElementsByTagName("h1").item(0).getTextContent()).isEqualTo("pg-advisory-lint");
        assertThat(html).contains("<p>2 errors, 1 warning, 1 note in 412 files.</p>");
        NodeList tables = doc.getElementsByTagName("table");
        assertThat(tables.getLength()).as("rules, findings, notifications").isEqualTo(3);
        NodeList findingRows = ((Element) tables.item(1)).getElementsByTagName("tr");
        assertThat(findingRows.getLength())
                .as("a header and the four active findings")
                .isEqualTo(5);
        Element first = (Element) findingRows.item(1);
        assertThat(first.getAttribute("class")).isEqualTo("error");
        assertThat(first.getTextContent())
                .contains("A.java:3:1")
                .contains("a < b && \"c\" > 'd'\uFFFD <script>alert(1)</script>");
        Element link = (Element) first.getElementsByTagName("a").item(0);
        assertThat(link.getAttribute("href")).isEqualTo(ToolInfo.ruleHelpUri("lock-in-limit-query"));
        assertThat(html).contains("2 findings suppressed (in source or by the baseline), not listed.");
        assertThat(((Element) tables.item(2)).getTextContent()).contains("java-parse-error");
    }

    @Test
    void htmlOfACleanScanSaysSo() throws Exception {
        String html = render(new HtmlReporter(), SampleResults.empty());
        Document doc = parseHtml(html);
        assertThat(doc.getElementsByTagName("table").getLength()).isZero();
        assertThat(html).contains("<p>No findings in 1 file.</p>");
        assertThat(render(new HtmlReporter(), SampleResults.empty()))
                .as("deterministic")
                .isEqualTo(html);
    }

    // --- Text ------------------------------------------------------------------------------------

    @Test
    void textIsColouredOnlyOnRequestAndCountsSuppressed() throws Exception {
        String plain = render(new TextReporter(List.of(), false), SampleResults.withSuppressed());
        assertThat(plain).doesNotContain("\u001b[").contains("; 2 suppressed");
        String coloured = render(new TextReporter(List.of(), true), SampleResults.withSuppressed());
        assertThat(coloured)
                .contains("\u001b[1;31merror\u001b[0m \u001b[2m[session-lock-under-transaction-pooling]\u001b[0m");
        assertThat(coloured.replaceAll("\u001b\\[[0-9;]*m", "")).isEqualTo(plain);
    }

    @Test
    void everyFormatHasAReporter() {
        for (ReportFormat f : ReportFormat.values()) {
            assertThat(f.reporter(ReportOptions.defaults())).isNotNull();
            assertThat(ReportFormat.parse(f.id().toUpperCase(Locale.ROOT))).isEqualTo(f);
        }
    }
}
