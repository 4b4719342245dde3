package io.github.pgadvisorylint.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.report.SarifReporter;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.fixtures.SarifSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The whole analysis, every rule switched on, over small trees of mutated fixture files of every kind
 * (Java, SQL, YAML, properties, ini, {@code .env}, mapper XML) at their fixture paths: no front end or
 * rule fails ({@code internal-error}, {@code rule-failure}), one and two threads give byte-identical
 * SARIF, and the SARIF is written as well-formed UTF-8 and is valid SARIF 2.1.0.
 */
@AddLifecycleHook(FuzzBudget.class)
class AnalyzerFuzzTest {

    private static final List<Rule> RULES = RuleRegistry.load();
    private static final Set<String> ALL_IDS =
            RULES.stream().map(r -> r.descriptor().id()).collect(Collectors.toSet());

    private static Path reports;

    @BeforeContainer
    static void createDirectory() throws Exception {
        reports = Files.createTempDirectory("analyzer-fuzz");
    }

    @AfterContainer
    static void deleteDirectory() throws Exception {
        Trees.delete(reports);
    }

    /**
     * The time budget is set far above the guard's limit: on a loaded machine a file near the default
     * budget could be skipped in one run and not the other, which is the budget's business, not the
     * determinism this property checks (the guard catches a hang).
     */
    private static Analyzer analyzer(int threads) {
        return Analyzer.builder()
                .rules(RULES)
                .enabledRules(ALL_IDS)
                .threads(threads)
                .timeLimit(Duration.ofMinutes(30))
                .build();
    }

    @Provide
    Arbitrary<Map<String, byte[]>> trees() {
        return Mutations.fixtureTree(4);
    }

    @Property(tries = 25, seed = "2707011")
    void noFrontEndOrRuleFailsAndTheSarifRepeats(@ForAll("trees") Map<String, byte[]> files) throws Exception {
        Path root = Trees.write(files);
        try {
            String described = String.join(", ", files.keySet());
            AnalysisResult one = Guard.call(described, () -> analyzer(1).analyze(root, List.of(root)));
            AnalysisResult two = Guard.call(described, () -> analyzer(2).analyze(root, List.of(root)));
            assertThat(one.notifications())
                    .as("notifications of %s", described)
                    .noneMatch(
                            n -> n.kind().equals("internal-error") || n.kind().equals("rule-failure"));
            String sarif = Reports.write(new SarifReporter(true), one, reports.resolve("one.sarif"));
            assertThat(Reports.write(new SarifReporter(true), two, reports.resolve("two.sarif")))
                    .isEqualTo(sarif);
            SarifSchema.assertValid(sarif);
        } finally {
            Trees.delete(root);
        }
    }
}
