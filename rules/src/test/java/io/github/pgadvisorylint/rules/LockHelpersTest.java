package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** Rules seen through lock helpers: methods, chains and AutoCloseable handles that lock with keys from their parameters. */
class LockHelpersTest {

    @Test
    void lifecycleThroughHelpers() {
        FixtureHarness.verify(FixtureHarness.fixture("lock-helpers"), "lock-without-finally-unlock");
    }

    @Test
    void duplicateKeysThroughHelpers() {
        FixtureHarness.verify(FixtureHarness.fixture("lock-helpers"), "duplicate-lock-key");
    }
}
