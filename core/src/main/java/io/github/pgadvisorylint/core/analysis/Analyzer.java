package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.rule.Rule;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The facade the CLI, the Maven plugin and the tests call: discovery, prefilter, front ends, lock
 * model, rules, sorted findings. Thread-safe; one instance may run many analyses.
 */
public final class Analyzer {

    private final List<Rule> rules;
    private final int threads;
    private final io.github.pgadvisorylint.core.config.PoolingSetting pooling;

    private Analyzer(Builder b) {
        this.rules = List.copyOf(b.rules);
        this.threads = b.threads;
        this.pooling = b.pooling;
    }

    /** @return a builder with no rules and one thread per available processor */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the rules this analyzer runs, sorted by id */
    public List<Rule> rules() {
        return rules;
    }

    /**
     * Analyses the given files and directories.
     *
     * @param root    the scan root: reported paths are relative to it; must be a directory
     * @param targets files or directories to scan, each inside or equal to the root; a missing
     *                target becomes an {@code ERROR} notification, not an exception
     * @return the result, deterministic for the same input
     */
    public AnalysisResult analyze(Path root, List<Path> targets) {
        Objects.requireNonNull(root, "root");
        AnalysisRun run = new AnalysisRun(this.rules, threads, pooling, root, targets);
        // syntax trees are walked recursively: a thread with a large stack keeps deeply nested input
        // (thousands of concatenated terms) from overflowing the caller's stack
        AnalysisResult[] result = new AnalysisResult[1];
        Throwable[] failure = new Throwable[1];
        Thread worker = new Thread(null, () -> {
            try {
                result[0] = run.run();
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, "pg-advisory-lint-analysis", AnalysisRun.WORKER_STACK_BYTES);
        worker.start();
        try {
            worker.join();
        } catch (InterruptedException e) {
            worker.interrupt();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("analysis interrupted", e);
        }
        if (failure[0] instanceof RuntimeException re) {
            throw re;
        }
        if (failure[0] instanceof Error err) {
            throw err;
        }
        return result[0];
    }

    /** Configures an {@link Analyzer}. */
    public static final class Builder {
        private List<Rule> rules = List.of();
        private int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private io.github.pgadvisorylint.core.config.PoolingSetting pooling = io.github.pgadvisorylint.core.config.PoolingSetting.AUTO;

        private Builder() {
        }

        /**
         * @param rules the rules to run (typically {@link io.github.pgadvisorylint.core.rule.RuleRegistry#load()})
         * @return this builder
         */
        public Builder rules(List<Rule> rules) {
            this.rules = List.copyOf(rules);
            return this;
        }

        /**
         * @param threads parsing threads, at least 1; findings never depend on it
         * @return this builder
         */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1");
            }
            this.threads = threads;
            return this;
        }

        /**
         * @param pooling how connections reach PostgreSQL; {@code AUTO} (the default) reads the
         *                project's configuration
         * @return this builder
         */
        public Builder pooling(io.github.pgadvisorylint.core.config.PoolingSetting pooling) {
            this.pooling = java.util.Objects.requireNonNull(pooling, "pooling");
            return this;
        }

        /** @return the analyzer */
        public Analyzer build() {
            return new Analyzer(this);
        }
    }
}
