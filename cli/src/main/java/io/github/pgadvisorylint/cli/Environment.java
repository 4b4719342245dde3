package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the commands depend on, so tests can replace the analysis with hand-built results.
 *
 * @param rules            the installed rules, loaded when a command first needs them (a broken
 *                         rule then fails inside picocli's error handling: exit code 3)
 * @param engine           runs one analysis
 * @param workingDirectory absolute; relative paths on the command line are resolved against it, and
 *                         it is the scan root unless exactly one directory is given
 * @param terminal         what the process is attached to: decides colour and the progress line
 */
record Environment(Supplier<List<Rule>> rules, Engine engine, Path workingDirectory, Terminal terminal) {

    /** The process's terminal and environment variables, replaceable in tests. */
    interface Terminal {
        /**
         * @return true when the standard streams are attached to an interactive terminal
         *     ({@code System.console() != null}: Java 17 cannot ask about standard error alone, so a
         *     redirected standard output counts as "not a terminal" too)
         */
        boolean interactive();

        /**
         * @param name an environment variable
         * @return its value, or null when unset
         */
        String getenv(String name);

        /** The real process: {@link System#console()} and {@link System#getenv(String)}. */
        Terminal SYSTEM = new Terminal() {
            @Override
            @SuppressWarnings("SystemConsoleNull") // JDK 17 to 21: null when a stream is not a terminal
            public boolean interactive() {
                return System.console() != null;
            }

            @Override
            public String getenv(String name) {
                return System.getenv(name);
            }
        };

        /** No terminal and no environment variables: plain output, no progress (tests, pipes). */
        Terminal NONE = new Terminal() {
            @Override
            public boolean interactive() {
                return false;
            }

            @Override
            public String getenv(String name) {
                return null;
            }
        };
    }

    /**
     * An environment without a terminal (tests).
     *
     * @param rules            the installed rules
     * @param engine           the analysis
     * @param workingDirectory the working directory
     */
    Environment(Supplier<List<Rule>> rules, Engine engine, Path workingDirectory) {
        this(rules, engine, workingDirectory, Terminal.NONE);
    }

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
         * @param root      the path base for {@code scan} (reported paths are relative to it), else the scan root
         * @param targets   files or directories inside the root
         * @param threads   parsing threads, at least 1
         * @param rules     every installed rule
         * @param configure applies the configuration (pooling, rules on/off, severities, file filter,
         *                  lock helpers, pooled API types, progress) to the analyzer being built
         * @return the result; engines that do not build an {@link Analyzer} ignore {@code configure}
         */
        default AnalysisResult analyze(
                Path root, List<Path> targets, int threads, List<Rule> rules, Consumer<Analyzer.Builder> configure) {
            return analyze(root, targets, threads, rules);
        }
    }

    /** The core analyzer as an engine. */
    private static final class CoreEngine implements Engine {
        @Override
        public AnalysisResult analyze(Path root, List<Path> targets, int threads, List<Rule> rules) {
            return analyze(root, targets, threads, rules, b -> {});
        }

        @Override
        public AnalysisResult analyze(
                Path root, List<Path> targets, int threads, List<Rule> rules, Consumer<Analyzer.Builder> configure) {
            Analyzer.Builder b = Analyzer.builder().rules(rules).threads(threads);
            configure.accept(b);
            return b.build().analyze(root, targets);
        }
    }

    Environment {
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(engine, "engine");
        workingDirectory = workingDirectory.toAbsolutePath().normalize();
        Objects.requireNonNull(terminal, "terminal");
    }

    /** @return the real thing: rules from {@link RuleRegistry#load()}, the core {@link Analyzer}, the JVM's working directory */
    static Environment standard() {
        return new Environment(RuleRegistry::load, new CoreEngine(), Path.of("").toAbsolutePath(), Terminal.SYSTEM);
    }
}
