package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.report.SarifReporter;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every installed rule's SARIF descriptor: a precision GitHub reads, and tags that never make GitHub
 * file its findings as security alerts.
 */
class RuleSarifPropertiesTest {

    @Test
    void everyRuleHasAPrecisionAndNoSecurityTag() {
        List<RuleDescriptor> rules =
                RuleRegistry.load().stream().map(Rule::descriptor).toList();
        AnalysisResult empty = new AnalysisResult(
                Path.of("."), rules, List.of(), List.of(), new LockModel(List.of(), List.of()), 0, 0, 0);
        JsonNode written = new SarifReporter().toSarif(empty).at("/runs/0/tool/driver/rules");
        assertThat(written).hasSize(rules.size());
        Map<String, String> precision = new TreeMap<>();
        for (JsonNode rule : written) {
            JsonNode properties = rule.get("properties");
            assertThat(properties.has("security-severity"))
                    .as(rule.get("id").asText())
                    .isFalse();
            List<String> tags = new ArrayList<>();
            properties.get("tags").forEach(t -> tags.add(t.asText()));
            assertThat(tags).as(rule.get("id").asText()).isNotEmpty().doesNotContain("security");
            precision.put(rule.get("id").asText(), properties.get("precision").asText());
        }
        assertThat(precision.values())
                .allMatch(p -> List.of("very-high", "high", "medium", "low").contains(p));
        // the precisions follow from what each rule rests on (written next to its constructor call)
        assertThat(precision)
                .containsEntry("lock-key-out-of-range", "very-high")
                .containsEntry("unused-suppression", "very-high")
                .containsEntry("lock-in-limit-query", "high")
                .containsEntry("lock-without-finally-unlock", "medium")
                .containsEntry("blocking-lock-without-timeout", "low");
    }
}
