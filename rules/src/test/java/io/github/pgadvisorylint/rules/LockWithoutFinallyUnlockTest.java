package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/**
 * Fixture tests of lock-without-finally-unlock. Method-local shapes live in one folder; the cases that
 * depend on which unlocks exist anywhere in the project (a key typo, no unlock at all, a pooled
 * connection closed) live in a second folder with no unknown-key unlock that could match them.
 */
class LockWithoutFinallyUnlockTest {

    private static final String RULE = "lock-without-finally-unlock";

    @Test
    void methodLocalShapes() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }

    /**
     * Session locks in SQL files: {@code DO} blocks and PL/pgSQL / SQL function bodies whose unlock an
     * error (or a {@code RETURN}) skips, against bodies whose {@code EXCEPTION} handler releases, bodies
     * with nothing between lock and unlock, and top-level script statements (the session ends with the
     * script).
     */
    @Test
    void sqlBodiesAndScripts() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE + "-sql"), RULE);
    }

    @Test
    void projectWideShapes() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE + "-unreleased"), RULE);
    }
}
