package io.github.pgadvisorylint.core.session;

import io.github.pgadvisorylint.core.analysis.ProgressListener;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.report.ReportFormat;
import io.github.pgadvisorylint.core.rule.Rule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Everything one scan needs, as the CLI and the Maven plugin map their options onto it. Paths are
 * absolute; a null setting means "not given" (the configuration file's value, else the default).
 *
 * @param scanRoot           the scanned directory: the configuration's globs and the test-source
 *                           directories are judged below it
 * @param targets            files or directories to analyse, inside the path base; empty: nothing to analyse
 * @param extraNotifications problems the front end met choosing the targets, relative to the path base
 * @param rules              every installed rule
 * @param threads            parsing threads, at least 1
 * @param pathBase           the directory reported paths are relative to, or null for the default
 *                           ({@link PathBase#choose})
 * @param pathBaseFallback   the front end's fallback base (the Maven reactor root), or null
 * @param configFile         the configuration file given, or null to search for one
 * @param configSearchStart  where the search for a configuration file starts
 * @param configSearchTop    where the search stops outside a repository, or null for the search start
 * @param pooling            the pooling given, or null for the configuration's, else {@code auto}
 * @param includeTests       whether test sources are analysed, or null for the configuration's, else false
 * @param testRoots          directories the build declares as test sources (Maven's test compile source
 *                           roots and test resource directories); besides them, the directories of
 *                           {@link io.github.pgadvisorylint.core.discovery.TestSources} are test sources
 * @param cacheFile          the incremental-analysis cache, or null for none
 * @param outputRoot         the directory the tool's own files below it (the cache, reports) must not
 *                           leave: a symbolic link below it leading out is replaced, with a warning
 *                           ({@link io.github.pgadvisorylint.core.io.AtomicFiles#confine}); the Maven
 *                           plugin's build directory, null for none (the CLI writes where it is told)
 * @param baselineFile       the baseline to apply, or null; must exist unless it is {@code writeBaselineFile}
 * @param writeBaselineFile  the baseline to write (created, or updated when it or {@code baselineFile}
 *                           exists), or null
 * @param baselineRecordAll  with {@code writeBaselineFile}: also add findings it does not hold yet
 * @param showSuppressed     keep suppressed findings in SARIF and JSON reports
 * @param reports            the report files to write, in order
 * @param failPolicy         when the scan fails on findings
 * @param failOnIncomplete   whether a scan that left a file, method or rule out of the analysis
 *                           ({@link Notification#leavesOut()}) fails, or null for the configuration's, else
 *                           {@code failOnIncompleteByDefault}
 * @param failOnIncompleteByDefault the front end's default for {@code failOnIncomplete}: false for the CLI,
 *                           true for the Maven plugin
 * @param timeLimit          the wall-clock safety limit per file phase and per rule, or null for the
 *                           configuration's, else the analyzer's default
 * @param skipWhenEmpty      true to write nothing when no target file passes the filters and nothing
 *                           else is to be done ({@link ScanOutcome#scanned()} false)
 * @param display            how messages name a file (as the user gave it, relative to a working directory)
 * @param progress           receives progress of the analysis
 */
public record ScanRequest(
        Path scanRoot,
        List<Path> targets,
        List<Notification> extraNotifications,
        List<Rule> rules,
        int threads,
        Path pathBase,
        Path pathBaseFallback,
        Path configFile,
        Path configSearchStart,
        Path configSearchTop,
        PoolingSetting pooling,
        Boolean includeTests,
        List<Path> testRoots,
        Path cacheFile,
        Path outputRoot,
        Path baselineFile,
        Path writeBaselineFile,
        boolean baselineRecordAll,
        boolean showSuppressed,
        List<ReportTarget> reports,
        FailPolicy failPolicy,
        Boolean failOnIncomplete,
        boolean failOnIncompleteByDefault,
        Duration timeLimit,
        boolean skipWhenEmpty,
        Function<Path, String> display,
        ProgressListener progress) {

    /**
     * One report file to write.
     *
     * @param format the format
     * @param file   the file, absolute; replaced atomically
     */
    public record ReportTarget(ReportFormat format, Path file) {

        /** Checks that nothing is null. */
        public ReportTarget {
            Objects.requireNonNull(format, "format");
            Objects.requireNonNull(file, "file");
        }
    }

    /** Copies the lists and checks the required parts. */
    public ScanRequest {
        Objects.requireNonNull(scanRoot, "scanRoot");
        targets = List.copyOf(targets);
        extraNotifications = List.copyOf(extraNotifications);
        rules = List.copyOf(rules);
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, not " + threads);
        }
        Objects.requireNonNull(configSearchStart, "configSearchStart");
        testRoots = List.copyOf(testRoots);
        reports = List.copyOf(reports);
        Objects.requireNonNull(failPolicy, "failPolicy");
        if (timeLimit != null && (timeLimit.isNegative() || timeLimit.isZero())) {
            throw new IllegalArgumentException("timeLimit must be positive, not " + timeLimit);
        }
        Objects.requireNonNull(display, "display");
        Objects.requireNonNull(progress, "progress");
    }

    /**
     * @param scanRoot the scanned directory
     * @param rules    every installed rule
     * @return a builder scanning the whole root with one thread per processor, no reports, failing on
     *     nothing, messages naming files by their absolute path
     */
    public static Builder builder(Path scanRoot, List<Rule> rules) {
        return new Builder(scanRoot, rules);
    }

    /** Builds a {@link ScanRequest}; every setting but the scan root and the rules has a default. */
    public static final class Builder {
        private final Path scanRoot;
        private final List<Rule> rules;
        private List<Path> targets;
        private List<Notification> extraNotifications = List.of();
        private int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private Path pathBase;
        private Path pathBaseFallback;
        private Path configFile;
        private Path configSearchStart;
        private Path configSearchTop;
        private PoolingSetting pooling;
        private Boolean includeTests;
        private List<Path> testRoots = List.of();
        private Path cacheFile;
        private Path outputRoot;
        private Path baselineFile;
        private Path writeBaselineFile;
        private boolean baselineRecordAll;
        private boolean showSuppressed;
        private List<ReportTarget> reports = List.of();
        private FailPolicy failPolicy = FailPolicy.NEVER;
        private Boolean failOnIncomplete;
        private boolean failOnIncompleteByDefault;
        private Duration timeLimit;
        private boolean skipWhenEmpty;
        private Function<Path, String> display = Path::toString;
        private ProgressListener progress = ProgressListener.NONE;

        private Builder(Path scanRoot, List<Rule> rules) {
            this.scanRoot = scanRoot.toAbsolutePath().normalize();
            this.rules = rules;
        }

        /** @param v files or directories to analyse (default: the scan root) @return this builder */
        public Builder targets(List<Path> v) {
            targets = v;
            return this;
        }

        /** @param v problems met choosing the targets, relative to the path base @return this builder */
        public Builder extraNotifications(List<Notification> v) {
            extraNotifications = v;
            return this;
        }

        /** @param v parsing threads, at least 1 @return this builder */
        public Builder threads(int v) {
            threads = v;
            return this;
        }

        /** @param v the path base given, or null for the default @return this builder */
        public Builder pathBase(Path v) {
            pathBase = v;
            return this;
        }

        /** @param v the fallback base (Maven reactor root), or null @return this builder */
        public Builder pathBaseFallback(Path v) {
            pathBaseFallback = v;
            return this;
        }

        /** @param v the configuration file given, or null to search @return this builder */
        public Builder configFile(Path v) {
            configFile = v;
            return this;
        }

        /**
         * @param start where the search for a configuration file starts (default: the scan root)
         * @param top   where it stops outside a repository, or null for {@code start}
         * @return this builder
         */
        public Builder configSearch(Path start, Path top) {
            configSearchStart = start;
            configSearchTop = top;
            return this;
        }

        /** @param v the pooling given, or null @return this builder */
        public Builder pooling(PoolingSetting v) {
            pooling = v;
            return this;
        }

        /** @param v whether test sources are analysed, or null for the configuration's @return this builder */
        public Builder includeTests(Boolean v) {
            includeTests = v;
            return this;
        }

        /** @param v directories the build declares as test sources @return this builder */
        public Builder testRoots(List<Path> v) {
            testRoots = v;
            return this;
        }

        /** @param v the cache file, or null for none @return this builder */
        public Builder cacheFile(Path v) {
            cacheFile = v;
            return this;
        }

        /**
         * @param v the directory the cache and reports below it must not leave through a symbolic link,
         *          or null for none
         * @return this builder
         */
        public Builder outputRoot(Path v) {
            outputRoot = v;
            return this;
        }

        /** @param v the baseline to apply, or null @return this builder */
        public Builder baselineFile(Path v) {
            baselineFile = v;
            return this;
        }

        /**
         * @param file      the baseline to write, or null
         * @param recordAll also add findings the baseline does not hold yet
         * @return this builder
         */
        public Builder writeBaseline(Path file, boolean recordAll) {
            writeBaselineFile = file;
            baselineRecordAll = recordAll;
            return this;
        }

        /** @param v keep suppressed findings in SARIF and JSON @return this builder */
        public Builder showSuppressed(boolean v) {
            showSuppressed = v;
            return this;
        }

        /** @param v the report files, in order @return this builder */
        public Builder reports(List<ReportTarget> v) {
            reports = v;
            return this;
        }

        /** @param v when the scan fails @return this builder */
        public Builder failPolicy(FailPolicy v) {
            failPolicy = v;
            return this;
        }

        /**
         * @param v the front end's default for {@code failOnIncomplete} (the Maven plugin: true)
         * @return this builder
         */
        public Builder failOnIncompleteByDefault(boolean v) {
            failOnIncompleteByDefault = v;
            return this;
        }

        /**
         * @param v whether a scan that left something out fails, or null for the configuration's
         * @return this builder
         */
        public Builder failOnIncomplete(Boolean v) {
            failOnIncomplete = v;
            return this;
        }

        /**
         * @param v the wall-clock safety limit per file phase and per rule, or null for the configuration's
         * @return this builder
         */
        public Builder timeLimit(Duration v) {
            timeLimit = v;
            return this;
        }

        /** @param v true to write nothing when there is nothing to analyse @return this builder */
        public Builder skipWhenEmpty(boolean v) {
            skipWhenEmpty = v;
            return this;
        }

        /** @param v how messages name a file @return this builder */
        public Builder display(Function<Path, String> v) {
            display = v;
            return this;
        }

        /** @param v receives progress of the analysis @return this builder */
        public Builder progress(ProgressListener v) {
            progress = v;
            return this;
        }

        /**
         * @return the request
         * @throws IllegalArgumentException for fewer than one thread
         */
        public ScanRequest build() {
            return new ScanRequest(
                    scanRoot,
                    targets == null ? List.of(scanRoot) : targets,
                    extraNotifications,
                    rules,
                    threads,
                    pathBase,
                    pathBaseFallback,
                    configFile,
                    configSearchStart == null ? scanRoot : configSearchStart,
                    configSearchTop,
                    pooling,
                    includeTests,
                    testRoots,
                    cacheFile,
                    outputRoot,
                    baselineFile,
                    writeBaselineFile,
                    baselineRecordAll,
                    showSuppressed,
                    reports,
                    failPolicy,
                    failOnIncomplete,
                    failOnIncompleteByDefault,
                    timeLimit,
                    skipWhenEmpty,
                    display,
                    progress);
        }
    }
}
