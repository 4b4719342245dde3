package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the commands depend on, so tests can replace the analysis with hand-built results.
 *
 * @param rules            the installed rules, loaded when a command first needs them (a broken
 *                         rule then fails inside picocli's error handling: exit code 3)
 * @param engine           runs one analysis
 * @param workingDirectory absolute; relative paths on the command line are resolved against it, and
 *                         it is the scan root unless exactly one directory is given
 */
record Environment(Supplier<List<Rule>> rules, Engine engine, Path workingDirectory) {

    /** Runs one analysis. */
    @FunctionalInterface
    interface Engine {
        /**
         * @param root    the scan root, an existing directory, real path
         * @param targets existing files or directories inside the root, real paths
         * @param threads parsing threads, at least 1
         * @param rules   the rules to run
         * @return the result, paths relative to the root
         */
        AnalysisResult analyze(Path root, List<Path> targets, int threads, List<Rule> rules);

        /**
         * @param root    the scan root
         * @param targets files or directories inside the root
         * @param threads parsing threads, at least 1
         * @param rules   the rules to run
         * @param pooling the user's pooling setting
         * @return the result; engines that do not read configuration ignore the setting
         */
        default AnalysisResult analyze(Path root, List<Path> targets, int threads, List<Rule> rules,
                                       io.github.pgadvisorylint.core.config.PoolingSetting pooling) {
            return analyze(root, targets, threads, rules);
        }
    }

    /** The core analyzer as an engine. */
    private static final class CoreEngine implements Engine {
        @Override
        public AnalysisResult analyze(Path root, List<Path> targets, int threads, List<Rule> rules) {
            return analyze(root, targets, threads, rules, io.github.pgadvisorylint.core.config.PoolingSetting.AUTO);
        }

        @Override
        public AnalysisResult analyze(Path root, List<Path> targets, int threads, List<Rule> rules,
                                      io.github.pgadvisorylint.core.config.PoolingSetting pooling) {
            return Analyzer.builder().rules(rules).threads(threads).pooling(pooling).build().analyze(root, targets);
        }
    }

    Environment {
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(engine, "engine");
        workingDirectory = workingDirectory.toAbsolutePath().normalize();
    }

    /** @return the real thing: rules from {@link RuleRegistry#load()}, the core {@link Analyzer}, the JVM's working directory */
    static Environment standard() {
        return new Environment(RuleRegistry::load, new CoreEngine(), Path.of("").toAbsolutePath());
    }
}
