package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/**
 * Fixture tests of the lock-state analysis (core.flow) as the lifecycle rules read it: locks handed over
 * with a returned connection, lock objects passed down or kept in fields, retry loops, unlocks guarded by
 * a try-lock's result, aborted manual transactions, and unlocks on the wrong connection.
 */
class LockStatePathsTest {

    @Test
    void pathShapes() {
        FixtureHarness.verify(FixtureHarness.fixture("lock-state-paths"), "lock-without-finally-unlock", "unlock-mismatch");
    }
}
