package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** Fixture test of weak-lock-key-hash: test-fixtures/src/main/resources/fixtures/weak-lock-key-hash/. */
class WeakLockKeyHashTest {

    private static final String RULE = "weak-lock-key-hash";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
