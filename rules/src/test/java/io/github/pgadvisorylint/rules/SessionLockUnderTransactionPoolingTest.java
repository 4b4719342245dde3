package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each fixture folder is its own project: the pooling evidence is project-wide. */
class SessionLockUnderTransactionPoolingTest {

    private static final String RULE = "session-lock-under-transaction-pooling";

    private static List<Finding> scan(String folder, PoolingSetting pooling) {
        Path root = FixtureHarness.fixture(RULE + "/projects/" + folder);
        AnalysisResult r = Analyzer.builder()
                .rules(RuleRegistry.load())
                .pooling(pooling)
                .build()
                .analyze(root, List.of(root));
        return r.findings().stream().filter(f -> f.ruleId().equals(RULE)).toList();
    }

    @Test
    void poolingSessionSilencesEvidence() {
        assertThat(scan("declared-ini", PoolingSetting.SESSION)).isEmpty();
        assertThat(scan("inferred-port", PoolingSetting.NONE)).isEmpty();
    }

    @Test
    void poolingTransactionRaisesToErrorEvenWithoutEvidence() {
        assertThat(scan("inferred-port", PoolingSetting.TRANSACTION))
                .extracting(Finding::severity)
                .containsOnly(Severity.ERROR);
        assertThat(scan("no-evidence", PoolingSetting.TRANSACTION))
                .hasSize(2)
                .extracting(Finding::severity)
                .containsOnly(Severity.ERROR);
        // the setting may come from the command line, the configuration file or the Maven parameter: the
        // message names it without naming one of them
        assertThat(scan("no-evidence", PoolingSetting.TRANSACTION))
                .extracting(Finding::message)
                .allSatisfy(m -> assertThat(m)
                        .contains("(the scan's pooling setting is transaction)")
                        .doesNotContain("--pooling"));
    }

    @Test
    void declaredEvidenceIsARelatedLocation() {
        assertThat(scan("declared-ini", PoolingSetting.AUTO))
                .allSatisfy(f -> assertThat(f.related())
                        .anySatisfy(r -> assertThat(r.region().path()).isEqualTo("pgbouncer/pgbouncer.ini")));
    }
}
