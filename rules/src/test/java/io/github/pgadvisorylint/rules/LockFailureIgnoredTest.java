package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.rule.Finding;
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

    /** Reported at the acquisition; the catch clause and the work that runs anyway are the related locations. */
    @Test
    void relatedLocationsAreTheCatchAndTheWork() {
        AnalysisResult result = FixtureHarness.analyze(FixtureHarness.fixture(RULE));
        Finding f = result.findings().stream()
                .filter(x -> x.ruleId().equals(RULE)
                        && x.region().path().endsWith("NightlyJobs.java")
                        && x.region().startLine() == 37)
                .findFirst()
                .orElseThrow();
        assertThat(f.related().stream().map(r -> r.region().startLine()).toList())
                .containsExactly(38, 41);
        assertThat(f.message()).contains("only logs it").contains("jdbc.update(...) runs next");
    }
}
