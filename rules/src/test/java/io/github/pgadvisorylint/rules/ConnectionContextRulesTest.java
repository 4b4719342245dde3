package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/** The rules that read a lock site's transaction and connection context. */
class ConnectionContextRulesTest {

    @Test
    void unpinnedSessionLock() {
        FixtureHarness.verify(FixtureHarness.fixture("unpinned-session-lock"), "unpinned-session-lock");
    }

    @Test
    void xactLockOutsideTransaction() {
        FixtureHarness.verify(FixtureHarness.fixture("xact-lock-outside-transaction"), "xact-lock-outside-transaction");
    }

    @Test
    void springTransactionSemantics() {
        FixtureHarness.verify(FixtureHarness.fixture("spring-transactions"), "xact-lock-outside-transaction",
                "unpinned-session-lock");
    }
}
