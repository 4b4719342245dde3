package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/**
 * Rules over SQL that is a flow of values: lock SQL built from flags by builders, conditionals,
 * {@code String.format} and methods returning SQL, and lock SQL passed to user-written JDBC wrappers.
 */
class SqlValueFlowTest {

    @Test
    void tryLockResultsDroppedByBuildersAndWrappers() {
        FixtureHarness.verify(FixtureHarness.fixture("sql-value-flow"), "try-lock-result-ignored");
    }

    @Test
    void lifecycleOfLocksTakenThroughWrappers() {
        FixtureHarness.verify(FixtureHarness.fixture("sql-value-flow"), "lock-without-finally-unlock");
    }

    @Test
    void duplicateKeysBoundThroughWrapperVarargs() {
        FixtureHarness.verify(FixtureHarness.fixture("sql-value-flow"), "duplicate-lock-key");
    }
}
