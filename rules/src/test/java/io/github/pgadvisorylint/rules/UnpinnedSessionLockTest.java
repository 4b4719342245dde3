package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Related locations of unpinned-session-lock: the unlocks that borrow a connection of their own. */
class UnpinnedSessionLockTest {

    private static final String RULE = "unpinned-session-lock";

    /**
     * A lock class whose unlock sits in its base class, in another file, with the same computed key: that
     * unlock is named; an unlock of a bare variable of the same name in an unrelated file is not.
     */
    @Test
    void anUnlockOfTheSameComputedKeyInAnotherFileIsRelatedAndABareNameIsNot() {
        AnalysisResult result = FixtureHarness.analyze(FixtureHarness.fixture(RULE));
        Finding lock = result.findings().stream()
                .filter(f -> f.ruleId().equals(RULE) && f.region().path().endsWith("lockclass/SessionKeyLock.java"))
                .findFirst()
                .orElseThrow();
        List<String> related = lock.related().stream()
                .map(r -> r.region().path().substring(r.region().path().lastIndexOf('/') + 1) + ":"
                        + r.region().startLine())
                .toList();
        assertThat(related).containsExactly("KeyLockBase.java:15");
    }
}
