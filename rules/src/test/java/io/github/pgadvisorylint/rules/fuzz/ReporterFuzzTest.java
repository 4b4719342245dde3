package io.github.pgadvisorylint.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.report.ReportFormat;
import io.github.pgadvisorylint.core.report.ReportOptions;
import io.github.pgadvisorylint.core.report.SarifReporter;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.fixtures.SarifSchema;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;

/**
 * Every report writer (text, JSON, SARIF, GitHub, Checkstyle, Markdown) fed findings, notifications
 * and rules whose messages, paths, rule ids and descriptions hold arbitrary Unicode, lone surrogates,
 * control characters, markup and very long strings: it writes its file as a scan does (through
 * {@code AtomicFiles}) without throwing, the file is well-formed UTF-8, the same result gives the
 * same bytes, JSON and SARIF parse back with every finding, Checkstyle XML parses back with every row,
 * and small SARIF logs validate against the SARIF 2.1.0 schema. How hostile text is escaped for each
 * format is the escaping tests' business, not this harness's.
 */
@AddLifecycleHook(FuzzBudget.class)
class ReporterFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static Path dir;

    @BeforeContainer
    static void createDirectory() throws Exception {
        dir = Files.createTempDirectory("report-fuzz");
    }

    @AfterContainer
    static void deleteDirectory() throws Exception {
        Trees.delete(dir);
    }

    @Provide
    Arbitrary<AnalysisResult> results() {
        return Hostile.result(8);
    }

    @Provide
    Arbitrary<ReportOptions> options() {
        return Combinators.combine(
                        Arbitraries.of(true, false),
                        Arbitraries.of(true, false),
                        Hostile.text().list().ofMaxSize(2),
                        Arbitraries.oneOf(Arbitraries.just(null), Hostile.text()))
                .as(ReportOptions::new);
    }

    @Property(tries = 300, seed = "2707006")
    void everyFormatWritesWellFormedRepeatableOutput(
            @ForAll("results") AnalysisResult result, @ForAll("options") ReportOptions options) throws Exception {
        for (ReportFormat format : ReportFormat.values()) {
            Path file = dir.resolve("report." + format.id());
            String once = Guard.call(format.id(), () -> Reports.write(format.reporter(options), result, file));
            String again = Guard.call(format.id(), () -> Reports.write(format.reporter(options), result, file));
            assertThat(again).as(format.id()).isEqualTo(once);
            // a report ends with a line end, unless it is empty (GitHub annotations of a clean run)
            assertThat(once.isEmpty() || once.endsWith("\n")).as(format.id()).isTrue();
            switch (format) {
                case JSON -> checkJson(once, result, options.showSuppressed());
                case SARIF -> checkSarif(once, result, options.showSuppressed());
                case CHECKSTYLE -> checkCheckstyle(once, result);
                default -> {}
            }
        }
    }

    @Provide
    Arbitrary<AnalysisResult> smallResults() {
        return Hostile.result(2);
    }

    @Property(tries = 100, seed = "2707007")
    void smallSarifLogsAreValidSarif(@ForAll("smallResults") AnalysisResult result, @ForAll boolean suppressed)
            throws Exception {
        String sarif = Reports.write(new SarifReporter(suppressed), result, dir.resolve("small.sarif"));
        SarifSchema.assertValid(sarif);
    }

    private static List<Finding> shown(AnalysisResult result, boolean showSuppressed) {
        List<Finding> all = new ArrayList<>(result.findings());
        if (showSuppressed) {
            all.addAll(result.suppressed());
        }
        return all;
    }

    /** Sorted "rule id, path, message" of each finding, to compare what was written with what was given. */
    private static List<String> keys(List<Finding> findings) {
        return findings.stream()
                .map(f -> Hostile.wellFormed(f.ruleId() + "\u0000" + f.region().path() + "\u0000" + f.message()))
                .sorted()
                .toList();
    }

    private static void checkJson(String text, AnalysisResult result, boolean showSuppressed) throws Exception {
        JsonNode doc = JSON.readTree(text);
        List<String> written = new ArrayList<>();
        doc.get("findings")
                .forEach(f -> written.add(
                        f.get("ruleId").textValue() + "\u0000" + f.get("path").textValue() + "\u0000"
                                + f.get("message").textValue()));
        written.sort(null);
        assertThat(written).isEqualTo(keys(shown(result, showSuppressed)));
        assertThat(doc.get("notifications")).hasSize(result.notifications().size());
    }

    private static void checkSarif(String text, AnalysisResult result, boolean showSuppressed) throws Exception {
        JsonNode log = JSON.readTree(text);
        JsonNode run = log.get("runs").get(0);
        List<String> written = new ArrayList<>();
        run.get("results")
                .forEach(r -> written.add(r.get("ruleId").textValue() + "\u0000"
                        + r.at("/locations/0/physicalLocation/artifactLocation/uri")
                                .textValue()));
        written.sort(null);
        assertThat(written)
                .isEqualTo(shown(result, showSuppressed).stream()
                        .map(f -> Hostile.wellFormed(f.ruleId()) + "\u0000"
                                + SarifReporter.relativeUri(f.region().path()))
                        .sorted()
                        .toList());
        assertThat(run.get("tool").get("driver").get("rules"))
                .hasSize(result.rules().size());
    }

    private static void checkCheckstyle(String text, AnalysisResult result) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        Document doc = factory.newDocumentBuilder().parse(new InputSource(new StringReader(text)));
        assertThat(doc.getElementsByTagName("error").getLength())
                .isEqualTo(result.findings().size() + result.notifications().size());
    }
}
