package io.github.pgadvisorylint.core.analysis;

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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** One analysis: discovery, prefilter, front ends in parallel, lock model, rules, sorted findings. */
final class AnalysisRun {

    /** Files larger than this are skipped with a notification (bytes). */
    static final long MAX_FILE_BYTES = 16L * 1024 * 1024;

    /** Rounds of helper discovery: a helper calling a helper calling a helper is three. */
    static final int MAX_HELPER_ROUNDS = 5;

    /** Stack of each worker thread (bytes): JavaParser and JSqlParser recurse once per nesting level. */
    static final long WORKER_STACK_BYTES = 256L * 1024 * 1024;

    private final List<Rule> rules;
    private final int threads;
    private final Path root;
    private final List<Path> targets;
    private final SqlAnalyzer sqlAnalyzer = new SqlAnalyzer();
    private final JavaFrontEnd javaFrontEnd = new JavaFrontEnd(sqlAnalyzer);
    private final SqlFileFrontEnd sqlFrontEnd = new SqlFileFrontEnd(sqlAnalyzer);
    private final java.util.Set<String> lossy = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final PoolingSetting pooling;
    private final PoolingEvidenceScanner poolingScanner = new PoolingEvidenceScanner();
    private final List<PoolingEvidence> poolingEvidence = java.util.Collections.synchronizedList(new ArrayList<>());
    private final io.github.pgadvisorylint.core.config.TimeoutEvidenceScanner timeoutScanner =
            new io.github.pgadvisorylint.core.config.TimeoutEvidenceScanner();
    private final List<io.github.pgadvisorylint.core.model.TimeoutEvidence> timeoutEvidence =
            java.util.Collections.synchronizedList(new ArrayList<>());

    AnalysisRun(List<Rule> rules, int threads, PoolingSetting pooling, Path root, List<Path> targets) {
        this.rules = rules;
        this.threads = threads;
        this.pooling = pooling;
        this.root = root.toAbsolutePath().normalize();
        this.targets = targets.isEmpty() ? List.of(this.root) : List.copyOf(targets);
    }

    AnalysisResult run() {
        long started = System.nanoTime();
        FileDiscovery.Result discovered = FileDiscovery.discover(root, targets);
        List<Notification> notifications = new ArrayList<>(discovered.notifications());
        List<FileFacts> facts = analyzeAll(discovered.files());
        List<LockSite> sites = new ArrayList<>();
        List<LockLifecycle> lifecycles = new ArrayList<>();
        List<Suppression> suppressions = new ArrayList<>();
        java.util.Map<String, io.github.pgadvisorylint.core.model.SiteUsage> usages = new java.util.HashMap<>();
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
            usages.putAll(f.usages());
        }
        LockModel model = new LockModel(sites, lifecycles, poolingEvidence, pooling).withUsage(usages, timeoutEvidence);
        FindingCollector collector = new FindingCollector(model);
        for (Rule rule : rules) {
            collector.runRule(rule, notifications);
        }
        notifications.sort(Comparator.naturalOrder());
        List<RuleDescriptor> descriptors = rules.stream().map(Rule::descriptor)
                .sorted(Comparator.comparing(RuleDescriptor::id)).toList();
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        return new AnalysisResult(root, descriptors, collector.findings(suppressions), notifications, model,
                discovered.files().size(), analyzed, elapsed);
    }

    /**
     * Runs the front ends: reads and prefilters every file, parses the Java candidates, parses on demand
     * the Java files that declare types the candidates refer to (so constants of other files resolve),
     * indexes their constants, then extracts facts. Each phase runs on {@link #threads} threads; the
     * result is in file order.
     */
    private List<FileFacts> analyzeAll(List<DiscoveredFile> files) {
        // always on workers: their large stacks let deep syntax trees (long concatenations) be walked
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(null, r, "pg-advisory-lint-worker", WORKER_STACK_BYTES);
            t.setDaemon(true);
            return t;
        });
        try {
            List<Object> read = map(pool, files, this::read);
            java.util.Map<String, DiscoveredFile> javaByTypeName = new java.util.HashMap<>();
            for (DiscoveredFile f : files) {
                if (f.kind() == FileKind.JAVA) {
                    String name = f.path().getFileName().toString();
                    javaByTypeName.putIfAbsent(name.substring(0, name.length() - 5), f);
                }
            }
            List<JavaFrontEnd.Parsed> parsed = new ArrayList<>();
            List<Object> staged = new ArrayList<>(read);
            List<Integer> javaSlots = new ArrayList<>();
            for (int i = 0; i < read.size(); i++) {
                if (read.get(i) instanceof SourceFile sf && files.get(i).kind() == FileKind.JAVA) {
                    javaSlots.add(i);
                }
            }
            List<JavaFrontEnd.Parsed> candidates = map(pool, javaSlots, i -> javaFrontEnd.parse((SourceFile) read.get(i)));
            for (int k = 0; k < javaSlots.size(); k++) {
                staged.set(javaSlots.get(k), candidates.get(k));
                parsed.add(candidates.get(k));
            }
            ConstantIndex index = new ConstantIndex();
            java.util.Set<String> seenFiles = new java.util.HashSet<>();
            for (JavaFrontEnd.Parsed p : parsed) {
                seenFiles.add(p.file().path());
            }
            ConstantFiles constants = new ConstantFiles(pool, index, javaByTypeName, seenFiles);
            constants.add(parsed);
            HelperRegistry helpers = followHelpers(pool, files, staged, index, constants);
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < staged.size(); i++) {
                all.add(i);
            }
            return map(pool, all, i -> finish(files.get(i), staged.get(i), index, helpers));
        } finally {
            pool.shutdownNow();
        }
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
                                         ConstantIndex index, ConstantFiles constants) {
        HelperRegistry registry = HelperRegistry.EMPTY;
        for (int round = 0; round < MAX_HELPER_ROUNDS; round++) {
            List<Integer> javaSlots = new ArrayList<>();
            for (int i = 0; i < staged.size(); i++) {
                if (staged.get(i) instanceof JavaFrontEnd.Parsed) {
                    javaSlots.add(i);
                }
            }
            HelperRegistry current = registry;
            List<HelperSummary> summaries = new ArrayList<>();
            for (FileFacts f : map(pool, javaSlots, i -> javaFrontEnd.extract((JavaFrontEnd.Parsed) staged.get(i), index, current))) {
                summaries.addAll(f.helpers());
            }
            HelperRegistry next = new HelperRegistry(summaries, index);
            if (next.signature().equals(registry.signature())) {
                break;
            }
            registry = next;
            java.util.Set<String> names = registry.callNames();
            List<Integer> unread = new ArrayList<>();
            for (int i = 0; i < staged.size(); i++) {
                if (staged.get(i) == null && files.get(i).kind() == FileKind.JAVA) {
                    unread.add(i);
                }
            }
            List<JavaFrontEnd.Parsed> callers = map(pool, unread, i -> {
                Object r = callsAny(files.get(i), names) ? read(files.get(i), true) : null;
                return r instanceof SourceFile sf ? javaFrontEnd.parse(sf) : null;
            });
            List<JavaFrontEnd.Parsed> added = new ArrayList<>();
            for (int k = 0; k < unread.size(); k++) {
                JavaFrontEnd.Parsed p = callers.get(k);
                if (p != null) {
                    staged.set(unread.get(k), p);
                    added.add(p);
                }
            }
            constants.add(added);
        }
        return registry;
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
                    index.add(p.unit(), p.file());
                    for (String type : JavaFrontEnd.referencedTypeNames(p.unit())) {
                        DiscoveredFile f = javaByTypeName.get(type);
                        if (f != null && seenFiles.add(f.relativePath())) {
                            wanted.add(f);
                        }
                    }
                }
                frontier = map(pool, new ArrayList<>(wanted), f -> {
                    Object r = read(f, true);
                    return r instanceof SourceFile sf ? javaFrontEnd.parse(sf) : null;
                }).stream().filter(java.util.Objects::nonNull).map(JavaFrontEnd.Parsed.class::cast).toList();
            }
            for (JavaFrontEnd.Parsed p : frontier) {
                if (p.unit() != null) {
                    index.add(p.unit(), p.file());
                }
            }
        }
    }

    /** Whether a file's text holds {@code name(} for one of the names (a cheap test before parsing). */
    private static boolean callsAny(DiscoveredFile f, java.util.Set<String> names) {
        if (f.size() > MAX_FILE_BYTES) {
            return false;
        }
        try {
            String text = new String(Files.readAllBytes(f.path()), java.nio.charset.StandardCharsets.ISO_8859_1);
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
        } catch (IOException e) {
            return false;
        }
    }

    /** Applies a function to every item on the pool (or inline), keeping order; a failure of one item becomes its result's notification. */
    private <T, R> List<R> map(ExecutorService pool, List<T> items, java.util.function.Function<T, R> fn) {

        List<Future<R>> futures = new ArrayList<>();
        for (T item : items) {
            futures.add(pool.submit(() -> fn.apply(item)));
        }
        List<R> out = new ArrayList<>();
        for (Future<R> f : futures) {
            try {
                out.add(f.get());
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return out;
    }

    private Object read(DiscoveredFile f) {
        return read(f, false);
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
        try {
            if (f.size() > MAX_FILE_BYTES) {
                return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.WARNING, "file-too-large",
                        "file is " + f.size() + " bytes, over the limit of " + MAX_FILE_BYTES + "; skipped",
                        SourceRegion.line(f.relativePath(), 1))));
            }
            byte[] bytes = Files.readAllBytes(f.path());
            boolean utf16 = SourceDecoder.isUtf16(bytes);
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
        } catch (IOException e) {
            return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.WARNING, "unreadable-file",
                    "cannot read file: " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                    SourceRegion.line(f.relativePath(), 1))));
        }
    }

    /** Turns a read or parsed file into facts; null stays null (ruled out by the prefilter). */
    private FileFacts finish(DiscoveredFile f, Object staged, ConstantIndex index, HelperRegistry helpers) {
        try {
            FileFacts facts;
            if (staged == null) {
                return null;
            } else if (staged instanceof FileFacts ff) {
                return ff;
            } else if (staged instanceof JavaFrontEnd.Parsed p) {
                facts = javaFrontEnd.extract(p, index, helpers);
            } else if (staged instanceof ConfigFile config) {
                timeoutEvidence.addAll(timeoutScanner.scan(config.file()));
                ConfigScan scan = pooling == PoolingSetting.AUTO && PoolingEvidenceScanner.mayHoldEvidence(
                        config.file().text().getBytes(java.nio.charset.StandardCharsets.UTF_8))
                        ? poolingScanner.scan(config.file()) : ConfigScan.empty();
                poolingEvidence.addAll(scan.evidence());
                facts = new FileFacts(config.file().path(), List.of(), List.of(), scan.notifications(), List.of());
            } else {
                facts = sqlFrontEnd.analyze((SourceFile) staged);
            }
            if (lossy.contains(f.relativePath())) {
                List<Notification> notes = new ArrayList<>(facts.notifications());
                notes.add(new Notification(Severity.NOTE, "encoding", "file is not valid UTF-8; read as ISO-8859-1",
                        SourceRegion.line(f.relativePath(), 1)));
                facts = new FileFacts(facts.path(), facts.sites(), facts.lifecycles(), notes, facts.suppressions(),
                        facts.helpers(), facts.usages());
            }
            return facts;
        } catch (StackOverflowError | RuntimeException e) {
            return internalFailure(f, e);
        }
    }

    /** A configuration file to scan for pooling evidence. */
    private record ConfigFile(SourceFile file) {
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

    private static FileFacts internalFailure(DiscoveredFile f, Throwable t) {
        return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.ERROR, "internal-error",
                "analysis of this file failed: " + t, SourceRegion.line(f.relativePath(), 1))));
    }
}
