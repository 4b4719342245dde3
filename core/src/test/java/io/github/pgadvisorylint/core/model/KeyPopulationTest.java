package io.github.pgadvisorylint.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyPopulationTest {

    @Test
    void identifiersSplitIntoLowerCaseWordsWithoutAGetterPrefix() {
        assertThat(KeyPopulation.words("getTenantSlug")).containsExactly("tenant", "slug");
        assertThat(KeyPopulation.words("order_id")).containsExactly("order", "id");
        assertThat(KeyPopulation.words("UUIDValue")).containsExactly("uuid", "value");
        assertThat(KeyPopulation.words("get")).containsExactly("get");
    }

    @Test
    void anEntityWordSaysManyAndNoWordSaysAHandful() {
        assertThat(KeyPopulation.ofIdentifiers(List.of("customerName")).cardinality())
                .isEqualTo(KeyPopulation.Cardinality.MANY);
        assertThat(KeyPopulation.ofIdentifiers(List.of("customerName")).evidence())
                .contains("customer");
        assertThat(KeyPopulation.ofIdentifiers(List.of("jobName", "topic"))).isEqualTo(KeyPopulation.UNKNOWN);
    }

    @Test
    void manyWinsAndAHandfulNeedsEveryInput() {
        KeyPopulation few = KeyPopulation.few("a configuration value");
        KeyPopulation many = KeyPopulation.many("a user value, one key per user");
        assertThat(KeyPopulation.combine(List.of(few, many))).isEqualTo(many);
        assertThat(KeyPopulation.combine(List.of(few, KeyPopulation.UNKNOWN))).isEqualTo(KeyPopulation.UNKNOWN);
        assertThat(KeyPopulation.combine(List.of(few, few))).isEqualTo(few);
        assertThat(KeyPopulation.combine(List.of())).isEqualTo(KeyPopulation.UNKNOWN);
    }
}
