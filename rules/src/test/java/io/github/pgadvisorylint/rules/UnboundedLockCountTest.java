package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** Fixture test of unbounded-lock-count: test-fixtures/src/main/resources/fixtures/unbounded-lock-count/. */
class UnboundedLockCountTest {

    private static final String RULE = "unbounded-lock-count";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
