package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileDiscovery;
import io.github.pgadvisorylint.core.discovery.FileKind;
import io.github.pgadvisorylint.core.discovery.Prefilter;
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

    private final List<Rule> rules;
    private final int threads;
    private final Path root;
    private final List<Path> targets;
    private final SqlAnalyzer sqlAnalyzer = new SqlAnalyzer();
    private final JavaFrontEnd javaFrontEnd = new JavaFrontEnd(sqlAnalyzer);
    private final SqlFileFrontEnd sqlFrontEnd = new SqlFileFrontEnd(sqlAnalyzer);

    AnalysisRun(List<Rule> rules, int threads, Path root, List<Path> targets) {
        this.rules = rules;
        this.threads = threads;
        this.root = root.toAbsolutePath().normalize();
        this.targets = targets.isEmpty() ? List.of(this.root) : List.copyOf(targets);
    }

    AnalysisResult run() {
        long started = System.nanoTime();
        FileDiscovery.Result discovered = FileDiscovery.discover(root, targets);
        List<Notification> notifications = new ArrayList<>(discovered.notifications());
        List<DiscoveredFile> sources = discovered.files().stream()
                .filter(f -> f.kind() == FileKind.JAVA || f.kind() == FileKind.SQL).toList();
        List<FileFacts> facts = analyzeAll(sources);
        List<LockSite> sites = new ArrayList<>();
        List<LockLifecycle> lifecycles = new ArrayList<>();
        List<Suppression> suppressions = new ArrayList<>();
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
        }
        LockModel model = new LockModel(sites, lifecycles);
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

    /** Runs the front ends over the files on {@link #threads} threads; the result is in file order. */
    private List<FileFacts> analyzeAll(List<DiscoveredFile> files) {
        if (threads <= 1 || files.size() < 2) {
            return files.stream().map(this::analyzeOne).toList();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, files.size()), r -> {
            Thread t = new Thread(null, r, "pg-advisory-lint-worker", 8L * 1024 * 1024);
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<FileFacts>> futures = new ArrayList<>();
            for (DiscoveredFile f : files) {
                futures.add(pool.submit(() -> analyzeOne(f)));
            }
            List<FileFacts> out = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                try {
                    out.add(futures.get(i).get());
                } catch (ExecutionException e) {
                    out.add(internalFailure(files.get(i), e.getCause()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    out.add(internalFailure(files.get(i), e));
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** @return the file's facts, or null when the prefilter ruled it out */
    private FileFacts analyzeOne(DiscoveredFile f) {
        try {
            if (f.size() > MAX_FILE_BYTES) {
                return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.WARNING, "file-too-large",
                        "file is " + f.size() + " bytes, over the limit of " + MAX_FILE_BYTES + "; skipped",
                        SourceRegion.line(f.relativePath(), 1))));
            }
            byte[] bytes = Files.readAllBytes(f.path());
            boolean utf16 = SourceDecoder.isUtf16(bytes);
            if (!utf16 && !Prefilter.mentionsAdvisory(bytes)) {
                return null;
            }
            SourceDecoder.Decoded decoded = SourceDecoder.decode(bytes);
            if (utf16 && !Prefilter.mentionsAdvisory(decoded.text())) {
                return null;
            }
            if (!utf16 && looksBinary(bytes)) {
                return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.WARNING, "binary-file",
                        "file holds NUL bytes: not text; skipped", SourceRegion.line(f.relativePath(), 1))));
            }
            SourceFile source = new SourceFile(f.relativePath(), decoded.text());
            FileFacts facts = f.kind() == FileKind.JAVA ? javaFrontEnd.analyze(source) : sqlFrontEnd.analyze(source);
            if (decoded.lossy()) {
                List<Notification> notes = new ArrayList<>(facts.notifications());
                notes.add(new Notification(Severity.NOTE, "encoding", "file is not valid UTF-8; read as ISO-8859-1",
                        SourceRegion.line(f.relativePath(), 1)));
                facts = new FileFacts(facts.path(), facts.sites(), facts.lifecycles(), notes, facts.suppressions());
            }
            return facts;
        } catch (IOException e) {
            return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.WARNING, "unreadable-file",
                    "cannot read file: " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                    SourceRegion.line(f.relativePath(), 1))));
        } catch (StackOverflowError | RuntimeException e) {
            return internalFailure(f, e);
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

    private static FileFacts internalFailure(DiscoveredFile f, Throwable t) {
        return FileFacts.failed(f.relativePath(), List.of(new Notification(Severity.ERROR, "internal-error",
                "analysis of this file failed: " + t, SourceRegion.line(f.relativePath(), 1))));
    }
}
