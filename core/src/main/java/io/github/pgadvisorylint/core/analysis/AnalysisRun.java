package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.config.ConfigScan;
import io.github.pgadvisorylint.core.config.ModuleDirectories;
import io.github.pgadvisorylint.core.config.PoolingEvidenceScanner;
import io.github.pgadvisorylint.core.config.TimeoutEvidenceScanner;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileDiscovery;
import io.github.pgadvisorylint.core.discovery.FileKind;
import io.github.pgadvisorylint.core.discovery.OtherLanguage;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.facts.HelperSummary;
import io.github.pgadvisorylint.core.facts.Suppression;
import io.github.pgadvisorylint.core.flow.LockPaths;
import io.github.pgadvisorylint.core.flow.MethodFlow;
import io.github.pgadvisorylint.core.io.BoundedReads;
import io.github.pgadvisorylint.core.java.JavaFrontEnd;
import io.github.pgadvisorylint.core.keys.ReleaseMatching;
import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.model.EvidenceScopes;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockOrderEdge;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.LoopOrder;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.model.SiteHazards;
import io.github.pgadvisorylint.core.model.SiteUsage;
import io.github.pgadvisorylint.core.model.TimeoutEvidence;
import io.github.pgadvisorylint.core.mybatis.MyBatisMapperFrontEnd;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import io.github.pgadvisorylint.core.sql.SqlFileFrontEnd;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** One analysis: discovery, prefilter, front ends in parallel, lock model, rules, sorted findings. */
final class AnalysisRun {

    /** Files larger than this are skipped with a notification (bytes). */
    static final long MAX_FILE_BYTES = SourceReader.MAX_FILE_BYTES;

    /** Stack of each worker thread (bytes): JavaParser and JSqlParser recurse once per nesting level. */
    static final long WORKER_STACK_BYTES = 256L * 1024 * 1024;

    /**
     * The default wall-clock safety limit: how long one file may take in one phase (read, parse, extract),
     * or one rule may run, before the analysis stops with {@link TimeLimitExceededException}. Far above
     * any real file (the slowest real file measured takes under a second): it guards against a hang, and
     * never decides what is reported.
     */
    static final Duration DEFAULT_TIME_LIMIT = Duration.ofMinutes(5);

    private final List<Rule> rules;
    private final int threads;
    private final Path root;
    private final List<Path> targets;
    private final SqlAnalyzer sqlAnalyzer = new SqlAnalyzer();
    private final JavaFrontEnd javaFrontEnd;
    private final SqlFileFrontEnd sqlFrontEnd = new SqlFileFrontEnd(sqlAnalyzer);
    private final MyBatisMapperFrontEnd mapperFrontEnd = new MyBatisMapperFrontEnd(sqlAnalyzer);
    private final PoolingSetting pooling;
    private final PoolingEvidenceScanner poolingScanner = new PoolingEvidenceScanner();
    private final TimeoutEvidenceScanner timeoutScanner = new TimeoutEvidenceScanner();
    /** Pooling evidence of the files not abandoned, in path order; set when the front ends end. */
    private List<PoolingEvidence> poolingEvidence = List.of();
    /** Timeout evidence, as {@link #poolingEvidence}. */
    private List<TimeoutEvidence> timeoutEvidence = List.of();

    /** How long one file may take in one phase. */
    private final long limitNanos;

    /**
     * Test seam: runs at the start of every per-file task on the worker thread, with the file's
     * relative path (lets a test stand in for a front end that never returns). A no-op in production.
     */
    Consumer<String> beforeFileTask = path -> {};

    private final Settings settings;
    private long startedNanos;
    private final AtomicInteger done = new AtomicInteger();
    private volatile int total;

    /**
     * What the {@link Analyzer} was configured with.
     *
     * @param rules               every installed rule, sorted by id
     * @param disabled            ids of rules not to run
     * @param severities          rule id to overriding severity
     * @param threads             worker threads
     * @param pooling             the pooling setting
     * @param fileFilter          which discovered files (absolute paths) are analysed
     * @param extraLockHelpers    configured lock-helper method names (see {@link JavaFrontEnd})
     * @param extraPooledApiTypes configured pooled-API type names (see {@link JavaFrontEnd})
     * @param progress            progress sink
     * @param cache               the incremental-analysis cache to read and update, or null for none
     */
    record Settings(
            List<Rule> rules,
            Set<String> disabled,
            Map<String, Severity> severities,
            int threads,
            PoolingSetting pooling,
            Predicate<Path> fileFilter,
            Set<String> extraLockHelpers,
            Set<String> extraPooledApiTypes,
            ProgressListener progress,
            FactsCache cache) {

        /** Settings without a cache. */
        Settings(
                List<Rule> rules,
                Set<String> disabled,
                Map<String, Severity> severities,
                int threads,
                PoolingSetting pooling,
                Predicate<Path> fileFilter,
                Set<String> extraLockHelpers,
                Set<String> extraPooledApiTypes,
                ProgressListener progress) {
            this(
                    rules,
                    disabled,
                    severities,
                    threads,
                    pooling,
                    fileFilter,
                    extraLockHelpers,
                    extraPooledApiTypes,
                    progress,
                    null);
        }

        /** @return the settings that change what the front ends extract, in a stable textual form */
        String factKey() {
            return "pooling=" + pooling + ";lockHelpers=" + new TreeSet<>(extraLockHelpers) + ";pooledApiTypes="
                    + new TreeSet<>(extraPooledApiTypes);
        }
    }

    AnalysisRun(Settings settings, Path root, List<Path> targets) {
        this(settings, root, targets, DEFAULT_TIME_LIMIT);
    }

    /**
     * @param timeLimit how long one file may take in one phase, or one rule may run, before the analysis
     *                  stops with {@link TimeLimitExceededException}
     */
    AnalysisRun(Settings settings, Path root, List<Path> targets, Duration timeLimit) {
        this.limitNanos = timeLimit.toNanos();
        this.settings = settings;
        this.rules = settings.rules().stream()
                .filter(r -> !settings.disabled().contains(r.descriptor().id()))
                .toList();
        this.threads = settings.threads();
        this.pooling = settings.pooling();
        this.root = root.toAbsolutePath().normalize();
        this.targets = targets.isEmpty() ? List.of(this.root) : List.copyOf(targets);
        this.javaFrontEnd = new JavaFrontEnd(sqlAnalyzer, settings.extraLockHelpers(), settings.extraPooledApiTypes());
    }

    private void step() {
        settings.progress().progress(done.incrementAndGet(), total);
    }

    AnalysisResult run() {
        long started = System.nanoTime();
        startedNanos = started;
        FileDiscovery.Result found = FileDiscovery.discover(root, targets);
        FileDiscovery.Result discovered = new FileDiscovery.Result(
                found.files().stream()
                        .filter(f -> settings.fileFilter()
                                .test(f.path().toAbsolutePath().normalize()))
                        .filter(f -> !isCacheFile(f.path())) // the cache is never an input, even inside the tree
                        .toList(),
                found.notifications());
        // files in languages the tool does not read, counted as the configuration's excludes leave them
        Map<OtherLanguage, Integer> unanalysed = new EnumMap<>(OtherLanguage.class);
        for (Path other : found.otherLanguage()) {
            if (settings.fileFilter().test(other)) {
                unanalysed.merge(OtherLanguage.of(FileDiscovery.displayName(other.getFileName())), 1, Integer::sum);
            }
        }
        total = 2 * discovered.files().size();
        List<Notification> notifications = new ArrayList<>(discovered.notifications());
        phaseDone("discover");
        List<FileFacts> facts = analyzeAll(discovered.files());
        List<LockSite> sites = new ArrayList<>();
        List<LockLifecycle> lifecycles = new ArrayList<>();
        List<Suppression> suppressions = new ArrayList<>();
        List<LockOrderEdge> orderEdges = new ArrayList<>();
        Map<String, LoopOrder> loops = new HashMap<>();
        Map<String, SiteUsage> usages = new HashMap<>();
        Map<String, SiteHazards> hazards = new HashMap<>();
        List<MethodFlow> flows = new ArrayList<>();
        // the lock helpers' own SQL sites: their callers are sites of their own (SiteRole.HELPER_BODY)
        Set<SourceRegion> helperBodies = new TreeSet<>();
        int analyzed = 0;
        for (FileFacts f : facts) {
            if (f == null) {
                continue;
            }
            analyzed++;
            sites.addAll(f.sites());
            lifecycles.addAll(f.lifecycles());
            notifications.addAll(f.notifications());
            suppressions.addAll(f.suppressions());
            orderEdges.addAll(f.orderEdges());
            loops.putAll(f.loops());
            usages.putAll(f.usages());
            hazards.putAll(f.hazards());
            flows.addAll(f.flows());
            for (HelperSummary h : f.helpers()) {
                h.ops().forEach(op -> helperBodies.add(op.inner().region()));
            }
        }
        EvidenceScopes scopes = evidenceScopes(discovered.files());
        // read once for the paths' pool default and the sites' data sources, and only when one of them asks
        boolean named = !sites.isEmpty();
        List<SourceFile> configs =
                named || !flows.isEmpty() ? ConnectionDefaults.configFiles(discovered.files()) : List.of();
        LockModel model = new LockModel(sites, lifecycles, poolingEvidence, pooling, orderEdges, loops, helperBodies)
                .withUsage(usages, timeoutEvidence)
                .withEvidenceScopes(scopes)
                .withDataSources(ConnectionDefaults.dataSources(configs, sites, scopes, discovered.files()));
        long pathsDeadline = System.nanoTime() + limitNanos;
        AutoCommitSetting autoCommitOff = flows.isEmpty() ? null : ConnectionDefaults.autoCommitOff(configs);
        model = LockPaths.apply(
                        model,
                        flows,
                        notifications,
                        settings.progress()::paths,
                        () -> {
                            if (System.nanoTime() - pathsDeadline > 0) {
                                throw new TimeLimitExceededException(
                                        "the lock paths (the whole-program phase)", Duration.ofNanos(limitNanos));
                            }
                        },
                        autoCommitOff)
                .withHazards(hazards);
        model = model.withMigrations(MigrationScan.scan(discovered.files(), model.acquisitions()));
        model = model.withReleaseMismatches(ReleaseMatching.of(model));
        phaseDone("paths");
        Set<String> known = new TreeSet<>();
        settings.rules().forEach(r -> known.add(r.descriptor().id()));
        Set<String> active = new TreeSet<>();
        rules.forEach(r -> active.add(r.descriptor().id()));
        FindingCollector collector =
                new FindingCollector(model, known, settings.severities(), Duration.ofNanos(limitNanos));
        List<Rule> late = new ArrayList<>();
        for (Rule rule : rules) {
            if (rule.phase() == Rule.Phase.AFTER_FINDINGS) {
                late.add(rule);
            } else {
                collector.runRule(rule, notifications);
            }
        }
        FindingCollector.Outcome outcome = collector.findings(suppressions, late, active, notifications);
        phaseDone("rules");
        notifications.sort(Comparator.naturalOrder());
        List<RuleDescriptor> descriptors = rules.stream()
                .map(Rule::descriptor)
                .map(this::withOverride)
                .sorted(Comparator.comparing(RuleDescriptor::id))
                .toList();
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        return new AnalysisResult(
                root,
                descriptors,
                outcome.active(),
                notifications,
                model,
                discovered.files().size(),
                analyzed,
                elapsed,
                outcome.suppressed(),
                unanalysed);
    }

    /** Whether a discovered file is the cache file, also when either path goes through a symbolic link. */
    private boolean isCacheFile(Path file) {
        if (settings.cache() == null) {
            return false;
        }
        Path cache = settings.cache().file().toAbsolutePath().normalize();
        if (file.toAbsolutePath().normalize().equals(cache)) {
            return true;
        }
        try {
            Path real = cache.toRealPath();
            return file.getFileName() != null
                    && file.getFileName().equals(real.getFileName())
                    && Files.isSameFile(file, real);
        } catch (IOException e) {
            return false; // no cache file yet (or unreadable): nothing to confuse it with
        }
    }

    /** Tells the progress listener that a phase ended. */
    private void phaseDone(String phase) {
        settings.progress().phaseDone(phase, (System.nanoTime() - startedNanos) / 1_000_000);
    }

    /** @return the evidence of the files not abandoned, in path order */
    private static <E> List<E> counted(Map<String, List<E>> byFile, Map<String, Notification> skipped) {
        List<E> out = new ArrayList<>();
        new TreeMap<>(byFile).forEach((path, found) -> {
            if (!skipped.containsKey(path)) {
                out.addAll(found);
            }
        });
        return out;
    }

    private RuleDescriptor withOverride(RuleDescriptor d) {
        Severity s = settings.severities().get(d.id());
        return s == null || s == d.defaultSeverity() ? d : d.withDefaultSeverity(s);
    }

    /**
     * Runs the front ends: reads and prefilters every file, runs the Java part ({@link JavaProject}),
     * and the SQL and configuration front ends. Each phase runs on {@link #threads} threads through
     * the budgeted {@link FileTasks}; tasks return their results, which this thread gathers. The
     * result is in file order.
     */
    private List<FileFacts> analyzeAll(List<DiscoveredFile> files) {
        try (FileTasks tasks = new FileTasks(threads, limitNanos, beforeFileTask)) {
            FactsCache cache = settings.cache();
            String fingerprint = cache == null ? null : FactsCache.fingerprint(settings.factKey());
            FactsCache.Snapshot previous = cache == null ? null : cache.usable(fingerprint);
            SourceReader reader = new SourceReader(
                    pooling,
                    cache != null,
                    f -> previous != null
                            && (isCachedJava(previous, f)
                                    || (f.kind() == FileKind.JAVA
                                            && previous.watchedTypeNames().contains(JavaProject.typeName(f)))));
            Set<String> askNames = previous == null ? Set.of() : previous.helperCallNames();
            List<SourceReader.Read> reads = tasks.map(files, f -> f, f -> {
                try {
                    return reader.read(f, false, null, askNames);
                } finally {
                    step();
                }
            });
            phaseDone("read");
            Map<String, String> hashes = new HashMap<>();
            Set<String> callsPreviousHelpers = new HashSet<>();
            List<Staged> staged = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                SourceReader.Read r = reads.get(i);
                staged.add(r == null ? Staged.Out.OUT : r.staged());
                if (r != null && r.sha256() != null) {
                    hashes.put(files.get(i).relativePath(), r.sha256());
                }
                if (r != null && r.bytesCalled()) {
                    callsPreviousHelpers.add(files.get(i).relativePath());
                }
            }
            boolean javaReused = previous != null
                    && previous.javaReusable()
                    && javaUnchanged(previous, files, staged, hashes, callsPreviousHelpers);
            boolean[] reused = new boolean[files.size()];
            Map<String, List<PoolingEvidence>> pooled = new TreeMap<>();
            Map<String, List<TimeoutEvidence>> timeouts = new TreeMap<>();
            Set<String> participants = new TreeSet<>();
            if (previous != null) {
                reuseUnchanged(previous, files, staged, hashes, reused, javaReused, pooled, timeouts, participants);
            }
            Set<Integer> callPrevious = new HashSet<>();
            for (int i = 0; i < files.size(); i++) {
                if (reads.get(i) != null && reads.get(i).bytesCalled()) {
                    callPrevious.add(i);
                }
            }
            JavaProject.Result javaPart = javaReused
                    ? null
                    : analyzeJava(
                            tasks,
                            files,
                            staged,
                            reader,
                            previous != null && previous.javaReusable() ? previous : null,
                            hashes,
                            callPrevious);
            if (javaPart != null) {
                participants.addAll(javaPart.participants());
                hashes.putAll(javaPart.hashes());
            }
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                all.add(i);
            }
            List<Finished> finished = tasks.map(all, files::get, i -> {
                try {
                    return finish(
                            files.get(i),
                            staged.get(i),
                            javaPart == null ? null : javaPart.facts().get(i),
                            javaPart != null && javaPart.lossy().contains(i));
                } finally {
                    step();
                }
            });
            phaseDone("extract");
            List<FileFacts> out = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                Finished f = finished.get(i);
                out.add(f == null ? null : f.facts());
                if (f != null && f.config()) {
                    pooled.put(files.get(i).relativePath(), f.pooling());
                    timeouts.put(files.get(i).relativePath(), f.timeouts());
                }
            }
            Map<String, Notification> skipped = tasks.skipped();
            poolingEvidence = counted(pooled, skipped);
            timeoutEvidence = counted(timeouts, skipped);
            if (cache != null) {
                Set<String> watched = new TreeSet<>();
                if (javaReused) {
                    watched.addAll(previous.watchedTypeNames());
                } else {
                    watched.addAll(javaPart.watchedTypeNames());
                }
                cache.record(
                        snapshot(
                                fingerprint,
                                previous,
                                javaReused,
                                files,
                                out,
                                javaPart,
                                hashes,
                                participants,
                                watched,
                                pooled,
                                timeouts),
                        stats(reused, out, javaReused, javaPart == null ? null : javaPart.counts()));
            }
            for (int i = 0; i < out.size(); i++) {
                Notification why = skipped.get(files.get(i).relativePath());
                if (why != null) {
                    // abandoned in this or an earlier phase: only the reason remains
                    out.set(i, FileFacts.failed(files.get(i).relativePath(), List.of(why)));
                }
            }
            return out;
        }
    }

    /** The Java part: the Java candidates, the mapper XML files, and what joins them. */
    private JavaProject.Result analyzeJava(
            FileTasks tasks,
            List<DiscoveredFile> files,
            List<Staged> staged,
            SourceReader reader,
            FactsCache.Snapshot previous,
            Map<String, String> hashes,
            Set<Integer> callPrevious) {
        SortedMap<Integer, Staged.Text> candidates = new TreeMap<>();
        SortedMap<Integer, Staged.Mapper> mappers = new TreeMap<>();
        Set<Integer> ruledOut = new HashSet<>();
        for (int i = 0; i < staged.size(); i++) {
            Staged s = staged.get(i);
            boolean java = files.get(i).kind() == FileKind.JAVA;
            if (java && s instanceof Staged.Text t) {
                candidates.put(i, t);
            } else if (s instanceof Staged.Mapper m) {
                mappers.put(i, m);
            } else if (java && s instanceof Staged.Out) {
                ruledOut.add(i);
            }
        }
        Set<String> configured = new TreeSet<>();
        settings.extraLockHelpers().forEach(h -> configured.add(h.substring(h.lastIndexOf('.') + 1)));
        JavaProject project = new JavaProject(
                tasks,
                javaFrontEnd,
                mapperFrontEnd,
                files,
                (f, wanted) -> reader.read(f, true, wanted, Set.of()),
                ruledOut,
                configured,
                this::phaseDone);
        Map<String, JavaProject.Previous> before = new HashMap<>();
        if (previous != null) {
            previous.files().forEach((path, e) -> {
                if (e.extractedWith() != null) {
                    before.put(
                            path,
                            new JavaProject.Previous(
                                    e.sha256(), e.extractedWith(), e.facts(), e.called(), e.earlier()));
                }
            });
        }
        JavaProject.Result result = project.analyze(
                candidates,
                mappers,
                before,
                hashes,
                previous == null ? null : previous.helperCallNames(),
                callPrevious);
        JavaProject.Counts c = result.counts();
        settings.progress().parsed(c.outlines(), c.parses(), c.repeated(), c.reused());
        return result;
    }

    /** Whether a file took part in the Java analysis of the cached run. */
    private static boolean isCachedJava(FactsCache.Snapshot previous, DiscoveredFile f) {
        FactsCache.Entry e = previous.files().get(f.relativePath());
        return e != null && e.java();
    }

    /**
     * Whether the cached Java facts still hold: every file that took part in the Java analysis is
     * unchanged, and no new or changed Java file could take part (a prefilter candidate, a caller of a
     * helper, a file named like a type the analysed files refer to) and no mapper XML file changed.
     */
    private boolean javaUnchanged(
            FactsCache.Snapshot previous,
            List<DiscoveredFile> files,
            List<Staged> read,
            Map<String, String> hashes,
            Set<String> callsPreviousHelpers) {
        Map<String, Integer> slots = new HashMap<>();
        for (int i = 0; i < files.size(); i++) {
            slots.put(files.get(i).relativePath(), i);
        }
        for (var e : previous.files().entrySet()) {
            if (e.getValue().java()
                    && (!slots.containsKey(e.getKey()) || !e.getValue().sha256().equals(hashes.get(e.getKey())))) {
                return false;
            }
        }
        for (int i = 0; i < files.size(); i++) {
            DiscoveredFile f = files.get(i);
            Staged s = read.get(i);
            FactsCache.Entry e = previous.files().get(f.relativePath());
            if (e != null && e.facts() == null && (s instanceof Staged.Text || s instanceof Staged.Mapper)) {
                return false; // a candidate always has facts: this cache was edited
            }
            if (e != null && e.sha256().equals(hashes.get(f.relativePath()))) {
                continue;
            }
            if (s instanceof Staged.Mapper) {
                return false;
            }
            if (f.kind() == FileKind.JAVA) {
                if (s instanceof Staged.Text
                        || previous.watchedTypeNames().contains(JavaProject.typeName(f))
                        || callsPreviousHelpers.contains(f.relativePath())) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Puts the cached facts of unchanged files in {@code staged}: SQL and configuration files one by
     * one (with their pooling and timeout evidence), Java and mapper files all together when
     * {@code javaReused}.
     */
    private void reuseUnchanged(
            FactsCache.Snapshot previous,
            List<DiscoveredFile> files,
            List<Staged> staged,
            Map<String, String> hashes,
            boolean[] reused,
            boolean javaReused,
            Map<String, List<PoolingEvidence>> pooled,
            Map<String, List<TimeoutEvidence>> timeouts,
            Set<String> participants) {
        for (int i = 0; i < files.size(); i++) {
            String path = files.get(i).relativePath();
            FactsCache.Entry e = previous.files().get(path);
            if (e == null || !e.sha256().equals(hashes.get(path))) {
                continue;
            }
            Staged read = staged.get(i);
            boolean java = files.get(i).kind() == FileKind.JAVA || read instanceof Staged.Mapper;
            if (java && javaReused) {
                staged.set(i, e.facts() == null ? Staged.Out.OUT : new Staged.Known(e.facts()));
                if (e.java()) {
                    participants.add(path);
                }
                reused[i] = true;
            } else if (!java && e.facts() != null && (read instanceof Staged.Config || read instanceof Staged.Text)) {
                if (read instanceof Staged.Config) {
                    pooled.put(path, e.pooling());
                    timeouts.put(path, e.timeouts());
                }
                staged.set(i, new Staged.Known(e.facts()));
                reused[i] = true;
            }
        }
    }

    /**
     * @param sources every file of the scan
     * @return the modules each file with pooling or timeout evidence speaks for
     */
    private EvidenceScopes evidenceScopes(List<DiscoveredFile> sources) {
        Set<String> files = new TreeSet<>();
        poolingEvidence.forEach(e -> files.add(e.region().path()));
        timeoutEvidence.stream()
                .filter(t -> t.region() != null)
                .forEach(t -> files.add(t.region().path()));
        return ModuleDirectories.scopes(
                root, files, sources.stream().map(DiscoveredFile::relativePath).toList());
    }

    /** What this analysis leaves for the next: every file read, with its hash and facts. */
    private FactsCache.Snapshot snapshot(
            String fingerprint,
            FactsCache.Snapshot previous,
            boolean javaReused,
            List<DiscoveredFile> files,
            List<FileFacts> out,
            JavaProject.Result javaPart,
            Map<String, String> hashes,
            Set<String> participants,
            Set<String> watchedTypeNames,
            Map<String, List<PoolingEvidence>> pooled,
            Map<String, List<TimeoutEvidence>> timeouts) {
        SortedMap<String, FactsCache.Entry> entries = new TreeMap<>();
        for (DiscoveredFile f : files) {
            // files named like a referenced type: the next run must tell whether they changed
            if (f.kind() == FileKind.JAVA
                    && !hashes.containsKey(f.relativePath())
                    && watchedTypeNames.contains(JavaProject.typeName(f))
                    && f.size() <= MAX_FILE_BYTES) {
                try {
                    hashes.put(f.relativePath(), SourceReader.sha256(BoundedReads.read(f.path(), MAX_FILE_BYTES)));
                } catch (IOException e) {
                    // unreadable now (or grown, or no longer a regular file): no entry, so the next run treats it as
                    // new
                }
            }
        }
        for (int i = 0; i < files.size(); i++) {
            String path = files.get(i).relativePath();
            String hash = hashes.get(path);
            if (hash != null) {
                List<FactsCache.Extraction> history =
                        javaPart == null ? null : javaPart.extracted().get(i);
                FactsCache.Entry kept =
                        previous == null ? null : previous.files().get(path);
                String with = null;
                SortedSet<String> called = null;
                List<FactsCache.Extraction> earlier = null;
                if (history != null && !history.isEmpty()) {
                    FactsCache.Extraction last = history.get(history.size() - 1);
                    with = last.with();
                    called = last.called();
                    earlier = history.size() > 1 ? List.copyOf(history.subList(0, history.size() - 1)) : null;
                } else if (javaReused && kept != null) {
                    with = kept.extractedWith();
                    called = kept.called();
                    earlier = kept.earlier();
                }
                boolean extracted = with != null && out.get(i) != null;
                entries.put(
                        path,
                        new FactsCache.Entry(
                                hash,
                                participants.contains(path),
                                out.get(i),
                                pooled.getOrDefault(path, List.of()),
                                timeouts.getOrDefault(path, List.of()),
                                extracted ? with : null,
                                extracted ? called : null,
                                extracted ? earlier : null));
            }
        }
        SortedSet<String> callNames = new TreeSet<>();
        if (javaReused) {
            callNames.addAll(previous.helperCallNames());
        } else {
            callNames.addAll(javaPart.registry().callNames());
            settings.extraLockHelpers().forEach(h -> callNames.add(h.substring(h.lastIndexOf('.') + 1)));
        }
        return new FactsCache.Snapshot(
                FactsCache.FORMAT, fingerprint, true, new TreeSet<>(watchedTypeNames), callNames, entries);
    }

    private static FactsCache.Stats stats(
            boolean[] reused, List<FileFacts> out, boolean javaReused, JavaProject.Counts counts) {
        int fromCache = 0;
        int fresh = 0;
        for (int i = 0; i < reused.length; i++) {
            if (reused[i]) {
                fromCache++;
            } else if (out.get(i) != null) {
                fresh++;
            }
        }
        return new FactsCache.Stats(
                fromCache,
                fresh,
                javaReused,
                counts == null ? 0 : counts.reused(),
                counts == null ? 0 : counts.parses());
    }

    /** @return e.g. {@code 10 s}, {@code 250 ms} */
    static String describe(long nanos) {
        long ms = nanos / 1_000_000;
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    /**
     * What the last phase made of one file: its facts, and for a configuration file its evidence.
     *
     * @param facts    the facts, or null when the prefilter ruled the file out
     * @param config   whether it is a configuration file read for evidence
     * @param pooling  its pooling evidence (configuration files)
     * @param timeouts its timeout evidence (configuration files)
     */
    private record Finished(
            FileFacts facts, boolean config, List<PoolingEvidence> pooling, List<TimeoutEvidence> timeouts) {
        Finished(FileFacts facts) {
            this(facts, false, List.of(), List.of());
        }
    }

    /** Turns a read file into facts: the Java part's for Java files and mappers, the SQL or configuration front end's otherwise. */
    private Finished finish(DiscoveredFile f, Staged staged, FileFacts javaFacts, boolean lossyCaller) {
        try {
            FileFacts facts;
            if (staged instanceof Staged.Known k) {
                return new Finished(k.facts());
            } else if (staged instanceof Staged.Out) {
                // a helper caller when the Java part read it, else nothing
                return new Finished(javaFacts != null && lossyCaller ? withEncodingNote(javaFacts, f) : javaFacts);
            } else if (staged instanceof Staged.Mapper) {
                return new Finished(javaFacts);
            } else if (staged instanceof Staged.Config config) {
                List<TimeoutEvidence> timeouts = timeoutScanner.scan(config.file());
                ConfigScan scan = pooling == PoolingSetting.AUTO
                                && PoolingEvidenceScanner.mayHoldEvidence(
                                        config.file().text().getBytes(StandardCharsets.UTF_8))
                        ? poolingScanner.scan(config.file())
                        : ConfigScan.empty();
                return new Finished(
                        new FileFacts(config.file().path(), List.of(), List.of(), scan.notifications(), List.of()),
                        true,
                        scan.evidence(),
                        timeouts);
            } else {
                Staged.Text text = (Staged.Text) staged;
                facts = f.kind() == FileKind.JAVA ? javaFacts : sqlFrontEnd.analyze(text.file());
                return new Finished(facts != null && text.lossy() ? withEncodingNote(facts, f) : facts);
            }
        } catch (StackOverflowError | RuntimeException e) {
            return new Finished(FileFacts.failed(f.relativePath(), List.of(FileTasks.failure(f.relativePath(), e))));
        }
    }

    /** @return the facts with a note that the file was read as ISO-8859-1 */
    private static FileFacts withEncodingNote(FileFacts facts, DiscoveredFile f) {
        List<Notification> notes = new ArrayList<>(facts.notifications());
        notes.add(new Notification(
                Severity.NOTE,
                "encoding",
                "file is not valid UTF-8; read as ISO-8859-1",
                SourceRegion.line(f.relativePath(), 1)));
        return new FileFacts(
                facts.path(),
                facts.sites(),
                facts.lifecycles(),
                notes,
                facts.suppressions(),
                facts.helpers(),
                facts.orderEdges(),
                facts.loops(),
                facts.usages(),
                facts.flows(),
                facts.hazards());
    }

    /** @return the lower-case hex SHA-256 of the bytes (also the base of finding fingerprints) */
    static String sha256(byte[] bytes) {
        return SourceReader.sha256(bytes);
    }
}
