package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * blocking-lock-without-timeout beyond its fixture markers (which {@link RuleFixturesTest} checks, in
 * fixtures/blocking-lock-without-timeout/ and its projects/configured and projects/url, whose
 * configuration sets lock_timeout for every connection): the rule is off by default and runs only when
 * switched on.
 */
class BlockingLockWithoutTimeoutTest {

    private static final String RULE = "blocking-lock-without-timeout";

    /** The rule is off by default: a plain analysis runs it only when the configuration switches it on. */
    @Test
    void offByDefaultAndSwitchedOnByConfiguration() {
        Path folder = FixtureHarness.fixture(RULE);
        List<Rule> rules = RuleRegistry.load(getClass().getClassLoader());
        assertThat(rules.stream()
                        .filter(r -> r.descriptor().id().equals(RULE))
                        .findFirst()
                        .orElseThrow()
                        .descriptor()
                        .enabledByDefault())
                .isFalse();
        AnalysisResult plain =
                FixtureHarness.analyzerBuilder(folder).rules(rules).build().analyze(folder, List.of(folder));
        assertThat(plain.findings()).noneMatch(f -> f.ruleId().equals(RULE));
        assertThat(plain.rules()).noneMatch(d -> d.id().equals(RULE));
        AnalysisResult on = FixtureHarness.analyzerBuilder(folder)
                .rules(rules)
                .enabledRules(Set.of(RULE))
                .build()
                .analyze(folder, List.of(folder));
        assertThat(on.findings()).anyMatch(f -> f.ruleId().equals(RULE));
        AnalysisResult onThenOff = FixtureHarness.analyzerBuilder(folder)
                .rules(rules)
                .enabledRules(Set.of(RULE))
                .disabledRules(Set.of(RULE))
                .build()
                .analyze(folder, List.of(folder));
        assertThat(onThenOff.findings()).noneMatch(f -> f.ruleId().equals(RULE));
    }
}
