package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

class UnorderedMultiKeyLockTest {

    @Test
    void fixtures() {
        FixtureHarness.verify(FixtureHarness.fixture("unordered-multi-key-lock"), "unordered-multi-key-lock");
    }
}
