package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/**
 * Fixture tests of session-unlock-before-commit: unlocks inside {@code @Transactional} methods (method
 * and class level, propagations), transaction callbacks (TransactionTemplate, anonymous callbacks,
 * jOOQ) and manual JDBC transactions, against unlocks after the commit, transaction-level locks,
 * autocommit, and methods no transaction reaches.
 */
class SessionUnlockBeforeCommitTest {

    private static final String RULE = "session-unlock-before-commit";

    @Test
    void unlocksInsideOpenTransactions() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
