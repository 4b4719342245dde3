package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** Fixture test of duplicate-lock-key: test-fixtures/src/main/resources/fixtures/duplicate-lock-key/. */
class DuplicateLockKeyTest {

    private static final String RULE = "duplicate-lock-key";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
