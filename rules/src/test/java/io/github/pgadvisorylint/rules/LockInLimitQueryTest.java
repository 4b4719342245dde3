package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** Fixture test of lock-in-limit-query: test-fixtures/src/main/resources/fixtures/lock-in-limit-query/. */
class LockInLimitQueryTest {

    private static final String RULE = "lock-in-limit-query";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
