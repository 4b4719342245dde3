package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/**
 * Fixture tests of blocking-lock-without-timeout: test-fixtures/src/main/resources/fixtures/
 * blocking-lock-without-timeout*; the -configured and -url folders set lock_timeout for every
 * connection in configuration, so the rule is silent there.
 */
class BlockingLockWithoutTimeoutTest {

    private static final String RULE = "blocking-lock-without-timeout";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }

    @Test
    void dataSourceOptionsSetTheTimeout() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE + "-configured"), RULE, "try-lock-result-ignored");
    }

    @Test
    void jdbcUrlOptionsSetTheTimeout() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE + "-url"), RULE, "try-lock-result-ignored");
    }
}
