package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/**
 * Fixture tests of lock-failure-ignored: acquisitions whose failure a catch logs or ignores before the
 * work runs anyway (JDBC, JdbcTemplate, lock helpers, try-with-resources headers, loops, try-locks
 * whose false is thrown and caught, a lock method whose caller carries on), against handlers that
 * rethrow, return, continue or set a checked flag, work inside the try, and catches of other failures.
 */
class LockFailureIgnoredTest {

    private static final String RULE = "lock-failure-ignored";

    @Test
    void swallowedFailuresBeforeTheWork() {
        FixtureHarness.verify(FixtureHarness.fixture(RULE), RULE);
    }
}
