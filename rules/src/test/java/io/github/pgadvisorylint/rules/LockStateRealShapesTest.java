package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/**
 * Shapes met in public repositories that use advisory locks, written anew: a repository mix-in's lock
 * queries in a @Transactional service (unlock after a failed try, in an aborted transaction, before
 * the commit), lock objects passed down or kept in fields, a pooled connection returned before the lock
 * object releases, a try-acquire whose exception path drops the lock, a test's unpooled data source, and a
 * lock method that swallows its own failure for callers in other files.
 */
class LockStateRealShapesTest {

    @Test
    void realShapes() {
        FixtureHarness.verify(FixtureHarness.fixture("lock-state-real"), "lock-without-finally-unlock", "unlock-mismatch",
                "session-unlock-before-commit", "lock-failure-ignored");
    }
}
