package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnorderedMultiKeyLockTest {

    private static final String RULE = "unordered-multi-key-lock";

    /** The one error of the ring points at every other acquisition of the ring, and names the cycle. */
    @Test
    void theRingErrorCarriesEveryOtherEdgeAsRelatedLocations() {
        List<Finding> errors =
                FixtureHarness.analyze(FixtureHarness.fixture(RULE + "/projects/helpers")).findings().stream()
                        .filter(f -> f.ruleId().equals(RULE) && f.severity() == Severity.ERROR)
                        .toList();
        assertThat(errors).hasSize(1);
        Finding ring = errors.get(0);
        assertThat(ring.region().path()).endsWith("ring/Statements.java");
        assertThat(ring.message())
                .contains("cycle of 3 lock orders")
                .contains("Ledger#closeDay")
                .contains("Payouts#sendPayouts")
                .contains("Statements#issue");
        assertThat(ring.related())
                .extracting(r -> r.region().path().replaceAll(".*/", "") + ":"
                        + r.region().startLine())
                .containsExactly(
                        "Statements.java:27", "Ledger.java:30", "Ledger.java:31", "Payouts.java:26", "Payouts.java:27");
    }

    /** A pair through one two-key helper call: the call carries both acquisitions, in one related location. */
    @Test
    void anInversionThroughOneHelperCallNamesBothKeysAtTheOtherCall() {
        List<Finding> errors = FixtureHarness.analyze(FixtureHarness.fixture(RULE)).findings().stream()
                .filter(f -> f.ruleId().equals(RULE) && f.severity() == Severity.ERROR)
                .toList();
        assertThat(errors)
                .extracting(f -> f.region().path().replaceAll(".*/", ""))
                .containsExactly("FixedKeys.java", "Transfers.java");
        assertThat(errors.get(1).related()).singleElement().satisfies(r -> {
            assertThat(r.region().path()).endsWith("Refunds.java");
            assertThat(r.message())
                    .isEqualTo("AccountKeys.FEES = 32 then AccountKeys.CASH = 31 are taken here (Refunds#refund)");
        });
    }
}
