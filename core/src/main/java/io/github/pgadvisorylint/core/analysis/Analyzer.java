package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The facade the CLI, the Maven plugin and the tests call: discovery, prefilter, front ends, lock
 * model, rules, sorted findings.
 *
 * <p>Holds settings only, fixed when built; one instance may run many analyses, one after another.
 * Concurrent calls are safe only when no two of them use the same {@link FactsCache}: the cache is
 * not thread-safe, and {@link #analyze(Path, List)} reads and updates the builder's cache in every
 * call. Give each concurrent call its own cache, or none, with {@link #analyze(Path, List, FactsCache)}.
 * The rules, the file filter and the progress listener given to the builder are shared by every
 * analysis.
 */
public final class Analyzer {

    private final List<Rule> rules;
    private final int threads;
    private final PoolingSetting pooling;
    private final Set<String> disabled;
    private final Map<String, Severity> severities;
    private final Predicate<Path> fileFilter;
    private final Set<String> extraLockHelpers;
    private final Set<String> extraPooledApiTypes;
    private final ProgressListener progress;
    private final Duration timeLimit;
    private final FactsCache cache;

    private Analyzer(Builder b) {
        this.cache = b.cache;
        this.timeLimit = b.timeLimit;
        this.rules = List.copyOf(b.rules);
        this.threads = b.threads;
        this.pooling = b.pooling;
        Set<String> known = new TreeSet<>();
        rules.forEach(r -> known.add(r.descriptor().id()));
        for (String id : b.disabled) {
            if (!known.contains(id)) {
                throw new IllegalArgumentException("cannot switch off unknown rule '" + id + "'");
            }
        }
        for (String id : b.severities.keySet()) {
            if (!known.contains(id)) {
                throw new IllegalArgumentException("cannot set the severity of unknown rule '" + id + "'");
            }
        }
        for (String id : b.enabled) {
            if (!known.contains(id)) {
                throw new IllegalArgumentException("cannot switch on unknown rule '" + id + "'");
            }
        }
        Set<String> off = new TreeSet<>(b.disabled);
        for (Rule r : rules) {
            if (!r.descriptor().enabledByDefault()
                    && !b.enabled.contains(r.descriptor().id())) {
                off.add(r.descriptor().id());
            }
        }
        this.disabled = Set.copyOf(off);
        this.severities = Map.copyOf(b.severities);
        this.fileFilter = b.fileFilter;
        this.extraLockHelpers = Set.copyOf(b.extraLockHelpers);
        this.extraPooledApiTypes = Set.copyOf(b.extraPooledApiTypes);
        this.progress = b.progress;
    }

    /** How many parsing threads per available processor an analysis may use at most. */
    public static final int MAX_THREADS_PER_PROCESSOR = 4;

    /**
     * @return the most parsing threads an analysis uses on this machine: {@value #MAX_THREADS_PER_PROCESSOR}
     *     per available processor. More only adds memory and contention (the work is CPU-bound), and a
     *     request for thousands would exhaust the process ids before the first file is read.
     */
    public static int maxThreads() {
        return MAX_THREADS_PER_PROCESSOR * Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /** @return a builder with no rules and one thread per available processor */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the rules this analyzer knows (also those switched off), sorted by id */
    public List<Rule> rules() {
        return rules;
    }

    /** @return method names the Java front end treats as lock helpers besides those it finds, sorted */
    public Set<String> extraLockHelpers() {
        return new TreeSet<>(extraLockHelpers);
    }

    /** @return type names the Java front end treats as pooled-connection APIs besides the built-in ones, sorted */
    public Set<String> extraPooledApiTypes() {
        return new TreeSet<>(extraPooledApiTypes);
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
        return analyze(root, targets, cache);
    }

    /**
     * Analyses the given files and directories, reusing the facts a cache holds for unchanged files
     * and recording this analysis's facts in it (written only by {@link FactsCache#save()}). The result
     * equals that of {@link #analyze(Path, List)}.
     *
     * @param root    the scan root; must be a directory
     * @param targets files or directories to scan, each inside or equal to the root
     * @param cache   the cache to read and update, or null for none (the builder's cache is not used)
     * @return the result, deterministic for the same input
     */
    public AnalysisResult analyze(Path root, List<Path> targets, FactsCache cache) {
        Objects.requireNonNull(root, "root");
        return runOnWorker(root, targets, cache);
    }

    private AnalysisResult runOnWorker(Path root, List<Path> targets, FactsCache cache) {
        AnalysisRun run = new AnalysisRun(
                new AnalysisRun.Settings(
                        rules,
                        disabled,
                        severities,
                        threads,
                        pooling,
                        fileFilter,
                        extraLockHelpers,
                        extraPooledApiTypes,
                        progress,
                        cache),
                root,
                targets,
                timeLimit);
        // syntax trees are walked recursively: a thread with a large stack keeps deeply nested input
        // (thousands of concatenated terms) from overflowing the caller's stack
        AnalysisResult[] result = new AnalysisResult[1];
        Throwable[] failure = new Throwable[1];
        Thread worker = new Thread(
                null,
                () -> {
                    try {
                        result[0] = run.run();
                    } catch (Throwable t) {
                        failure[0] = t;
                    }
                },
                "pg-advisory-lint-analysis",
                AnalysisRun.WORKER_STACK_BYTES);
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
        private PoolingSetting pooling = PoolingSetting.AUTO;
        private Set<String> disabled = Set.of();
        private Set<String> enabled = Set.of();
        private Map<String, Severity> severities = Map.of();
        private Predicate<Path> fileFilter = p -> true;
        private Set<String> extraLockHelpers = Set.of();
        private Set<String> extraPooledApiTypes = Set.of();
        private ProgressListener progress = ProgressListener.NONE;
        private Duration timeLimit = AnalysisRun.DEFAULT_TIME_LIMIT;
        private FactsCache cache;

        private Builder() {}

        /**
         * @param rules the rules to run (typically {@link io.github.pgadvisorylint.core.rule.RuleRegistry#load()})
         * @return this builder
         */
        public Builder rules(List<Rule> rules) {
            this.rules = List.copyOf(rules);
            return this;
        }

        /**
         * @param threads parsing threads, at least 1; more than {@link #maxThreads()} uses that many
         *                (callers that want to say so compare first); findings never depend on it
         * @return this builder
         */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1");
            }
            this.threads = Math.min(threads, maxThreads());
            return this;
        }

        /**
         * @param pooling how connections reach PostgreSQL; {@code AUTO} (the default) reads the
         *                project's configuration
         * @return this builder
         */
        public Builder pooling(PoolingSetting pooling) {
            this.pooling = Objects.requireNonNull(pooling, "pooling");
            return this;
        }

        /**
         * @param ids ids of rules not to run (configuration {@code rules: {id: off}}); each must be
         *            among {@link #rules}, checked by {@link #build()} ({@link IllegalArgumentException})
         * @return this builder
         */
        public Builder disabledRules(Set<String> ids) {
            this.disabled = Set.copyOf(ids);
            return this;
        }

        /**
         * @param ids ids of rules that are off by default ({@link RuleDescriptor#enabledByDefault()} false)
         *            to run (configuration {@code rules: {id: on}} or a severity); naming a rule that runs
         *            anyway changes nothing, and {@link #disabledRules} wins over this. Each must be among
         *            {@link #rules}, checked by {@link #build()} ({@link IllegalArgumentException})
         * @return this builder
         */
        public Builder enabledRules(Set<String> ids) {
            this.enabled = Set.copyOf(ids);
            return this;
        }

        /**
         * @param overrides rule id to the severity every finding of that rule gets, replacing what the
         *                  rule chose; the rule's descriptor in the result shows it as its default level
         * @return this builder
         */
        public Builder severityOverrides(Map<String, Severity> overrides) {
            this.severities = Map.copyOf(overrides);
            return this;
        }

        /**
         * @param filter decides, for the absolute normalized path of each discovered file, whether it is
         *               analysed (configuration {@code includes}, {@code excludes}, {@code includeTests});
         *               files it rejects are neither counted nor read
         * @return this builder
         */
        public Builder fileFilter(Predicate<Path> filter) {
            this.fileFilter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /**
         * @param names method names ({@code acquire}, {@code Locks.acquire} or fully qualified) that take
         *              an advisory lock through their arguments, besides those the analysis finds
         *              (configuration {@code lockHelpers}); stored and handed to the analysis run
         * @return this builder
         */
        public Builder extraLockHelpers(Set<String> names) {
            this.extraLockHelpers = Set.copyOf(names);
            return this;
        }

        /**
         * @param typeNames simple or qualified type names of APIs that hand out pooled connections
         *                  (configuration {@code pooledApiTypes}); stored and handed to the analysis run
         * @return this builder
         */
        public Builder extraPooledApiTypes(Set<String> typeNames) {
            this.extraPooledApiTypes = Set.copyOf(typeNames);
            return this;
        }

        /**
         * @param listener receives progress while files are read and analysed; never affects results
         * @return this builder
         */
        public Builder progress(ProgressListener listener) {
            this.progress = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * The wall-clock safety limit: how long one file may take in one phase (reading, parsing,
         * extracting), or one rule may run, before the analysis stops with a
         * {@link TimeLimitExceededException} naming it. It guards against a hang only: what a run reports
         * is decided by bounds that count work, so it never depends on the machine's speed or load.
         *
         * @param limit positive; default 5 minutes
         * @return this builder
         * @throws IllegalArgumentException when {@code limit} is zero or negative
         */
        public Builder timeLimit(Duration limit) {
            if (limit.isNegative() || limit.isZero()) {
                throw new IllegalArgumentException("timeLimit must be positive, not " + limit);
            }
            this.timeLimit = limit;
            return this;
        }

        /**
         * @param cache the incremental-analysis cache {@link #analyze(Path, List)} reads and updates (the
         *              caller saves it), or null for none (the default)
         * @return this builder
         */
        public Builder cache(FactsCache cache) {
            this.cache = cache;
            return this;
        }

        /**
         * @return the analyzer
         * @throws IllegalArgumentException when a switched-off or overridden rule id is not among the rules
         */
        public Analyzer build() {
            return new Analyzer(this);
        }
    }
}
