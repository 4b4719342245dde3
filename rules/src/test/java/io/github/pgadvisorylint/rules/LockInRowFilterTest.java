package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** Fixture test of lock-in-row-filter: test-fixtures/src/main/resources/fixtures/lock-in-row-filter/. */
class LockInRowFilterTest {

    private static final String RULE = "lock-in-row-filter";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
