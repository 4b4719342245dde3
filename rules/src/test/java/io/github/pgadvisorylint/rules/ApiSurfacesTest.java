package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import org.junit.jupiter.api.Test;

/**
 * The rules through every data-access API surface: Spring Data {@code @Procedure}, MyBatis annotations and
 * mapper XML, jOOQ, R2DBC, Vert.x, JDBI, Micronaut {@code JdbcOperations}, {@code String.format},
 * {@code StringBuilder} and statements prepared in a constructor (fixture folder {@code api-surfaces}).
 */
class ApiSurfacesTest {

    private static final String FOLDER = "api-surfaces";

    @Test
    void lockInLimitQuery() {
        FixtureHarness.verify(FixtureHarness.fixture(FOLDER), "lock-in-limit-query");
    }

    @Test
    void lockWithoutFinallyUnlock() {
        FixtureHarness.verify(FixtureHarness.fixture(FOLDER), "lock-without-finally-unlock");
    }

    @Test
    void unpinnedSessionLock() {
        FixtureHarness.verify(FixtureHarness.fixture(FOLDER), "unpinned-session-lock");
    }

    @Test
    void duplicateLockKey() {
        FixtureHarness.verify(FixtureHarness.fixture(FOLDER), "duplicate-lock-key");
    }
}
