package io.github.pgadvisorylint.core.facts;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SuppressionTest {

    private static Finding at(int line, String rule) {
        return new Finding(rule, Severity.ERROR, "m", new SourceRegion("A.java", line, 1, line, 2), List.of(), "f");
    }

    @Test
    void commentCoversItsLineAndTheNext() {
        List<Suppression> s = Suppression.fromComments(
                "A.java",
                List.of("x();", "y(); // pg-advisory-lint:ignore lock-in-limit-query -- single-row lookup", "z();"));
        assertThat(s).singleElement().satisfies(sup -> {
            assertThat(sup.ruleIds()).containsExactly("lock-in-limit-query");
            assertThat(sup.reason()).isEqualTo("single-row lookup");
            assertThat(sup.covers(at(2, "lock-in-limit-query"))).isTrue();
            assertThat(sup.covers(at(3, "lock-in-limit-query"))).isTrue();
            assertThat(sup.covers(at(1, "lock-in-limit-query"))).isFalse();
            assertThat(sup.covers(at(2, "other-rule"))).isFalse();
        });
    }

    @Test
    void sqlCommentWithoutIdsCoversEveryRule() {
        List<Suppression> s = Suppression.fromComments("A.java", List.of("-- pg-advisory-lint:ignore"));
        assertThat(s)
                .singleElement()
                .satisfies(sup -> assertThat(sup.covers(at(1, "any"))).isTrue());
    }

    @Test
    void commentWithoutIdsKeepsItsReasonAndIsLocatedAtTheMarker() {
        List<Suppression> s = Suppression.fromComments(
                "A.sql",
                List.of(
                        "select 1; -- pg-advisory-lint:ignore -- reviewed with the DBA",
                        "x(); // pg-advisory-lint:ignore a-rule,other-rule",
                        "x(); // pg-advisory-lint:ignore Lock_In -- odd case is kept for the unknown-id report"));
        assertThat(s).hasSize(3);
        assertThat(s.get(0).ruleIds()).isEmpty();
        assertThat(s.get(0).reason()).isEqualTo("reviewed with the DBA");
        assertThat(s.get(0).location()).isEqualTo(new SourceRegion("A.sql", 1, 14, 1, 62));
        assertThat(s.get(1).ruleIds()).containsExactlyInAnyOrder("a-rule", "other-rule");
        assertThat(s.get(2).ruleIds()).containsExactly("Lock_In");
    }

    @Test
    void annotationValues() {
        assertThat(Suppression.parseAnnotationValue("pg-advisory-lint")).isEmpty();
        assertThat(Suppression.parseAnnotationValue("pg-advisory-lint:a-b")).isEqualTo(Set.of("a-b"));
        assertThat(Suppression.parseAnnotationValue("unchecked")).isNull();
    }
}
