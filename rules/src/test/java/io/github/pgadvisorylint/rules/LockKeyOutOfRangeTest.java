package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** Fixture test of lock-key-out-of-range: test-fixtures/src/main/resources/fixtures/lock-key-out-of-range/. */
class LockKeyOutOfRangeTest {

    private static final String RULE = "lock-key-out-of-range";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
