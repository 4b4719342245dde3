package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class SarifReporterTest {

    private final SarifReporter reporter = new SarifReporter();
    private final ObjectMapper mapper = new ObjectMapper();

    private String render(AnalysisResult result) throws Exception {
        StringWriter w = new StringWriter();
        reporter.write(result, w);
        return w.toString();
    }

    @Test
    void isValidAgainstTheSarif210Schema() throws Exception {
        assertThat(SarifSchemaCheck.violations(render(SampleResults.sample()))).isEmpty();
        assertThat(SarifSchemaCheck.violations(render(SampleResults.empty()))).isEmpty();
    }

    @Test
    void aPathFindingIsOneCodeFlowThroughItsStepsInOrder() throws Exception {
        AnalysisResult base = SampleResults.sample();
        SourceRegion lock = new SourceRegion("src/main/java/com/example/Job.java", 10, 9, 10, 40);
        SourceRegion unlock = new SourceRegion("src/main/java/com/example/Job.java", 14, 13, 14, 46);
        Finding early = new Finding(
                "session-unlock-before-commit",
                Severity.ERROR,
                "released before the commit",
                unlock,
                List.of(new RelatedLocation(lock, "the lock")),
                "0123456789abcdef",
                null,
                List.of(
                        new RelatedLocation(lock, "the lock is taken here"),
                        new RelatedLocation(unlock, "the unlock runs here [inside] the transaction")));
        String sarif = render(base.withFindings(List.of(early), List.of()));
        assertThat(SarifSchemaCheck.violations(sarif)).isEmpty();
        JsonNode steps = mapper.readTree(sarif).at("/runs/0/results/0/codeFlows/0/threadFlows/0/locations");
        assertThat(steps).hasSize(2);
        assertThat(steps.get(0)
                        .at("/location/physicalLocation/region/startLine")
                        .asInt())
                .isEqualTo(10);
        assertThat(steps.get(1).at("/location/message/text").asText())
                .isEqualTo("the unlock runs here \\[inside\\] the transaction");
        assertThat(mapper.readTree(render(base)).at("/runs/0/results/0").has("codeFlows"))
                .as("a finding without a path has none")
                .isFalse();
    }

    @Test
    void schemaCheckRejectsAResultWithoutMessage() throws Exception {
        ObjectNode log = (ObjectNode) mapper.readTree(render(SampleResults.sample()));
        ((ObjectNode) log.at("/runs/0/results/0")).remove("message");
        assertThat(SarifSchemaCheck.violations(mapper.writeValueAsString(log)))
                .anySatisfy(v -> assertThat(v).contains("message"));
    }

    @Test
    void writesLogToolAndRules() throws Exception {
        JsonNode log = mapper.readTree(render(SampleResults.sample()));
        assertThat(log.get("$schema").asText()).isEqualTo("https://json.schemastore.org/sarif-2.1.0.json");
        assertThat(log.get("version").asText()).isEqualTo("2.1.0");
        assertThat(log.get("runs")).hasSize(1);
        JsonNode run = log.at("/runs/0");
        JsonNode driver = run.at("/tool/driver");
        assertThat(driver.get("name").asText()).isEqualTo("pg-advisory-lint");
        assertThat(driver.get("version").asText())
                .isNotBlank()
                .doesNotContain("${")
                .isEqualTo(ToolInfo.version());
        assertThat(driver.get("informationUri").asText()).startsWith("https://");
        assertThat(driver.get("fullName").asText()).isEqualTo("pg-advisory-lint " + ToolInfo.version());
        assertThat(run.at("/automationDetails/id").asText()).isEqualTo("pg-advisory-lint/");
        assertThat(driver.get("rules")).hasSize(2);
        JsonNode rule = driver.at("/rules/1");
        assertThat(rule.get("id").asText()).isEqualTo("session-lock-under-transaction-pooling");
        assertThat(rule.get("name").asText()).isEqualTo("SessionLockUnderTransactionPooling");
        assertThat(rule.at("/shortDescription/text").asText())
                .isEqualTo("Short session-lock-under-transaction-pooling.");
        assertThat(rule.at("/fullDescription/text").asText()).startsWith("Full description");
        assertThat(rule.at("/help/text").asText()).startsWith("Full description");
        assertThat(rule.at("/help/markdown").asText()).startsWith("# session-lock-under-transaction-pooling\n");
        assertThat(rule.get("helpUri").asText())
                .isEqualTo(ToolInfo.INFORMATION_URI
                        + "/blob/main/rules/src/main/resources/docs/session-lock-under-transaction-pooling.md");
        assertThat(rule.at("/defaultConfiguration/level").asText()).isEqualTo("error");
        assertThat(rule.at("/properties/tags/0").asText()).isEqualTo("correctness");
        assertThat(rule.at("/properties/precision").asText()).isEqualTo("high");
        assertThat(driver.at("/rules/0/properties/precision").asText()).isEqualTo("medium");
        assertThat(run.get("columnKind").asText()).isEqualTo("utf16CodeUnits");
        JsonNode srcroot = run.at("/originalUriBaseIds/%SRCROOT%");
        assertThat(srcroot.has("uri"))
                .as("no absolute root URI, for byte-identical output")
                .isFalse();
        assertThat(srcroot.at("/description/text").asText()).isNotBlank();
    }

    @Test
    void rulesAreNeverSecurityQueries() throws Exception {
        JsonNode rules = mapper.readTree(render(SampleResults.sample())).at("/runs/0/tool/driver/rules");
        for (JsonNode rule : rules) {
            // GitHub files a result as a security alert only with a "security" tag and a security-severity
            assertThat(rule.at("/properties").has("security-severity")).isFalse();
            List<String> tags = new ArrayList<>();
            rule.at("/properties/tags").forEach(t -> tags.add(t.asText()));
            assertThat(tags).isNotEmpty().doesNotContain("security");
            assertThat(rule.at("/properties/precision").asText()).isIn("very-high", "high", "medium", "low");
        }
        assertThatThrownBy(() -> new RuleDescriptor(
                        "a-rule", "ARule", Severity.NOTE, "s", "f", "m", List.of("correctness", "Security")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("security alerts");
    }

    @Test
    void writesResultsSortedWithRelativeEncodedUrisRegionsLinksAndFingerprints() throws Exception {
        JsonNode results = mapper.readTree(render(SampleResults.sample())).at("/runs/0/results");
        assertThat(results).hasSize(3);

        JsonNode odd = results.get(0);
        assertThat(odd.get("ruleId").asText()).isEqualTo("lock-in-limit-query");
        assertThat(odd.get("ruleIndex").asInt()).isZero();
        assertThat(odd.get("level").asText()).isEqualTo("warning");
        assertThat(odd.at("/message/text").asText())
                .isEqualTo("pg_advisory_lock(id) in a query with LIMIT may lock rows\\[\\] it does not return");
        JsonNode loc = odd.at("/locations/0/physicalLocation");
        assertThat(loc.at("/artifactLocation/uri").asText()).isEqualTo("db/my%20scripts/Zo%C3%AB.sql");
        assertThat(loc.at("/artifactLocation/uriBaseId").asText()).isEqualTo("%SRCROOT%");
        assertThat(loc.get("region"))
                .isEqualTo(mapper.readTree("{\"startLine\":3,\"startColumn\":8,\"endLine\":3,\"endColumn\":30}"));
        assertThat(odd.has("relatedLocations")).isFalse();
        assertThat(odd.at("/partialFingerprints/pgAdvisoryLint~1v1").asText()).isEqualTo("0011223344556677");

        assertThat(results.get(1).get("level").asText()).isEqualTo("note");

        JsonNode pooling = results.get(2);
        assertThat(pooling.get("ruleIndex").asInt()).isEqualTo(1);
        assertThat(pooling.at("/message/text").asText())
                .isEqualTo("pg_try_advisory_lock(9001) takes a session-level lock under transaction pooling."
                        + " Related: [src/main/resources/application.yml:7](1), [pgbouncer.ini:2](2).");
        JsonNode related = pooling.get("relatedLocations");
        assertThat(related).hasSize(2);
        assertThat(related.at("/0/id").asInt()).isEqualTo(1);
        assertThat(related.at("/0/message/text").asText()).isEqualTo("pool_mode is transaction here.");
        assertThat(related.at("/0/physicalLocation/artifactLocation/uri").asText())
                .isEqualTo("src/main/resources/application.yml");
        assertThat(related.at("/1/id").asInt()).isEqualTo(2);
        assertThat(related.at("/1/physicalLocation/region"))
                .as("whole line: lines only")
                .isEqualTo(mapper.readTree("{\"startLine\":2,\"endLine\":2}"));
        assertThat(pooling.get("partialFingerprints").toString()).doesNotContain("41");
    }

    @Test
    void reportsNotificationsInTheInvocation() throws Exception {
        JsonNode invocation = mapper.readTree(render(SampleResults.sample())).at("/runs/0/invocations/0");
        assertThat(invocation.get("executionSuccessful").asBoolean()).isFalse();
        JsonNode note = invocation.at("/toolExecutionNotifications/0");
        assertThat(note.get("level").asText()).isEqualTo("error");
        assertThat(note.at("/descriptor/id").asText()).isEqualTo("java-parse-error");
        assertThat(note.at("/message/text").asText()).isEqualTo("cannot parse: unexpected token '}'");
        assertThat(note.at("/locations/0/physicalLocation/artifactLocation/uri").asText())
                .isEqualTo("src/Broken.java");
        assertThat(note.at("/locations/0/physicalLocation/region/startLine").asInt())
                .isEqualTo(9);

        JsonNode clean = mapper.readTree(render(SampleResults.empty())).at("/runs/0/invocations/0");
        assertThat(clean.get("executionSuccessful").asBoolean()).isTrue();
        assertThat(clean.get("toolExecutionNotifications")).isEmpty();
    }

    @Test
    void isByteIdenticalForTheSameResultWhateverTheInputOrder() throws Exception {
        AnalysisResult a = SampleResults.sample();
        List<Finding> reversed = new ArrayList<>(a.findings());
        Collections.reverse(reversed);
        List<RuleDescriptor> rules = new ArrayList<>(a.rules());
        Collections.reverse(rules);
        AnalysisResult b = new AnalysisResult(
                a.root().resolve("elsewhere"),
                rules,
                reversed,
                a.notifications(),
                a.model(),
                a.filesScanned(),
                a.filesAnalyzed(),
                123_456);
        byte[] first = reporter.toBytes(a);
        assertThat(reporter.toBytes(a)).isEqualTo(first);
        assertThat(reporter.toBytes(b)).isEqualTo(first);
        String text = new String(first, StandardCharsets.UTF_8);
        assertThat(text)
                .endsWith("}\n")
                .doesNotContain("\r")
                .doesNotContain("/tmp/checkout")
                .contains("\"version\": \"2.1.0\"")
                .contains("\"results\": [");
        assertThat(render(a)).isEqualTo(text);
    }

    @Test
    void encodesUrisPerRfc3986() {
        assertThat(SarifReporter.relativeUri("a b/ç/x#y%z?.java")).isEqualTo("a%20b/%C3%A7/x%23y%25z%3F.java");
        // model paths are '/'-separated on every platform; a backslash is part of a (Linux) file name
        assertThat(SarifReporter.relativeUri("dir\\Win.java")).isEqualTo("dir%5CWin.java");
        assertThat(SarifReporter.relativeUri("c:d/€~_-.sql")).isEqualTo("c%3Ad/%E2%82%AC~_-.sql");
    }
}
