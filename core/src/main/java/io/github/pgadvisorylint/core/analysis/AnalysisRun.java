package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.rule.Rule;
import java.nio.file.Path;
import java.util.List;

/** One analysis: placeholder until the front ends land (replaced in the next commit). */
final class AnalysisRun {
    private final List<Rule> rules;
    private final Path root;

    AnalysisRun(List<Rule> rules, int threads, Path root, List<Path> targets) {
        this.rules = rules;
        this.root = root;
    }

    AnalysisResult run() {
        return new AnalysisResult(root, rules.stream().map(Rule::descriptor).toList(), List.of(), List.of(),
                new LockModel(List.of(), List.of()), 0, 0, 0);
    }
}
