package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** Fixture test of unlock-mismatch: test-fixtures/src/main/resources/fixtures/unlock-mismatch/. */
class UnlockMismatchTest {

    private static final String RULE = "unlock-mismatch";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
