package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** Fixture test of try-lock-result-ignored: test-fixtures/src/main/resources/fixtures/try-lock-result-ignored/. */
class TryLockResultIgnoredTest {

    private static final String RULE = "try-lock-result-ignored";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
