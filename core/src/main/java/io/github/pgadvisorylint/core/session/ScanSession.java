package io.github.pgadvisorylint.core.session;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.analysis.FactsCache;
import io.github.pgadvisorylint.core.baseline.Baseline;
import io.github.pgadvisorylint.core.baseline.BaselineException;
import io.github.pgadvisorylint.core.config.ConfigException;
import io.github.pgadvisorylint.core.config.LintConfig;
import io.github.pgadvisorylint.core.config.LintConfigLoader;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.discovery.FileDiscovery;
import io.github.pgadvisorylint.core.discovery.TestSources;
import io.github.pgadvisorylint.core.io.AtomicFiles;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.report.ReportOptions;
import io.github.pgadvisorylint.core.report.Reporter;
import io.github.pgadvisorylint.core.report.TextReporter;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One scan from a {@link ScanRequest} to a {@link ScanOutcome}, the same for the CLI and the Maven plugin:
 * configuration, path base, test sources, cache, analysis, baseline update and application, report files,
 * summary and fail decision. It never prints: what the user should read comes back as
 * {@link ScanMessage}s. Input problems throw {@link ScanException}; a failure of the analysis (a bug)
 * propagates as it is.
 */
public final class ScanSession {

    /** Runs one analysis; the CLI's tests replace it with hand-built results. */
    @FunctionalInterface
    public interface Engine {
        /**
         * @param root      the path base: reported paths are relative to it
         * @param targets   files or directories inside it
         * @param threads   parsing threads, at least 1
         * @param rules     every installed rule
         * @param configure applies the session's settings (pooling, rules, severities, file filter, lock
         *                  helpers, pooled API types, cache, progress) to the analyzer being built
         * @return the result, paths relative to {@code root}
         */
        AnalysisResult analyze(
                Path root, List<Path> targets, int threads, List<Rule> rules, Consumer<Analyzer.Builder> configure);
    }

    /** The core {@link Analyzer} as an engine. */
    public static final Engine ANALYZER = (root, targets, threads, rules, configure) -> {
        Analyzer.Builder b = Analyzer.builder().rules(rules).threads(threads);
        configure.accept(b);
        return b.build().analyze(root, targets);
    };

    private final Engine engine;

    /** A session running the core analyzer. */
    public ScanSession() {
        this(ANALYZER);
    }

    /** @param engine runs the analysis */
    public ScanSession(Engine engine) {
        this.engine = Objects.requireNonNull(engine, "engine");
    }

    /**
     * @param request what to scan and how
     * @return the outcome; report files and the baseline are written, the cache saved
     * @throws ScanException for a missing or invalid configuration or baseline, an unwritable report or
     *                       baseline, or a path base that does not hold the scanned directory
     */
    public ScanOutcome run(ScanRequest request) {
        List<ScanMessage> messages = new ArrayList<>();
        LintConfig config = loadConfig(request);
        if (config.file() != null) {
            messages.add(info(
                    ScanMessage.Kind.CONFIGURATION,
                    "configuration " + request.display().apply(config.file())));
        }
        PathBase.Choice base = PathBase.choose(request.pathBase(), request.scanRoot(), request.pathBaseFallback());
        Path root = base.directory();
        boolean includeTests =
                request.includeTests() != null ? request.includeTests() : Boolean.TRUE.equals(config.includeTests());
        Predicate<Path> filter = config.fileFilter(
                request.scanRoot(), includeTests ? null : new TestSources(request.scanRoot(), request.testRoots()));
        Baseline baseline = readBaseline(request);
        if (request.skipWhenEmpty()
                && request.writeBaselineFile() == null
                && request.extraNotifications().isEmpty()
                && request.targets().stream().noneMatch(t -> Files.isDirectory(t) || filter.test(t))) {
            return new ScanOutcome(
                    false,
                    null,
                    base,
                    config,
                    includeTests,
                    null,
                    List.of(),
                    List.of(),
                    messages,
                    0,
                    false,
                    List.of(),
                    false);
        }

        FactsCache cache = null;
        if (request.cacheFile() != null) {
            // before it is read: a link leading out of the output root is neither read nor written through
            boolean confined = confine(request, request.cacheFile(), ScanMessage.Kind.CACHE, "the cache", messages);
            cache = confined ? FactsCache.load(request.cacheFile()) : null;
        }
        AnalysisResult analysed = analyse(request, config, root, filter, cache);
        if (cache != null) {
            cache.problem().ifPresent(p -> messages.add(warning(ScanMessage.Kind.CACHE, p)));
            String shown = request.display().apply(cache.file());
            try {
                if (cache.save().orElse(null) == AtomicFiles.Outcome.REPLACED_LINK) {
                    messages.add(warning(
                            ScanMessage.Kind.CACHE,
                            shown + " was a symbolic link leading out of its directory; the link was replaced by the"
                                    + " cache, nothing outside was written"));
                }
                messages.add(info(
                        ScanMessage.Kind.CACHE,
                        "cache " + shown + ": " + cache.stats().filesReused() + " files reused, "
                                + cache.stats().filesAnalysed() + " analysed"));
            } catch (IOException | RuntimeException e) {
                // the findings stand; only the next scan is slower
                messages.add(warning(
                        ScanMessage.Kind.CACHE,
                        "cannot write cache " + shown + ": " + describe(e)
                                + "; the next scan will not be incremental"));
            }
        }

        List<String> notes = new ArrayList<>();
        // the configuration that shaped this scan is named in the output, never applied unseen
        String configUsed = config.file() == null ? null : FileDiscovery.relative(root, config.file());
        if (configUsed != null) {
            notes.add("Configuration: " + configUsed);
        }
        AnalysisResult result = analysed;
        Path baselineShown = request.baselineFile();
        if (baseline != null) {
            warnIfNothingMatches(request, baseline, analysed, base).ifPresent(messages::add);
        }
        if (request.writeBaselineFile() != null) {
            Baseline updated = baseline == null
                    ? Baseline.of(analysed.findings())
                    : baseline.update(analysed.findings(), request.baselineRecordAll());
            try {
                updated.write(request.writeBaselineFile());
            } catch (IOException | RuntimeException e) {
                throw new ScanException(
                        ScanException.Problem.UNWRITABLE_BASELINE,
                        request.writeBaselineFile(),
                        "cannot write " + request.display().apply(request.writeBaselineFile()) + ": " + describe(e),
                        e);
            }
            int n = updated.entries().size();
            notes.add("Baseline written to " + request.display().apply(request.writeBaselineFile()) + " (" + n
                    + (n == 1 ? " entry)" : " entries)"));
            baseline = updated;
            baselineShown = request.writeBaselineFile();
        }
        if (baseline != null) {
            Path abs = baselineShown.toAbsolutePath().normalize();
            // reports name the baseline relative to the path base, or by its file name when outside it:
            // never an absolute path, so the same tree gives the same report everywhere
            result = baseline.apply(
                    analysed,
                    abs.startsWith(root)
                            ? FileDiscovery.relative(root, abs)
                            : abs.getFileName().toString());
        }

        List<ScanOutcome.WrittenReport> written = new ArrayList<>();
        for (ScanRequest.ReportTarget t : request.reports()) {
            Reporter reporter =
                    t.format().reporter(new ReportOptions(request.showSuppressed(), false, notes, configUsed));
            AnalysisResult report = result;
            AtomicFiles.Outcome done;
            try {
                confineOrThrow(request, t.file(), messages);
                done = AtomicFiles.write(t.file(), out -> reporter.write(report, out));
            } catch (IOException | RuntimeException e) {
                throw new ScanException(
                        ScanException.Problem.UNWRITABLE_REPORT,
                        t.file(),
                        "cannot write " + request.display().apply(t.file()) + ": " + describe(e),
                        e);
            }
            boolean replaced = done == AtomicFiles.Outcome.REPLACED_LINK;
            if (replaced) {
                messages.add(warning(
                        ScanMessage.Kind.REPORT,
                        request.display().apply(t.file()) + " was a symbolic link"
                                + " leading out of its directory; the link was replaced by the report, nothing outside was"
                                + " written"));
            }
            written.add(new ScanOutcome.WrittenReport(t.format(), t.file(), replaced));
            notes.add(t.format().displayName() + " written to "
                    + request.display().apply(t.file()));
        }
        messages.add(info(ScanMessage.Kind.SUMMARY, new TextReporter(notes).summary(result)));
        long failing = request.failPolicy().failing(result);
        List<Notification> leftOut =
                result.notifications().stream().filter(Notification::leavesOut).toList();
        boolean failOnIncomplete = request.failOnIncomplete() != null
                ? request.failOnIncomplete()
                : config.failOnIncomplete() != null ? config.failOnIncomplete() : request.failOnIncompleteByDefault();
        boolean incompleteFails = failOnIncomplete && !leftOut.isEmpty();
        return new ScanOutcome(
                true,
                result,
                base,
                config,
                includeTests,
                configUsed,
                notes,
                written,
                messages,
                failing,
                request.failPolicy().fails(result) || incompleteFails,
                leftOut,
                incompleteFails);
    }

    /**
     * Replaces the symbolic links below the request's output root that lead out of it on the way to one
     * of the tool's files ({@link AtomicFiles#confine}), with a warning per link, as a link at a report
     * itself is replaced. A committed link (at {@code target/pg-advisory-lint}, say) then cannot make the
     * scan read or write anything outside the build directory.
     *
     * @return false when a link could not be replaced (a warning says so): the file is left alone
     */
    private static boolean confine(
            ScanRequest request, Path file, ScanMessage.Kind kind, String what, List<ScanMessage> messages) {
        try {
            confineOrThrow(request, file, messages, kind, what);
            return true;
        } catch (IOException e) {
            messages.add(warning(
                    kind,
                    "cannot keep " + request.display().apply(file) + " inside "
                            + request.display().apply(request.outputRoot()) + ": " + describe(e) + "; "
                            + what + " is not used"));
            return false;
        }
    }

    private static void confineOrThrow(ScanRequest request, Path file, List<ScanMessage> messages) throws IOException {
        confineOrThrow(request, file, messages, ScanMessage.Kind.REPORT, "the report");
    }

    private static void confineOrThrow(
            ScanRequest request, Path file, List<ScanMessage> messages, ScanMessage.Kind kind, String what)
            throws IOException {
        Path root = request.outputRoot();
        for (Path link : AtomicFiles.confine(file, root)) {
            boolean last = link.equals(file.toAbsolutePath().normalize());
            messages.add(warning(
                    kind,
                    request.display().apply(link) + " was a symbolic link leading out of "
                            + request.display().apply(root) + "; the link was "
                            + (last ? "removed (" + what + " takes its place)" : "replaced by an empty folder")
                            + ", nothing outside was read or written"));
        }
    }

    private AnalysisResult analyse(
            ScanRequest request, LintConfig config, Path root, Predicate<Path> filter, FactsCache cache) {
        AnalysisResult r;
        if (request.targets().isEmpty()) {
            List<RuleDescriptor> descriptors = request.rules().stream()
                    .map(Rule::descriptor)
                    .filter(config::runs)
                    .sorted(Comparator.comparing(RuleDescriptor::id))
                    .toList();
            r = new AnalysisResult(
                    root, descriptors, List.of(), List.of(), new LockModel(List.of(), List.of()), 0, 0, 0);
        } else {
            r = engine.analyze(root, request.targets(), request.threads(), request.rules(), b -> {
                b.pooling(config.effectivePooling(request.pooling()));
                b.disabledRules(config.disabledRules());
                b.enabledRules(config.enabledRules());
                b.severityOverrides(config.severityOverrides());
                b.fileFilter(filter);
                b.extraLockHelpers(config.lockHelpers());
                b.extraPooledApiTypes(config.pooledApiTypes());
                b.cache(cache);
                b.progress(request.progress());
                Duration limit = request.timeLimit() != null ? request.timeLimit() : config.timeLimit();
                if (limit != null) {
                    b.timeLimit(limit);
                }
            });
        }
        if (request.extraNotifications().isEmpty()) {
            return r;
        }
        List<Notification> all = new ArrayList<>(r.notifications());
        all.addAll(request.extraNotifications());
        all.sort(Comparator.naturalOrder());
        return r.withNotifications(all);
    }

    /**
     * A baseline that holds entries but matches none of the scan's findings was most likely written from
     * another directory or with another path base (its paths, and so its fingerprints, differ), or
     * everything it held was fixed. Either way the user should know, instead of silently getting every
     * finding back.
     */
    private static Optional<ScanMessage> warnIfNothingMatches(
            ScanRequest request, Baseline baseline, AnalysisResult analysed, PathBase.Choice base) {
        if (baseline.entries().isEmpty()) {
            return Optional.empty();
        }
        List<Finding> all = new ArrayList<>(analysed.findings());
        all.addAll(analysed.suppressed());
        if (all.stream().anyMatch(baseline::contains)) {
            return Optional.empty();
        }
        // an entry whose file exists below the path base shows the paths are right: a scan of one module
        // with the baseline of the whole repository matches none of its entries, and that is fine
        Path root = base.directory().toAbsolutePath().normalize();
        if (baseline.entries().stream().anyMatch(e -> existsBelow(root, e.path()))) {
            return Optional.empty();
        }
        Path file = request.baselineFile() != null ? request.baselineFile() : request.writeBaselineFile();
        int n = baseline.entries().size();
        return Optional.of(warning(
                ScanMessage.Kind.BASELINE,
                "baseline " + request.display().apply(file)
                        + " has " + n + (n == 1 ? " entry" : " entries")
                        + " but none matches a finding of this scan: it was"
                        + " probably written from another directory or with another path base (paths are now relative to "
                        + request.display().apply(base.directory()) + "), or everything it held has been fixed"));
    }

    /** @return whether {@code path} names a regular file below {@code root} (no link followed); false for a bad path */
    private static boolean existsBelow(Path root, String path) {
        try {
            Path file = root.resolve(path).normalize();
            return file.startsWith(root) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS);
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** @return the file as the request displays it, followed by its absolute path when that differs */
    private static String shownWithAbsolute(ScanRequest request, Path file) {
        String shown = request.display().apply(file);
        String absolute = file.toAbsolutePath().normalize().toString();
        return shown.equals(absolute) ? shown : shown + " (" + absolute + ")";
    }

    private static LintConfig loadConfig(ScanRequest request) {
        Path file;
        if (request.configFile() != null) {
            file = request.configFile().toAbsolutePath().normalize();
            if (!Files.isRegularFile(file)) {
                throw new ScanException(
                        ScanException.Problem.NO_CONFIG_FILE,
                        file,
                        "no such configuration file: " + request.display().apply(file),
                        null);
            }
        } else {
            file = (request.configSearchTop() == null
                            ? LintConfigLoader.find(request.configSearchStart())
                            : LintConfigLoader.find(request.configSearchStart(), request.configSearchTop()))
                    .orElse(null);
        }
        if (file == null) {
            return LintConfig.none();
        }
        Set<String> known = new TreeSet<>();
        request.rules().forEach(r -> known.add(r.descriptor().id()));
        try {
            return LintConfigLoader.load(file, known);
        } catch (ConfigException e) {
            throw new ScanException(ScanException.Problem.BAD_CONFIG, file, e.getMessage(), e);
        }
    }

    /** The baseline to apply: the one given, else the one to write when it exists, else none. */
    private static Baseline readBaseline(ScanRequest request) {
        Path file = request.baselineFile();
        if (file == null) {
            Path write = request.writeBaselineFile();
            if (write == null || !Files.isRegularFile(write)) {
                return null;
            }
            file = write;
        } else if (!Files.isRegularFile(file)) {
            if (file.equals(request.writeBaselineFile())) {
                return null;
            }
            throw new ScanException(
                    ScanException.Problem.NO_BASELINE_FILE,
                    file,
                    "no such baseline file: " + shownWithAbsolute(request, file),
                    null);
        }
        try {
            return Baseline.read(file);
        } catch (BaselineException e) {
            throw new ScanException(ScanException.Problem.BAD_BASELINE, file, e.getMessage(), e);
        }
    }

    private static ScanMessage info(ScanMessage.Kind kind, String text) {
        return new ScanMessage(ScanMessage.Level.INFO, kind, text);
    }

    private static ScanMessage warning(ScanMessage.Kind kind, String text) {
        return new ScanMessage(ScanMessage.Level.WARNING, kind, text);
    }

    /**
     * @param e an exception
     * @return its kind and reason without a temporary file's path, e.g. {@code access denied}
     */
    public static String describe(Exception e) {
        String kind = e.getClass()
                .getSimpleName()
                .replace("Exception", "")
                .replaceAll("([a-z])([A-Z])", "$1 $2")
                .toLowerCase(Locale.ROOT);
        if (e instanceof FileSystemException fse) {
            return fse.getReason() == null ? kind : fse.getReason().toLowerCase(Locale.ROOT);
        }
        return e.getMessage() == null ? kind : kind + " (" + e.getMessage() + ")";
    }
}
