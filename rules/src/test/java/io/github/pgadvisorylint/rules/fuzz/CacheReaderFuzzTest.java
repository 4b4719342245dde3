package io.github.pgadvisorylint.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.analysis.FactsCache;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The facts cache ({@code scan --cache}): a cache file with mutated bytes, or random ones, is read
 * without throwing ({@link FactsCache#load} and {@link FactsCache#problem()}), an analysis using it
 * gives exactly the result of an analysis without cache, and saving over it either works or fails with
 * an {@link IOException}.
 */
@AddLifecycleHook(FuzzBudget.class)
class CacheReaderFuzzTest {

    /** The time budget far above the guard's limit, so no run's result depends on the machine's load. */
    private static final Analyzer ANALYZER = Analyzer.builder()
            .rules(RuleRegistry.load())
            .threads(1)
            .timeLimit(Duration.ofMinutes(30))
            .build();

    /** A small project of fixture files: Java with SQL passed around, a SQL file, pooling configuration. */
    private static final List<String> PROJECT = List.of(
            "sql-value-flow/src/main/java/com/example/flow/AdvisoryMutex.java",
            "sql-value-flow/src/main/java/com/example/flow/Db.java",
            "sql-value-flow/src/main/java/com/example/flow/ExportSchedule.java",
            "sql-value-flow/src/main/java/com/example/flow/InvoiceRun.java",
            "sql-value-flow/src/main/java/com/example/flow/Reports.java",
            "unlock-mismatch/src/main/resources/db/ops/close_month.sql",
            "session-lock-under-transaction-pooling/projects/inferred-port/src/main/resources/application.yml");

    private static Path project;
    private static Path caches;
    private static List<Object> cold;
    private static byte[] written;

    @BeforeContainer
    static void analyseOnceAndWriteACache() throws Exception {
        Map<String, byte[]> files = new TreeMap<>();
        for (String path : PROJECT) {
            Corpus.Seed seed = Corpus.all().stream()
                    .filter(s -> s.path().equals(path))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no fixture " + path));
            files.put(path, seed.bytes());
        }
        project = Trees.write(files);
        caches = Files.createTempDirectory("cache-fuzz");
        cold = observable(ANALYZER.analyze(project, List.of(project)));
        Path file = caches.resolve("seed.json");
        FactsCache cache = FactsCache.load(file);
        assertThat(observable(ANALYZER.analyze(project, List.of(project), cache)))
                .isEqualTo(cold);
        cache.save();
        written = Files.readAllBytes(file);
        FactsCache warm = FactsCache.load(file);
        assertThat(warm.problem()).isEmpty();
        assertThat(observable(ANALYZER.analyze(project, List.of(project), warm)))
                .isEqualTo(cold);
        assertThat(warm.stats().filesReused()).as("the seed cache is used").isPositive();
    }

    @AfterContainer
    static void deleteDirectories() throws Exception {
        Trees.delete(project);
        Trees.delete(caches);
    }

    /** What must not differ between a cached and an uncached run (everything but the wall time). */
    private static List<Object> observable(AnalysisResult r) {
        return List.of(
                r.findings(),
                r.suppressed(),
                r.notifications(),
                r.model().sites(),
                r.model().orderEdges(),
                r.model().poolingEvidence(),
                r.model().connectionTimeouts(),
                r.filesScanned(),
                r.filesAnalyzed(),
                r.rules());
    }

    @Provide
    Arbitrary<byte[]> cacheBytes() {
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(written);
        seeds.add("{\"files\": {}, \"format\": 3}".getBytes(StandardCharsets.UTF_8));
        return Arbitraries.oneOf(
                Mutations.mutatedBytes(seeds),
                Mutations.mutatedText(List.of(new String(written, StandardCharsets.UTF_8)))
                        .map(s -> s.getBytes(StandardCharsets.UTF_8)));
    }

    @Property(tries = 30, seed = "2707010")
    void aDamagedCacheNeverChangesTheResult(@ForAll("cacheBytes") byte[] bytes) throws Exception {
        Path file = caches.resolve("cache.json");
        Files.write(file, bytes);
        List<Object> result = Guard.call(new String(bytes, StandardCharsets.UTF_8), () -> {
            FactsCache cache = FactsCache.load(file);
            cache.problem();
            List<Object> r = observable(ANALYZER.analyze(project, List.of(project), cache));
            try {
                cache.save();
            } catch (IOException e) {
                // allowed: the file was no cache, so it is not replaced
            }
            return r;
        });
        assertThat(result).isEqualTo(cold);
    }

    @Provide
    Arbitrary<Map<String, byte[]>> trees() {
        return Mutations.fixtureTree(3);
    }

    @Property(tries = 15, seed = "2707012")
    void aCacheWrittenForAMutatedTreeIsUsedAndChangesNothing(@ForAll("trees") Map<String, byte[]> files)
            throws Exception {
        Path root = Trees.write(files);
        Path file = caches.resolve("tree-cache.json");
        try {
            String described = String.join(", ", files.keySet());
            Guard.call(described, () -> {
                Files.deleteIfExists(file);
                List<Object> withoutCache = observable(ANALYZER.analyze(root, List.of(root)));
                FactsCache first = FactsCache.load(file);
                assertThat(observable(ANALYZER.analyze(root, List.of(root), first)))
                        .isEqualTo(withoutCache);
                first.save();
                FactsCache second = FactsCache.load(file);
                assertThat(second.problem()).as("the cache just written").isEmpty();
                assertThat(observable(ANALYZER.analyze(root, List.of(root), second)))
                        .isEqualTo(withoutCache);
                return null;
            });
        } finally {
            Trees.delete(root);
        }
    }
}
