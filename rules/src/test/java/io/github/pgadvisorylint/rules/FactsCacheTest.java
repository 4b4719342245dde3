package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.analysis.FactsCache;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The incremental cache ({@code scan --cache}): a run on cached facts gives exactly the result of a
 * run without cache, whatever changed in between, and reuses what it may.
 */
class FactsCacheTest {

    private static final Analyzer ANALYZER = Analyzer.builder()
            .rules(RuleRegistry.load(FactsCacheTest.class.getClassLoader()))
            .build();

    @TempDir
    Path tmp;

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
                r.model().evidenceScopes(),
                r.filesScanned(),
                r.filesAnalyzed(),
                r.rules());
    }

    private AnalysisResult cached(Analyzer analyzer, Path project, Path cacheFile) throws IOException {
        FactsCache cache = FactsCache.load(cacheFile);
        AnalysisResult result = analyzer.analyze(project, List.of(project), cache);
        cache.save();
        lastStats = cache.stats();
        return result;
    }

    private FactsCache.Stats lastStats;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "lock-helpers",
                "api-surfaces",
                "session-lock-under-transaction-pooling",
                "unordered-multi-key-lock",
                "blocking-lock-without-timeout/projects/configured",
                "duplicate-lock-key",
                "lock-in-limit-query",
                "try-lock-result-ignored",
                "unlock-mismatch",
                "session-unlock-before-commit",
                "lock-failure-ignored"
            })
    void warmRunOnUnchangedFilesEqualsAColdRunAndParsesNothing(String fixture) throws IOException {
        Path project = copy(FixtureHarness.fixture(fixture));
        Path cacheFile = tmp.resolve("cache.json");
        AnalysisResult cold = ANALYZER.analyze(project, List.of(project));

        AnalysisResult first = cached(ANALYZER, project, cacheFile);
        assertThat(observable(first)).isEqualTo(observable(cold));
        assertThat(lastStats.javaReused()).isFalse();
        assertThat(lastStats.filesReused()).isZero();

        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(observable(warm)).isEqualTo(observable(cold));
        assertThat(lastStats.javaReused()).isTrue();
        assertThat(lastStats.filesAnalysed()).isZero();
        assertThat(lastStats.filesReused()).isPositive();
    }

    @Test
    void theExampleProjectWarmEqualsCold() throws IOException {
        Path project = copy(FixtureHarness.exampleProject());
        Path cacheFile = tmp.resolve("cache.json");
        AnalysisResult cold = ANALYZER.analyze(project, List.of(project));
        cached(ANALYZER, project, cacheFile);
        assertThat(observable(cached(ANALYZER, project, cacheFile))).isEqualTo(observable(cold));
        assertThat(lastStats.filesAnalysed()).isZero();
        assertThat(cold.findings()).isNotEmpty();
    }

    @Test
    void changingAFileOutsideTheJavaAnalysisKeepsTheJavaFacts() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        cached(ANALYZER, project, cacheFile);
        Path unrelated = project.resolve("billing/src/main/java/com/example/billing/Invoice.java");
        Files.writeString(unrelated, "package com.example.billing;\n\nclass Invoice {\n    long total;\n}\n");

        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isTrue();
        assertThat(observable(warm)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
    }

    @Test
    void changingAConstantReanalysesTheJavaFiles() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        AnalysisResult before = cached(ANALYZER, project, cacheFile);
        Path keys = project.resolve("billing/src/main/java/com/example/billing/BillingKeys.java");
        Files.writeString(keys, Files.readString(keys).replace("7001L", "7002L"));

        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isFalse();
        assertThat(observable(warm)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
        assertThat(keysOf(warm))
                .contains("value=7002, expression=BillingKeys.MONTH_END")
                .doesNotContain("value=7001, expression=BillingKeys.MONTH_END");
        assertThat(keysOf(before)).contains("value=7001, expression=BillingKeys.MONTH_END");
    }

    @Test
    void anEditInsideAMethodReextractsThatFileAlone() throws IOException {
        // the edit changes no declaration: the outlines, so the index and the registry, stay the same,
        // and every other file keeps its cached facts without being parsed
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        cached(ANALYZER, project, cacheFile);
        Path job = project.resolve("billing/src/main/java/com/example/billing/MonthEndJob.java");
        Files.writeString(job, Files.readString(job) + "// reviewed\n");

        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(observable(warm)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
        assertThat(lastStats.javaReused()).isFalse();
        // the edited file alone, once in each of the four helper rounds it takes part in (a cold run parses 25 times)
        assertThat(lastStats.parses()).isEqualTo(4);
        assertThat(lastStats.extractionsReused()).isPositive();
    }

    @Test
    void anEditThatMovesDeclarationsReextractsTheFilesThatReadThem() throws IOException {
        // a line added above the keys moves their declarations: the regions of the keys other files
        // take from them move too, so those files are extracted again
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        AnalysisResult before = cached(ANALYZER, project, cacheFile);
        Path keys = project.resolve("billing/src/main/java/com/example/billing/BillingKeys.java");
        Files.writeString(keys, "// moved down a line\n" + Files.readString(keys));

        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(observable(warm)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
        assertThat(observable(warm)).isNotEqualTo(observable(before));
        assertThat(lastStats.parses()).isGreaterThan(1);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "lock-helpers",
                "api-surfaces",
                "unlock-mismatch",
                "lock-state-paths",
                "spring-transactions",
                "sql-value-flow",
                "lock-failure-ignored"
            })
    void anyEditOfOneLockUsingFileGivesTheColdResult(String fixture) throws IOException {
        Path project = copy(FixtureHarness.fixture(fixture));
        Path cacheFile = tmp.resolve("cache.json");
        // a comment appended to a file changes nothing observable: its warm result must equal this one
        List<Object> unedited = observable(cached(ANALYZER, project, cacheFile));
        List<Path> javaFiles;
        try (Stream<Path> walk = Files.walk(project)) {
            javaFiles =
                    walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        for (Path edited : javaFiles) {
            String text = Files.readString(edited);
            // an edit inside the file's last type: a new member, so its outline changes too
            int last = text.lastIndexOf('}');
            Files.writeString(
                    edited, text.substring(0, last) + "    static final long EDITED = 1L;\n" + text.substring(last));
            AnalysisResult warm = cached(ANALYZER, project, cacheFile);
            assertThat(observable(warm))
                    .as(edited.toString())
                    .isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
            Files.writeString(edited, text + "// and a comment\n");
            warm = cached(ANALYZER, project, cacheFile);
            assertThat(observable(warm)).as(edited + " with a comment appended").isEqualTo(unedited);
        }
    }

    @Test
    void aNewCallerOfAHelperIsFound() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        AnalysisResult before = cached(ANALYZER, project, cacheFile);
        // no "advisory" in it: only the helper call makes it take part
        Files.writeString(project.resolve("billing/src/main/java/com/example/billing/Refunds.java"), """
                package com.example.billing;

                import com.example.locking.PgLocks;

                class Refunds {
                    void run(PgLocks locks) throws Exception {
                        locks.lock(9999L);
                        refund();
                        locks.unlock(9999L);
                    }

                    void refund() {
                    }
                }
                """);

        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isFalse();
        assertThat(observable(warm)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
        assertThat(warm.findings().size()).isGreaterThan(before.findings().size());
        assertThat(warm.findings()).anyMatch(f -> f.region().path().endsWith("Refunds.java"));
    }

    @Test
    void aNewFileDeclaringAReferencedTypeIsRead() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        cached(ANALYZER, project, cacheFile);
        // delete the constants, run, then bring them back under a new file of the same type name
        Path keys = project.resolve("billing/src/main/java/com/example/billing/BillingKeys.java");
        String text = Files.readString(keys);
        Files.delete(keys);
        cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isFalse();
        Path moved = project.resolve("billing/src/main/java/com/example/billing/keys/BillingKeys.java");
        Files.createDirectories(moved.getParent());
        Files.writeString(moved, text);

        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isFalse();
        assertThat(observable(warm)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
        assertThat(keysOf(warm)).contains("value=7001, expression=BillingKeys.MONTH_END");
    }

    @Test
    void anUnparsedFileNamedLikeAReferencedTypeDoesNotDefeatTheCacheUntilItChanges() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        // same simple name as the constants billing refers to, in another package: never parsed
        Path namesake = project.resolve("zz-other/src/main/java/com/example/other/BillingKeys.java");
        Files.createDirectories(namesake.getParent());
        Files.writeString(namesake, "package com.example.other;\n\npublic final class BillingKeys {\n}\n");
        Path cacheFile = tmp.resolve("cache.json");
        cached(ANALYZER, project, cacheFile);
        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isTrue();
        assertThat(observable(warm)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));

        Files.writeString(namesake, "package com.example.other;\n\npublic final class BillingKeys {\n    int x;\n}\n");
        AnalysisResult changed = cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isFalse();
        assertThat(observable(changed)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
    }

    @Test
    void aChangedPoolingFileIsReadAgainWhileTheJavaFactsAreKept() throws IOException {
        Path project = copy(FixtureHarness.fixture("session-lock-under-transaction-pooling/projects/declared-ini"));
        Path cacheFile = tmp.resolve("cache.json");
        AnalysisResult before = cached(ANALYZER, project, cacheFile);
        assertThat(before.findings()).anyMatch(f -> f.ruleId().equals("session-lock-under-transaction-pooling"));
        Path ini = project.resolve("pgbouncer/pgbouncer.ini");
        Files.writeString(ini, Files.readString(ini).replaceAll("(?m)^pool_mode\\s*=.*$", "pool_mode = session"));

        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isTrue();
        assertThat(lastStats.filesAnalysed()).isEqualTo(1);
        assertThat(observable(warm)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
        assertThat(warm.findings()).noneMatch(f -> f.ruleId().equals("session-lock-under-transaction-pooling"));
    }

    @Test
    void otherFactSettingsDoNotShareTheCacheButRuleSettingsDo() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        cached(ANALYZER, project, cacheFile);
        Analyzer sessionPooling = Analyzer.builder()
                .rules(ANALYZER.rules())
                .pooling(PoolingSetting.SESSION)
                .build();
        cached(sessionPooling, project, cacheFile);
        assertThat(lastStats.filesReused()).isZero();
        Analyzer fewerRules = Analyzer.builder()
                .rules(ANALYZER.rules())
                .pooling(PoolingSetting.SESSION)
                .disabledRules(Set.of("duplicate-lock-key"))
                .build();
        AnalysisResult warm = cached(fewerRules, project, cacheFile);
        assertThat(lastStats.javaReused()).isTrue();
        assertThat(observable(warm)).isEqualTo(observable(fewerRules.analyze(project, List.of(project))));
    }

    /**
     * Found while fixing what the fuzzing harness found (issue 27): a Java string holding half a
     * surrogate pair ({@code "\\uD800"}, decoded before parsing) puts it in the facts, whose JSON cannot
     * hold it as UTF-8 text. The cache failed to save ({@code MalformedInputException}), and once the
     * writer replaced it with U+FFFD, every later run found the cache "edited or damaged" and analysed
     * afresh. The file holds every non-ASCII character as a JSON escape, so it reads back exactly.
     */
    @Test
    void halfASurrogatePairInAStringIsCachedExactly() throws IOException {
        Path project = tmp.resolve("surrogate");
        Path source = project.resolve("src/main/java/a/Keys.java");
        Files.createDirectories(source.getParent());
        Files.writeString(
                source,
                "package a;\n\nclass Keys {\n    void lock(java.sql.Statement st) throws Exception {\n"
                        + "        st.execute(\"SELECT pg_advisory_lock(hashtext('\\uD800 \u00e9\uD83D\uDE00'))\");\n"
                        + "    }\n}\n");
        Path cacheFile = tmp.resolve("cache.json");
        AnalysisResult cold = ANALYZER.analyze(project, List.of(project));
        assertThat(cold.findings()).anySatisfy(f -> assertThat(f.message()).contains("\uD800"));
        cached(ANALYZER, project, cacheFile);
        FactsCache warm = FactsCache.load(cacheFile);
        assertThat(warm.problem()).isEmpty();
        AnalysisResult result = ANALYZER.analyze(project, List.of(project), warm);
        assertThat(warm.stats().javaReused()).isTrue();
        assertThat(observable(result)).isEqualTo(observable(cold));
    }

    @Test
    void aCorruptCacheIsReportedAndIgnored() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        Files.writeString(cacheFile, "{\"files\": {\"a.java\": {\"sha256\": ", StandardCharsets.UTF_8); // cut short
        FactsCache cache = FactsCache.load(cacheFile);
        assertThat(cache.problem()).hasValueSatisfying(p -> assertThat(p).contains(cacheFile.toString()));
        AnalysisResult result = ANALYZER.analyze(project, List.of(project), cache);
        assertThat(observable(result)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
        cache.save();
        assertThat(FactsCache.load(cacheFile).problem()).isEmpty();
        cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"key", "sha256", "pooling"})
    void aCacheWithFieldsNoRunWritesIsIgnored(String field) throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        cached(ANALYZER, project, cacheFile);
        // a hand edit: the field is null wherever it occurs
        editCache(cacheFile, tree -> tree.findParents(field).forEach(node -> ((ObjectNode) node).putNull(field)));

        FactsCache cache = FactsCache.load(cacheFile);
        AnalysisResult result = ANALYZER.analyze(project, List.of(project), cache);
        assertThat(cache.problem()).hasValueSatisfying(p -> assertThat(p).contains("cannot use cache file"));
        assertThat(observable(result)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
        cache.save();
        cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"{}", "null", "[]", "\"\"", "{\"files\": null}", "{\"format\": 3}", "[[[[[[", "\u0000\u0001"})
    void aFileThatIsNoCacheIsReportedInPlainWords(String content) throws IOException {
        Path cacheFile = tmp.resolve("cache.json");
        Files.writeString(cacheFile, content);
        FactsCache cache = FactsCache.load(cacheFile);
        assertThat(cache.problem())
                .hasValueSatisfying(p -> assertThat(p)
                        .startsWith("cannot use cache file " + cacheFile + " (")
                        .containsAnyOf("not valid JSON", "not a pg-advisory-lint cache")
                        .doesNotContain("Snapshot")
                        .doesNotContain("Coercion")
                        .doesNotContain("io.github"));
    }

    @Test
    void aDirectoryIsNoCacheAndIsNeverWrittenOver() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path dirAsCache = Files.createDirectories(tmp.resolve("cache-dir"));
        FactsCache cache = FactsCache.load(dirAsCache);
        assertThat(cache.problem()).hasValueSatisfying(p -> assertThat(p).contains("not a regular file"));
        ANALYZER.analyze(project, List.of(project), cache);
        assertThatThrownBy(cache::save).isInstanceOf(IOException.class).hasMessageContaining("not a regular file");
        assertThat(dirAsCache).isEmptyDirectory();
    }

    @Test
    void aCacheReachedThroughASymbolicLinkIntoTheTreeIsNeverScanned() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path inTree = project.resolve("billing/src/main/java/com/example/billing/Cache.java");
        Path link = tmp.resolve("cache-link.java");
        Files.createSymbolicLink(link, inTree);
        AnalysisResult cold = ANALYZER.analyze(project, List.of(project));
        cached(ANALYZER, project, link);
        assertThat(inTree).isRegularFile();
        AnalysisResult warm = cached(ANALYZER, project, link);
        assertThat(observable(warm)).isEqualTo(observable(cold));
        assertThat(lastStats.javaReused()).isTrue();
    }

    @Test
    void aCandidateWithoutFactsInTheCacheIsAnalysedAgain() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("cache.json");
        cached(ANALYZER, project, cacheFile);
        editCache(cacheFile, tree -> tree.get("files").forEach(entry -> ((ObjectNode) entry).putNull("facts")));

        AnalysisResult warm = cached(ANALYZER, project, cacheFile);
        assertThat(lastStats.javaReused()).isFalse();
        assertThat(observable(warm)).isEqualTo(observable(ANALYZER.analyze(project, List.of(project))));
    }

    @Test
    void aCacheOfAnotherLayoutIsReplacedSilently() throws IOException {
        Path cacheFile = tmp.resolve("cache.json");
        Files.writeString(cacheFile, "{\"format\": 99, \"whatever\": true}");
        assertThat(FactsCache.load(cacheFile).problem()).isEmpty();
    }

    @Test
    void aCacheFileIsWrittenOnlyBySave() throws IOException {
        Path project = copy(FixtureHarness.fixture("lock-helpers"));
        Path cacheFile = tmp.resolve("sub/cache.json");
        FactsCache cache = FactsCache.load(cacheFile);
        ANALYZER.analyze(project, List.of(project), cache);
        assertThat(cacheFile).doesNotExist();
        cache.save();
        String first = Files.readString(cacheFile);
        cached(ANALYZER, project, cacheFile);
        assertThat(Files.readString(cacheFile)).as("deterministic").isEqualTo(first);
    }

    /** A hand edit of a cache file: reads its JSON, applies the edit, writes it back. */
    private static void editCache(Path cacheFile, Consumer<JsonNode> edit) throws IOException {
        ObjectMapper json = new ObjectMapper();
        JsonNode tree = json.readTree(cacheFile.toFile());
        edit.accept(tree);
        json.writeValue(cacheFile.toFile(), tree);
    }

    private static String keysOf(AnalysisResult r) {
        return r.model().sites().stream().map(s -> String.valueOf(s.key())).reduce("", String::concat);
    }

    private Path copy(Path from) throws IOException {
        Path to = Files.createTempDirectory(tmp, "project");
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return to;
    }
}
