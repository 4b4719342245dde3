package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fixture tests of session-unlock-before-commit: unlocks inside {@code @Transactional} methods (method
 * and class level, propagations), transaction callbacks (TransactionTemplate, anonymous callbacks,
 * jOOQ) and manual JDBC transactions, against unlocks after the commit, transaction-level locks,
 * autocommit, and methods no transaction reaches.
 */
class SessionUnlockBeforeCommitTest {

    private static final String RULE = "session-unlock-before-commit";

    /**
     * Reported at the unlock; the lock, the start of the transaction and, for a manual one, the commit after the
     * unlock are the related locations.
     */
    @Test
    void relatedLocationsAreTheLockAndTheTransactionBoundary() {
        AnalysisResult result = FixtureHarness.analyze(FixtureHarness.fixture(RULE));
        assertThat(related(result, "orders/OrderNumbering.java", 34)).containsExactly(28, 26);
        assertThat(related(result, "ledger/LedgerPosting.java", 38)).containsExactly(36, 35, 39);
        Finding manual = finding(result, "ledger/LedgerPosting.java", 38);
        assertThat(manual.message())
                .contains("setAutoCommit(false) on c (committed at line 39, after the unlock)")
                .contains("Unlock after commit()");
        assertThat(finding(result, "orders/OrderNumbering.java", 34).message())
                .contains("@Transactional on method nextNumber")
                .contains("pg_advisory_xact_lock");
    }

    private static Finding finding(AnalysisResult result, String path, int line) {
        return result.findings().stream()
                .filter(f -> f.ruleId().equals(RULE)
                        && f.region().path().endsWith(path)
                        && f.region().startLine() == line)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no finding at " + path + ":" + line));
    }

    private static List<Integer> related(AnalysisResult result, String path, int line) {
        return finding(result, path, line).related().stream()
                .map(r -> r.region().startLine())
                .toList();
    }
}
