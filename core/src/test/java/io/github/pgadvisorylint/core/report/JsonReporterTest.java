package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class JsonReporterTest {

    private static String render() throws Exception {
        StringWriter w = new StringWriter();
        new JsonReporter().write(SampleResults.sample(), w);
        return w.toString();
    }

    @Test
    void writesTheDocumentedSchema() throws Exception {
        JsonNode doc = new ObjectMapper().readTree(render());
        assertThat(doc.fieldNames())
                .toIterable()
                .containsExactly("schemaVersion", "tool", "summary", "findings", "notifications");
        assertThat(doc.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(doc.at("/tool/name").asText()).isEqualTo("pg-advisory-lint");
        assertThat(doc.at("/tool/version").asText()).isEqualTo(ToolInfo.version());
        assertThat(doc.get("summary"))
                .isEqualTo(new ObjectMapper()
                        .readTree("{\"errors\":1,\"warnings\":1,\"notes\":1,\"files\":412,\"suppressed\":0}"));
        JsonNode first = doc.at("/findings/0");
        assertThat(first.fieldNames())
                .toIterable()
                .containsExactly(
                        "ruleId",
                        "severity",
                        "message",
                        "path",
                        "line",
                        "column",
                        "endLine",
                        "endColumn",
                        "related",
                        "fingerprint",
                        "suppression");
        assertThat(first.get("suppression").isNull()).isTrue();
        assertThat(first.get("path").asText()).isEqualTo("db/my scripts/Zoë.sql");
        assertThat(first.get("severity").asText()).isEqualTo("warning");
        assertThat(first.get("related")).isEmpty();
        JsonNode pooling = doc.at("/findings/2");
        assertThat(pooling.at("/related/0/message").asText()).isEqualTo("pool_mode is transaction here.");
        assertThat(pooling.at("/related/0/line").asInt()).isEqualTo(7);
        assertThat(pooling.get("fingerprint").asText()).isEqualTo("a1b2c3d4e5f60718");
        JsonNode note = doc.at("/notifications/0");
        assertThat(note.fieldNames())
                .toIterable()
                .containsExactly("level", "kind", "message", "path", "line", "column", "endLine", "endColumn");
        assertThat(note.get("kind").asText()).isEqualTo("java-parse-error");
    }

    @Test
    void validatesAgainstTheDocumentedJsonSchema() throws Exception {
        assertThat(JsonSchemaCheck.validate(render())).isEmpty();
        StringWriter w = new StringWriter();
        new JsonReporter(true).write(SampleResults.withSuppressed(), w);
        assertThat(JsonSchemaCheck.validate(w.toString())).isEmpty();
        StringWriter empty = new StringWriter();
        new JsonReporter().write(SampleResults.empty(), empty);
        assertThat(JsonSchemaCheck.validate(empty.toString())).isEmpty();
    }

    @Test
    void theSchemaRejectsWhatItShould() {
        assertThat(JsonSchemaCheck.validate("{\"schemaVersion\": 2}")).isNotEmpty();
    }

    @Test
    void suppressedFindingsOnlyOnRequest() throws Exception {
        StringWriter hidden = new StringWriter();
        new JsonReporter().write(SampleResults.withSuppressed(), hidden);
        JsonNode doc = new ObjectMapper().readTree(hidden.toString());
        assertThat(doc.get("findings")).hasSize(3);
        assertThat(doc.at("/summary/suppressed").asInt()).isEqualTo(2);

        StringWriter shown = new StringWriter();
        new JsonReporter(true).write(SampleResults.withSuppressed(), shown);
        JsonNode all = new ObjectMapper().readTree(shown.toString());
        assertThat(all.get("findings")).hasSize(5);
        assertThat(all.get("findings").findValues("suppression"))
                .filteredOn(n -> !n.isNull())
                .extracting(n -> n.get("kind").asText())
                .containsExactlyInAnyOrder("inSource", "external");
        assertThat(all.get("findings").findValues("suppression"))
                .filteredOn(n -> !n.isNull())
                .extracting(n -> n.get("justification").asText())
                .contains("single-row lookup by primary key");
    }

    @Test
    void isDeterministic() throws Exception {
        String a = render();
        assertThat(render()).isEqualTo(a);
        assertThat(a).endsWith("}\n").doesNotContain("/tmp/checkout").doesNotContain("\r");
    }
}
