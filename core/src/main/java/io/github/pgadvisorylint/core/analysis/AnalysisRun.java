package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.flow.LockPaths;
import io.github.pgadvisorylint.core.flow.MethodFlow;
import io.github.pgadvisorylint.core.config.ConfigScan;
import io.github.pgadvisorylint.core.config.PoolingEvidence;
import io.github.pgadvisorylint.core.config.PoolingEvidenceScanner;
import io.github.pgadvisorylint.core.config.PoolingSetting;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileDiscovery;
import io.github.pgadvisorylint.core.discovery.FileKind;
import io.github.pgadvisorylint.core.discovery.Prefilter;
import io.github.pgadvisorylint.core.java.ConstantIndex;
import io.github.pgadvisorylint.core.java.HelperRegistry;
import io.github.pgadvisorylint.core.java.HelperSummary;
import io.github.pgadvisorylint.core.java.JavaFrontEnd;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.mybatis.MyBatisMapperFrontEnd;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SourceRegion;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.rule.Severity;
import io.github.pgadvisorylint.core.source.SourceDecoder;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import io.github.pgadvisorylint.core.sql.SqlFileFrontEnd;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** One analysis: discovery, prefilter, front ends in parallel, lock model, rules, sorted findings. */
final class AnalysisRun {

    /** Files larger than this are skipped with a notification (bytes). */
    static final long MAX_FILE_BYTES = 16L * 1024 * 1024;

    /** Rounds of helper discovery: a helper calling a helper calling a helper is three. */
    static final int MAX_HELPER_ROUNDS = 5;

    /** Stack of each worker thread (bytes): JavaParser and JSqlParser recurse once per nesting level. */
    static final long WORKER_STACK_BYTES = 256L * 1024 * 1024;

    /** The default time one file may take in one phase (read, parse, extract) before it is abandoned. */
    static final java.time.Duration DEFAULT_FILE_TIME_BUDGET = java.time.Duration.ofSeconds(10);

    private final List<Rule> rules;
    private final int threads;
    private final Path root;
    private final List<Path> targets;
    private final SqlAnalyzer sqlAnalyzer = new SqlAnalyzer();
    private final JavaFrontEnd javaFrontEnd;
    private final SqlFileFrontEnd sqlFrontEnd = new SqlFileFrontEnd(sqlAnalyzer);
    private final MyBatisMapperFrontEnd mapperFrontEnd = new MyBatisMapperFrontEnd(sqlAnalyzer);
    private final java.util.Set<String> lossy = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Java facts of the helper round that converged, by file slot: extracted with the final helpers and constants. */
    private final java.util.Map<Integer, FileFacts> convergedFacts = new java.util.concurrent.ConcurrentHashMap<>();

    private final PoolingSetting pooling;
    private final PoolingEvidenceScanner poolingScanner = new PoolingEvidenceScanner();
    /** Pooling evidence by file: only files whose task was not abandoned count (a late task cannot add any). */
    private final java.util.Map<String, List<PoolingEvidence>> poolingEvidence = new java.util.concurrent.ConcurrentHashMap<>();
    private final io.github.pgadvisorylint.core.config.TimeoutEvidenceScanner timeoutScanner =
            new io.github.pgadvisorylint.core.config.TimeoutEvidenceScanner();
    /** Timeout evidence by file, as for {@link #poolingEvidence}. */
    private final java.util.Map<String, List<io.github.pgadvisorylint.core.model.TimeoutEvidence>> timeoutEvidence =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** How long one file may take in one phase. */
    private final long budgetNanos;
    /** Files abandoned in some phase (over the time budget, or a front end failed): why, by relative path. */
    private final java.util.Map<String, Notification> skipped = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Test seam: runs at the start of every per-file task on the worker thread, with the file's
     * relative path (lets a test stand in for a front end that never returns). A no-op in production.
     */
    java.util.function.Consumer<String> beforeFileTask = path -> { };

    private final Settings settings;
    /** SHA-256 of each file read, by relative path; filled only when a cache is in use. */
    private final java.util.Map<String, String> hashes = new java.util.concurrent.ConcurrentHashMap<>();
    /** What the constant index needs from each parsed file, by path, until the index takes it. */
    private final java.util.Map<String, Prepared> prepared = new java.util.concurrent.ConcurrentHashMap<>();
    /** What the cached run left, when usable; set before the files are read. */
    private volatile FactsCache.Snapshot previous;
    /** Files the prefilter rules out that call one of the cached run's helper names. */
    private final java.util.Set<String> callsPreviousHelpers = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Files that took part in the Java analysis (parsed in any role, or mapper XML), by relative path. */
    private final java.util.Set<String> javaParsed = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Simple type names the parsed Java files refer to (see {@link FactsCache.Snapshot#watchedTypeNames}). */
    private final java.util.Set<String> watchedTypeNames = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private long startedNanos;
    private final java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
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
    record Settings(List<Rule> rules, Set<String> disabled, java.util.Map<String, Severity> severities, int threads,
                    PoolingSetting pooling, java.util.function.Predicate<Path> fileFilter, Set<String> extraLockHelpers,
                    Set<String> extraPooledApiTypes, ProgressListener progress, FactsCache cache) {

        /** Settings without a cache. */
        Settings(List<Rule> rules, Set<String> disabled, java.util.Map<String, Severity> severities, int threads,
                 PoolingSetting pooling, java.util.function.Predicate<Path> fileFilter, Set<String> extraLockHelpers,
                 Set<String> extraPooledApiTypes, ProgressListener progress) {
            this(rules, disabled, severities, threads, pooling, fileFilter, extraLockHelpers, extraPooledApiTypes,
                    progress, null);
        }

        /** @return the settings that change what the front ends extract, in a stable textual form */
        String factKey() {
            return "pooling=" + pooling + ";lockHelpers=" + new java.util.TreeSet<>(extraLockHelpers)
                    + ";pooledApiTypes=" + new java.util.TreeSet<>(extraPooledApiTypes);
        }
    }

    AnalysisRun(Settings settings, Path root, List<Path> targets) {
        this(settings, root, targets, DEFAULT_FILE_TIME_BUDGET);
    }

    /**
     * @param fileTimeBudget how long one file may take in one phase before it is abandoned
     */
    AnalysisRun(Settings settings, Path root, List<Path> targets, java.time.Duration fileTimeBudget) {
        this.budgetNanos = fileTimeBudget.toNanos();
        this.settings = settings;
        this.rules = settings.rules().stream().filter(r -> !settings.disabled().contains(r.descriptor().id())).toList();
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
        FileDiscovery.Result discovered = new FileDiscovery.Result(found.files().stream()
                .filter(f -> settings.fileFilter().test(f.path().toAbsolutePath().normalize()))
                .filter(f -> !isCacheFile(f.path())) // the cache is never an input, even inside the tree
                .toList(),
                found.notifications());
        total = 2 * discovered.files().size();
        List<Notification> notifications = new ArrayList<>(discovered.notifications());
        phaseDone("discover");
        List<FileFacts> facts = analyzeAll(discovered.files());
        List<LockSite> sites = new ArrayList<>();
        List<LockLifecycle> lifecycles = new ArrayList<>();
        List<Suppression> suppressions = new ArrayList<>();
        List<io.github.pgadvisorylint.core.model.LockOrderEdge> orderEdges = new ArrayList<>();
        java.util.Map<String, io.github.pgadvisorylint.core.model.LoopOrder> loops = new java.util.HashMap<>();
        java.util.Map<String, io.github.pgadvisorylint.core.model.SiteUsage> usages = new java.util.HashMap<>();
        java.util.Map<String, io.github.pgadvisorylint.core.model.SiteHazards> hazards = new java.util.HashMap<>();
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
        LockModel model = new LockModel(sites, lifecycles, counted(poolingEvidence), pooling, orderEdges, loops,
                helperBodies)
                .withUsage(usages, counted(timeoutEvidence));
        model = LockPaths.apply(model, flows).withHazards(hazards);
        phaseDone("paths");
        Set<String> known = new java.util.TreeSet<>();
        settings.rules().forEach(r -> known.add(r.descriptor().id()));
        Set<String> active = new java.util.TreeSet<>();
        rules.forEach(r -> active.add(r.descriptor().id()));
        FindingCollector collector = new FindingCollector(model, known, settings.severities());
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
        List<RuleDescriptor> descriptors = rules.stream().map(Rule::descriptor).map(this::withOverride)
                .sorted(Comparator.comparing(RuleDescriptor::id)).toList();
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        return new AnalysisResult(root, descriptors, outcome.active(), notifications, model,
                discovered.files().size(), analyzed, elapsed, outcome.suppressed());
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
            return file.getFileName() != null && file.getFileName().equals(real.getFileName())
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
    private <E> List<E> counted(java.util.Map<String, List<E>> byFile) {
        List<E> out = new ArrayList<>();
        new java.util.TreeMap<>(byFile).forEach((path, found) -> {
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
     * Runs the front ends: reads and prefilters every file, parses the Java candidates, parses on demand
     * the Java files that declare types the candidates refer to (so constants of other files resolve),
     * indexes their constants, then extracts facts. Each phase runs on {@link #threads} threads; the
     * result is in file order.
     */
    private List<FileFacts> analyzeAll(List<DiscoveredFile> files) {
        // always on workers: their large stacks let deep syntax trees (long concatenations) be walked;
        // daemon threads, so a task abandoned over the time budget never keeps the JVM alive
        ExecutorService pool = new java.util.concurrent.ThreadPoolExecutor(threads, threads,
                30, java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(null, r, "pg-advisory-lint-worker", WORKER_STACK_BYTES);
            t.setDaemon(true);
            return t;
        });
        try {
            FactsCache cache = settings.cache();
            String fingerprint = cache == null ? null : FactsCache.fingerprint(settings.factKey());
            FactsCache.Snapshot previous = cache == null ? null : cache.usable(fingerprint);
            this.previous = previous;
            List<Object> read = map(pool, files, f -> f, this::read);
            phaseDone("read");
            boolean javaReused = previous != null && previous.javaReusable() && javaUnchanged(previous, files, read);
            List<Object> staged = new ArrayList<>(read);
            boolean[] reused = new boolean[files.size()];
            if (previous != null) {
                reuseUnchanged(previous, files, staged, reused, javaReused);
            }
            HelperRegistry helpers = HelperRegistry.EMPTY;
            ConstantIndex index = new ConstantIndex();
            if (!javaReused) {
                helpers = analyzeJava(pool, files, staged, index);
            }
                        List<Integer> all = new ArrayList<>();
            for (int i = 0; i < staged.size(); i++) {
                all.add(i);
            }
            HelperRegistry registry = helpers;
            List<FileFacts> out = new ArrayList<>(map(pool, all, files::get,
                    i -> finish(files.get(i), staged.get(i), index, registry, convergedFacts.get(i))));
            phaseDone("extract");
            if (cache != null) {
                cache.record(snapshot(fingerprint, previous, javaReused, files, out, registry),
                        stats(reused, out, javaReused));
            }
            for (int i = 0; i < out.size(); i++) {
                Notification why = skipped.get(files.get(i).relativePath());
                if (why != null) {
                    // abandoned in this or an earlier phase: only the reason remains
                    out.set(i, FileFacts.failed(files.get(i).relativePath(), List.of(why)));
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The Java part of the analysis: parses the Java candidates, the files declaring the types they
     * refer to, the mapper XML files with their interfaces, and follows the lock helpers.
     *
     * @param staged read files by slot; Java candidates become {@link JavaFrontEnd.Parsed}, mapper XML
     *               files their facts
     * @param index  filled with the constants of every parsed file
     * @return the final helper registry
     */
    private HelperRegistry analyzeJava(ExecutorService pool, List<DiscoveredFile> files, List<Object> staged,
                                       ConstantIndex index) {
        java.util.Map<String, DiscoveredFile> javaByTypeName = new java.util.HashMap<>();
        for (DiscoveredFile f : files) {
            if (f.kind() == FileKind.JAVA) {
                String name = f.path().getFileName().toString();
                javaByTypeName.putIfAbsent(name.substring(0, name.length() - 5), f);
            }
        }
        List<Integer> javaSlots = new ArrayList<>();
        for (int i = 0; i < staged.size(); i++) {
            if (staged.get(i) instanceof SourceFile && files.get(i).kind() == FileKind.JAVA) {
                javaSlots.add(i);
            }
        }
        List<JavaFrontEnd.Parsed> candidates = map(pool, javaSlots, files::get, i -> parse((SourceFile) staged.get(i)));
        List<JavaFrontEnd.Parsed> parsed = new ArrayList<>();
        for (int k = 0; k < javaSlots.size(); k++) {
            staged.set(javaSlots.get(k), candidates.get(k));
            if (candidates.get(k) != null) {
                parsed.add(candidates.get(k));
            }
        }
        phaseDone("parse");
        java.util.Set<String> seenFiles = new java.util.HashSet<>();
        for (JavaFrontEnd.Parsed p : parsed) {
            seenFiles.add(p.file().path());
        }
        ConstantFiles constants = new ConstantFiles(pool, index, javaByTypeName, seenFiles);
        constants.add(parsed);
        phaseDone("constants");
        List<HelperSummary> mapperHelpers = analyzeMappers(pool, files, staged, javaByTypeName);
        return followHelpers(pool, files, staged, index, constants, mapperHelpers);
    }

    /** Parses a Java file, remembering that it took part in the Java analysis. */
    private JavaFrontEnd.Parsed parse(SourceFile file) {
        javaParsed.add(file.path());
        JavaFrontEnd.Parsed parsed = javaFrontEnd.parse(file);
        if (parsed.unit() != null) {
            // on the parsing thread: what the constant index needs from the tree
            prepared.put(file.path(), new Prepared(ConstantIndex.collect(parsed.unit(), file),
                    JavaFrontEnd.referencedTypeNames(parsed.unit())));
        }
        return parsed;
    }

    /**
     * What the constant index needs from a parsed file, collected on the thread that parsed it.
     *
     * @param constants  the file's constants and types
     * @param referenced the type names it refers to ({@link JavaFrontEnd#referencedTypeNames})
     */
    private record Prepared(ConstantIndex.Contribution constants, java.util.SortedSet<String> referenced) {
    }

    /** @return what the constant index needs from a parsed file (collected now when not yet) */
    private Prepared prepared(JavaFrontEnd.Parsed p) {
        Prepared done = prepared.remove(p.file().path());
        return done != null ? done
                : new Prepared(ConstantIndex.collect(p.unit(), p.file()), JavaFrontEnd.referencedTypeNames(p.unit()));
    }

    /**
     * Whether the cached Java facts still hold: every file that took part in the Java analysis is
     * unchanged, and no new or changed Java file could take part (a prefilter candidate, a caller of a
     * helper, a file named like a type the analysed files refer to) and no mapper XML file changed.
     */
    private boolean javaUnchanged(FactsCache.Snapshot previous, List<DiscoveredFile> files, List<Object> read) {
        java.util.Map<String, Integer> slots = new java.util.HashMap<>();
        for (int i = 0; i < files.size(); i++) {
            slots.put(files.get(i).relativePath(), i);
        }
        for (var e : previous.files().entrySet()) {
            if (e.getValue().java() && (!slots.containsKey(e.getKey()) || !e.getValue().sha256().equals(hashes.get(e.getKey())))) {
                return false;
            }
        }
        for (int i = 0; i < files.size(); i++) {
            DiscoveredFile f = files.get(i);
            FactsCache.Entry e = previous.files().get(f.relativePath());
            if (e != null && e.facts() == null && (read.get(i) instanceof SourceFile || read.get(i) instanceof MapperFile)) {
                return false; // a candidate always has facts: this cache was edited
            }
            if (e != null && e.sha256().equals(hashes.get(f.relativePath()))) {
                continue;
            }
            if (read.get(i) instanceof MapperFile) {
                return false;
            }
            if (f.kind() == FileKind.JAVA) {
                if (read.get(i) instanceof SourceFile || previous.watchedTypeNames().contains(typeName(f))
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
    private void reuseUnchanged(FactsCache.Snapshot previous, List<DiscoveredFile> files, List<Object> staged,
                                boolean[] reused, boolean javaReused) {
        for (int i = 0; i < files.size(); i++) {
            String path = files.get(i).relativePath();
            FactsCache.Entry e = previous.files().get(path);
            if (e == null || !e.sha256().equals(hashes.get(path))) {
                continue;
            }
            Object read = staged.get(i);
            boolean java = files.get(i).kind() == FileKind.JAVA || read instanceof MapperFile;
            if (java && javaReused) {
                staged.set(i, e.facts());
                if (e.java()) {
                    javaParsed.add(path);
                }
                reused[i] = true;
            } else if (!java && e.facts() != null && (read instanceof ConfigFile || read instanceof SourceFile)) {
                if (read instanceof ConfigFile) {
                    poolingEvidence.put(path, e.pooling());
                    timeoutEvidence.put(path, e.timeouts());
                }
                staged.set(i, e.facts());
                reused[i] = true;
            }
        }
        if (javaReused) {
            watchedTypeNames.addAll(previous.watchedTypeNames());
        }
    }

    /** What this analysis leaves for the next: every file read, with its hash and facts. */
    private FactsCache.Snapshot snapshot(String fingerprint, FactsCache.Snapshot previous, boolean javaReused,
                                         List<DiscoveredFile> files, List<FileFacts> out, HelperRegistry registry) {
        java.util.SortedMap<String, FactsCache.Entry> entries = new java.util.TreeMap<>();
        for (DiscoveredFile f : files) {
            // files named like a referenced type: the next run must tell whether they changed
            if (f.kind() == FileKind.JAVA && !hashes.containsKey(f.relativePath()) && watchedTypeNames.contains(typeName(f))
                    && f.size() <= MAX_FILE_BYTES) {
                try {
                    hashes.put(f.relativePath(), sha256(Files.readAllBytes(f.path())));
                } catch (IOException e) {
                    // unreadable now: no entry, so the next run treats it as new
                }
            }
        }
        boolean overBudget = false;
        for (int i = 0; i < files.size(); i++) {
            String path = files.get(i).relativePath();
            String hash = hashes.get(path);
            Notification why = skipped.get(path);
            if (why != null && why.kind().equals("file-time-budget")) {
                overBudget = true; // depends on the machine: never cached
                continue;
            }
            if (hash != null) {
                entries.put(path, new FactsCache.Entry(hash, javaParsed.contains(path), out.get(i),
                        poolingEvidence.getOrDefault(path, List.of()), timeoutEvidence.getOrDefault(path, List.of())));
            }
        }
        java.util.SortedSet<String> callNames = new java.util.TreeSet<>();
        if (javaReused) {
            callNames.addAll(previous.helperCallNames());
        } else {
            callNames.addAll(registry.callNames());
            settings.extraLockHelpers().forEach(h -> callNames.add(h.substring(h.lastIndexOf('.') + 1)));
        }
        return new FactsCache.Snapshot(FactsCache.FORMAT, fingerprint, !overBudget,
                new java.util.TreeSet<>(watchedTypeNames), callNames, entries);
    }

    private static FactsCache.Stats stats(boolean[] reused, List<FileFacts> out, boolean javaReused) {
        int fromCache = 0;
        int fresh = 0;
        for (int i = 0; i < reused.length; i++) {
            if (reused[i]) {
                fromCache++;
            } else if (out.get(i) != null) {
                fresh++;
            }
        }
        return new FactsCache.Stats(fromCache, fresh, javaReused);
    }

    /**
     * Finds the lock helpers (methods that lock with keys from their parameters) and the files that call
     * them: extracts the parsed Java files, builds the helper registry, parses the files that mention a
     * helper's name (the prefilter's second pass: they need not mention {@code advisory}), and repeats
     * while helpers calling helpers appear, at most {@value #MAX_HELPER_ROUNDS} rounds.
     *
     * @return the final registry; {@code staged} gains the files parsed for their helper calls
     */
    private HelperRegistry followHelpers(ExecutorService pool, List<DiscoveredFile> files, List<Object> staged,
                                         ConstantIndex index, ConstantFiles constants, List<HelperSummary> fixed) {
        HelperRegistry registry = HelperRegistry.EMPTY;
        if (!settings.extraLockHelpers().isEmpty()) {
            // configured helpers need no SQL in the file: parse the files that call them
            java.util.Set<String> configured = new java.util.TreeSet<>();
            settings.extraLockHelpers().forEach(h -> configured.add(h.substring(h.lastIndexOf('.') + 1)));
            constants.add(parseCallers(pool, files, staged, configured));
        }
        // a file's facts depend on the registry only through its calls of helpers: one that calls none of
        // the helpers' names keeps the facts of the round it was last extracted in
        java.util.Map<Integer, FileFacts> lastFacts = new java.util.HashMap<>();
        java.util.Map<Integer, Set<String>> lastNames = new java.util.HashMap<>();
        java.util.Map<Integer, Set<String>> called = new java.util.concurrent.ConcurrentHashMap<>();
        for (int round = 0; round < MAX_HELPER_ROUNDS; round++) {
            List<Integer> javaSlots = new ArrayList<>();
            for (int i = 0; i < staged.size(); i++) {
                if (staged.get(i) instanceof JavaFrontEnd.Parsed && !skipped.containsKey(files.get(i).relativePath())) {
                    javaSlots.add(i);
                }
            }
            HelperRegistry current = registry;
            Set<String> names = current.callNames();
            List<HelperSummary> summaries = new ArrayList<>(fixed);
            List<FileFacts> roundFacts = map(pool, javaSlots, files::get, i -> {
                JavaFrontEnd.Parsed p = (JavaFrontEnd.Parsed) staged.get(i);
                FileFacts before = lastFacts.get(i);
                if (before != null && p.unit() != null) {
                    Set<String> calls = called.computeIfAbsent(i, k -> JavaFrontEnd.calledNames(p.unit()));
                    if (java.util.Collections.disjoint(calls, names) && java.util.Collections.disjoint(calls, lastNames.get(i))) {
                        return before;
                    }
                }
                return javaFrontEnd.extract(p, index, current);
            });
            for (int k = 0; k < javaSlots.size(); k++) {
                if (roundFacts.get(k) != null && roundFacts.get(k) != lastFacts.get(javaSlots.get(k))) {
                    lastFacts.put(javaSlots.get(k), roundFacts.get(k));
                    lastNames.put(javaSlots.get(k), names);
                }
            }
            for (FileFacts f : roundFacts) {
                if (f != null) {
                    summaries.addAll(f.helpers());
                }
            }
            HelperRegistry next = new HelperRegistry(summaries, index);
            phaseDone("helpers-round-" + round);
            if (next.signature().equals(registry.signature())) {
                // this round already extracted every file with the final helpers and constants: keep it
                for (int k = 0; k < javaSlots.size(); k++) {
                    if (roundFacts.get(k) != null) {
                        convergedFacts.put(javaSlots.get(k), roundFacts.get(k));
                    }
                }
                break;
            }
            registry = next;
            constants.add(parseCallers(pool, files, staged, registry.callNames()));
        }
        return registry;
    }

    /**
     * The prefilter's second pass: parses the Java files not parsed yet that call one of the names.
     *
     * @return the files parsed; {@code staged} holds them too
     */
    private List<JavaFrontEnd.Parsed> parseCallers(ExecutorService pool, List<DiscoveredFile> files, List<Object> staged,
                                                   java.util.Set<String> names) {
        List<Integer> unread = new ArrayList<>();
        for (int i = 0; i < staged.size(); i++) {
            if (staged.get(i) == null && files.get(i).kind() == FileKind.JAVA
                    && !skipped.containsKey(files.get(i).relativePath())) {
                unread.add(i);
            }
        }
        List<JavaFrontEnd.Parsed> callers = map(pool, unread, files::get, i -> {
            Object r = read(files.get(i), true, bytes -> callsAny(latin1(bytes), names));
            return r instanceof SourceFile sf ? parse(sf) : null;
        });
        List<JavaFrontEnd.Parsed> added = new ArrayList<>();
        for (int k = 0; k < unread.size(); k++) {
            JavaFrontEnd.Parsed p = callers.get(k);
            if (p != null) {
                staged.set(unread.get(k), p);
                added.add(p);
            }
        }
        return added;
    }

    /**
     * Indexes the constants of parsed files, and parses on demand (bypassing the prefilter) the files
     * declaring the types they refer to, three levels deep, so keys written as {@code Keys.X} resolve.
     */
    private final class ConstantFiles {
        private final ExecutorService pool;
        private final ConstantIndex index;
        private final java.util.Map<String, DiscoveredFile> javaByTypeName;
        private final java.util.Set<String> seenFiles;

        ConstantFiles(ExecutorService pool, ConstantIndex index, java.util.Map<String, DiscoveredFile> javaByTypeName,
                      java.util.Set<String> seenFiles) {
            this.pool = pool;
            this.index = index;
            this.javaByTypeName = javaByTypeName;
            this.seenFiles = seenFiles;
        }

        void add(List<JavaFrontEnd.Parsed> parsed) {
            List<JavaFrontEnd.Parsed> frontier = parsed;
            for (int round = 0; round < 3 && !frontier.isEmpty(); round++) {
                java.util.Set<DiscoveredFile> wanted = new java.util.TreeSet<>(Comparator.comparing(DiscoveredFile::relativePath));
                for (JavaFrontEnd.Parsed p : frontier) {
                    seenFiles.add(p.file().path());
                    if (p.unit() == null) {
                        continue;
                    }
                    Prepared ready = prepared(p);
                    index.add(ready.constants());
                    java.util.SortedSet<String> referenced = ready.referenced();
                    watchedTypeNames.addAll(referenced);
                    for (String type : referenced) {
                        DiscoveredFile f = javaByTypeName.get(type);
                        if (f != null && !skipped.containsKey(f.relativePath()) && seenFiles.add(f.relativePath())) {
                            wanted.add(f);
                        }
                    }
                }
                frontier = map(pool, new ArrayList<>(wanted), f -> f, f -> {
                    Object r = read(f, true);
                    return r instanceof SourceFile sf ? parse(sf) : null;
                }).stream().filter(java.util.Objects::nonNull).map(JavaFrontEnd.Parsed.class::cast).toList();
            }
            for (JavaFrontEnd.Parsed p : frontier) {
                if (p.unit() != null) {
                    index.add(prepared(p).constants());
                }
            }
        }
    }

    /**
     * Runs the MyBatis front end on the mapper XML files read so far (each with its mapper interface, parsed
     * when a Java file of that simple name is in the scan): their facts replace them in {@code staged}.
     *
     * @return the helper summaries of their statements, for the helper registry
     */
    private List<HelperSummary> analyzeMappers(ExecutorService pool, List<DiscoveredFile> files, List<Object> staged,
                                               java.util.Map<String, DiscoveredFile> javaByTypeName) {
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < staged.size(); i++) {
            if (staged.get(i) instanceof MapperFile) {
                slots.add(i);
            }
        }
        List<FileFacts> facts = map(pool, slots, files::get, i -> {
            MapperFile m = (MapperFile) staged.get(i);
            javaParsed.add(m.file().path());
            try {
                String simple = m.namespace().substring(m.namespace().lastIndexOf('.') + 1);
                watchedTypeNames.add(simple);
                DiscoveredFile javaFile = javaByTypeName.get(simple);
                com.github.javaparser.ast.CompilationUnit unit = null;
                if (javaFile != null && read(javaFile, true) instanceof SourceFile sf) {
                    javaParsed.add(sf.path());
                    unit = javaFrontEnd.parse(sf).unit(); // not indexed: nothing to prepare
                }
                return mapperFrontEnd.analyze(m.file(), unit);
            } catch (StackOverflowError | RuntimeException e) {
                return FileFacts.failed(m.file().path(), List.of(new Notification(Severity.ERROR, "internal-error",
                        "analysis of this file failed: " + e, SourceRegion.line(m.file().path(), 1))));
            }
        });
        List<HelperSummary> out = new ArrayList<>();
        for (int k = 0; k < slots.size(); k++) {
            if (facts.get(k) != null) {
                staged.set(slots.get(k), facts.get(k));
                out.addAll(facts.get(k).helpers());
            }
        }
        return out;
    }

    /** @return the bytes as ISO-8859-1 text: one char per byte, enough to find ASCII names */
    private static String latin1(byte[] bytes) {
        return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Whether a text holds {@code name(} for one of the names (a cheap test before parsing). */
    private static boolean callsAny(String text, java.util.Set<String> names) {
        for (String name : names) {
            int at = text.indexOf(name);
            while (at >= 0) {
                int end = at + name.length();
                while (end < text.length() && text.charAt(end) == ' ') {
                    end++;
                }
                boolean wordStart = at == 0 || !Character.isJavaIdentifierPart(text.charAt(at - 1));
                if (wordStart && end < text.length() && text.charAt(end) == '(') {
                    return true;
                }
                at = text.indexOf(name, at + 1);
            }
        }
        return false;
    }

    /** One file's task in one phase: when it started, so an overdue one can be found and abandoned. */
    private static final class Task<R> {
        final DiscoveredFile file;
        volatile long startedNanos;
        volatile boolean started;
        Future<R> future;
        boolean abandoned;

        Task(DiscoveredFile file) {
            this.file = file;
        }
    }

    /**
     * Applies a function to every item on the pool, keeping order. A file whose task runs longer than
     * the time budget is abandoned: its future is cancelled (the worker is interrupted, but parsers do
     * not check interrupts, so it may run on), the pool gains a thread in its place so the other files
     * are not held up, and the file gets a {@code file-time-budget} notification. A task that throws
     * gives its file an {@code internal-error} notification. Either way the item's result is null, and
     * the file is left out of every later phase.
     *
     * @param fileOf the file an item stands for
     */
    private <T, R> List<R> map(ExecutorService pool, List<T> items,
                               java.util.function.Function<T, DiscoveredFile> fileOf,
                               java.util.function.Function<T, R> fn) {
        List<Task<R>> tasks = new ArrayList<>();
        for (T item : items) {
            Task<R> task = new Task<>(fileOf.apply(item));
            tasks.add(task);
            if (skipped.containsKey(task.file.relativePath())) {
                continue;
            }
            task.future = pool.submit(() -> {
                task.startedNanos = System.nanoTime();
                task.started = true;
                beforeFileTask.accept(task.file.relativePath());
                return fn.apply(item);
            });
        }
        long poll = Math.max(1, Math.min(budgetNanos / 4, 100_000_000L));
        List<R> out = new ArrayList<>();
        for (Task<R> task : tasks) {
            R result = null;
            while (task.future != null && !task.abandoned) {
                try {
                    result = task.future.get(poll, java.util.concurrent.TimeUnit.NANOSECONDS);
                    break;
                } catch (java.util.concurrent.TimeoutException e) {
                    abandonOverdue((java.util.concurrent.ThreadPoolExecutor) pool, tasks);
                } catch (java.util.concurrent.CancellationException e) {
                    break;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof Error err && !(cause instanceof StackOverflowError)) {
                        throw err;
                    }
                    skipped.putIfAbsent(task.file.relativePath(), failure(task.file, cause));
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            out.add(task.abandoned ? null : result);
        }
        return out;
    }

    /** Abandons every started, unfinished task over the budget, and gives the pool a thread for each. */
    private <R> void abandonOverdue(java.util.concurrent.ThreadPoolExecutor pool, List<Task<R>> tasks) {
        long now = System.nanoTime();
        for (Task<R> t : tasks) {
            if (t.future == null || t.abandoned || !t.started || now - t.startedNanos < budgetNanos) {
                continue;
            }
            if (t.future.cancel(true)) {
                t.abandoned = true;
                skipped.putIfAbsent(t.file.relativePath(), new Notification(Severity.WARNING, "file-time-budget",
                        "analysis of this file took longer than the time budget of " + describe(budgetNanos)
                                + "; skipped", SourceRegion.line(t.file.relativePath(), 1)));
                // the abandoned worker may run on (parsers ignore interrupts): replace it
                pool.setMaximumPoolSize(pool.getMaximumPoolSize() + 1);
                pool.setCorePoolSize(pool.getCorePoolSize() + 1);
            }
        }
    }

    /** @return e.g. {@code 10 s}, {@code 250 ms} */
    static String describe(long nanos) {
        long ms = nanos / 1_000_000;
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    private Object read(DiscoveredFile f) {
        try {
            return read(f, false);
        } finally {
            step();
        }
    }

    /**
     * Reads and decodes a file.
     *
     * @param f     the file
     * @param force true to skip the prefilter (files parsed on demand for their constants)
     * @return a {@link SourceFile}, a {@link FileFacts} saying why it was skipped, or null when the
     *     prefilter ruled it out
     */
    private Object read(DiscoveredFile f, boolean force) {
        return read(f, force, null);
    }

    /**
     * Reads a file, and stops at its bytes when they are not wanted.
     *
     * @param wanted decides on the bytes whether to go on; null for every file
     * @return as {@link #read(DiscoveredFile, boolean)}, or null when the bytes are not wanted
     */
    private Object read(DiscoveredFile f, boolean force, java.util.function.Predicate<byte[]> wanted) {
        try {
            if (f.size() > MAX_FILE_BYTES) {
                return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.WARNING, "file-too-large",
                        "file is " + f.size() + " bytes, over the limit of " + MAX_FILE_BYTES + "; skipped",
                        SourceRegion.line(f.relativePath(), 1))));
            }
            byte[] bytes = Files.readAllBytes(f.path());
            if (wanted != null && !wanted.test(bytes)) {
                return null;
            }
            Object staged = classify(f, bytes, force);
            // hashed for the cache: what passed the prefilter, what is read for the Java analysis
            // (force: constants, helper callers, mapper interfaces) and what took part in the cached Java
            // analysis; any other file cannot change the result while it still fails the prefilter
            FactsCache.Snapshot before = previous;
            FactsCache.Entry cached = before == null ? null : before.files().get(f.relativePath());
            if (settings.cache() != null && (force || staged instanceof SourceFile || staged instanceof ConfigFile
                    || staged instanceof MapperFile || (cached != null && cached.java())
                    || (before != null && f.kind() == FileKind.JAVA && before.watchedTypeNames().contains(typeName(f))))) {
                hashes.put(f.relativePath(), sha256(bytes));
            }
            if (!force && staged == null && f.kind() == FileKind.JAVA && before != null
                    && callsAny(latin1(bytes), before.helperCallNames())) {
                callsPreviousHelpers.add(f.relativePath());
            }
            return staged;
        } catch (IOException e) {
            return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.WARNING, "unreadable-file",
                    "cannot read file: " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                    SourceRegion.line(f.relativePath(), 1))));
        }
    }

    /** What a read file is: see {@link #read(DiscoveredFile, boolean)}. */
    private Object classify(DiscoveredFile f, byte[] bytes, boolean force) {
        boolean utf16 = SourceDecoder.isUtf16(bytes);
        if (f.kind() == FileKind.CONFIG && f.relativePath().endsWith(".xml") && !utf16
                && Prefilter.mentionsAdvisory(bytes)) {
            SourceFile xml = new SourceFile(f.relativePath(), SourceDecoder.decode(bytes).text());
            if (MyBatisMapperFrontEnd.mayBeMapper(xml.text())) {
                Optional<String> namespace = MyBatisMapperFrontEnd.mapperNamespace(xml);
                if (namespace.isPresent()) {
                    return new MapperFile(xml, namespace.get());
                }
            }
        }
        if (f.kind() == FileKind.CONFIG) {
            return (pooling == PoolingSetting.AUTO && PoolingEvidenceScanner.mayHoldEvidence(bytes))
                    || io.github.pgadvisorylint.core.config.TimeoutEvidenceScanner.mayHoldEvidence(bytes)
                    ? new ConfigFile(new SourceFile(f.relativePath(), SourceDecoder.decode(bytes).text())) : null;
        }
        if (!force && !utf16 && !Prefilter.mentionsAdvisory(bytes)) {
            return null;
        }
        SourceDecoder.Decoded decoded = SourceDecoder.decode(bytes);
        if (!force && utf16 && !Prefilter.mentionsAdvisory(decoded.text())) {
            return null;
        }
        if (!utf16 && looksBinary(bytes)) {
            return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.WARNING, "binary-file",
                    "file holds NUL bytes: not text; skipped", SourceRegion.line(f.relativePath(), 1))));
        }
        if (decoded.lossy()) {
            lossy.add(f.relativePath());
        }
        return new SourceFile(f.relativePath(), decoded.text());
    }

    /** Turns a read or parsed file into facts; null stays null (ruled out by the prefilter). */
    private FileFacts finish(DiscoveredFile f, Object staged, ConstantIndex index, HelperRegistry helpers,
                             FileFacts extracted) {
        try {
            step();
            FileFacts facts;
            if (staged == null) {
                return null;
            } else if (staged instanceof FileFacts ff) {
                return ff;
            } else if (staged instanceof JavaFrontEnd.Parsed p) {
                facts = extracted != null ? extracted : javaFrontEnd.extract(p, index, helpers);
            } else if (staged instanceof ConfigFile config) {
                timeoutEvidence.put(config.file().path(), timeoutScanner.scan(config.file()));
                ConfigScan scan = pooling == PoolingSetting.AUTO && PoolingEvidenceScanner.mayHoldEvidence(
                        config.file().text().getBytes(java.nio.charset.StandardCharsets.UTF_8))
                        ? poolingScanner.scan(config.file()) : ConfigScan.empty();
                poolingEvidence.put(config.file().path(), scan.evidence());
                facts = new FileFacts(config.file().path(), List.of(), List.of(), scan.notifications(), List.of());
            } else {
                facts = sqlFrontEnd.analyze((SourceFile) staged);
            }
            if (lossy.contains(f.relativePath())) {
                List<Notification> notes = new ArrayList<>(facts.notifications());
                notes.add(new Notification(Severity.NOTE, "encoding", "file is not valid UTF-8; read as ISO-8859-1",
                        SourceRegion.line(f.relativePath(), 1)));
                facts = new FileFacts(facts.path(), facts.sites(), facts.lifecycles(), notes, facts.suppressions(),
                        facts.helpers(), facts.orderEdges(), facts.loops(), facts.usages(), facts.flows(), facts.hazards());
            }
            return facts;
        } catch (StackOverflowError | RuntimeException e) {
            return FileFacts.failed(f.relativePath(), List.of(failure(f, e)));
        }
    }

    /**
     * A MyBatis mapper XML file (root element {@code mapper}) that mentions advisory locks.
     *
     * @param file      the decoded file
     * @param namespace its {@code namespace} attribute: the mapper interface's qualified name
     */
    private record MapperFile(SourceFile file, String namespace) {
    }

    /** A configuration file to scan for pooling evidence. */
    private record ConfigFile(SourceFile file) {
    }

    /** @return a Java file's name without {@code .java}: the simple name of the type it is expected to declare */
    private static String typeName(DiscoveredFile f) {
        String name = f.path().getFileName().toString();
        return name.endsWith(".java") ? name.substring(0, name.length() - 5) : name;
    }

    /** @return the lower-case hex SHA-256 of the bytes (also the base of finding fingerprints) */
    static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static boolean looksBinary(byte[] bytes) {
        int n = Math.min(bytes.length, 8192);
        for (int i = 0; i < n; i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    private static Notification failure(DiscoveredFile f, Throwable t) {
        return new Notification(Severity.ERROR, "internal-error", "analysis of this file failed: " + t,
                SourceRegion.line(f.relativePath(), 1));
    }
}
