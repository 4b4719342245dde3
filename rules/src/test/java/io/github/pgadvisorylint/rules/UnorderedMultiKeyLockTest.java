package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

class UnorderedMultiKeyLockTest {

    private static final String RULE = "unordered-multi-key-lock";

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }

    /** A ring through three classes' lock helpers, an open chain, and transfers through a helper. */
    @Test
    void throughHelpers() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE + "-helpers"), RULE);
    }
}
