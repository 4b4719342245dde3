package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.report.SarifReporter;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.fixtures.SarifSchema;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 10, item 3: for generated trees (subsets of a pool of files that interact: constants, helpers,
 * keys shared across files, pooling configuration, broken files), the SARIF does not depend on the
 * order in which files are created (hence visited by the file-system walk) nor on the number of
 * threads, and two runs give byte-identical SARIF. Tries are few: each runs the real analyzer with the
 * real rules two or three times.
 */
class DeterminismPropertyTest {

    private static final List<Rule> RULES = RuleRegistry.load();

    /** Files that interact across the tree; each property picks a subset. */
    private static final Map<String, String> POOL = Map.ofEntries(
            Map.entry(
                    "src/main/java/a/LockKeys.java",
                    "package a;\npublic final class LockKeys {\n"
                            + "  public static final long REPORT = 9001;\n  public static final long BILLING = 9001;\n"
                            + "  public static final int NS = 12;\n}\n"),
            Map.entry(
                    "src/main/java/a/ReportJob.java",
                    "package a;\nclass ReportJob {\n"
                            + "  void run(java.sql.Connection c) throws Exception {\n"
                            + "    var st = c.createStatement();\n"
                            + "    st.execute(\"SELECT pg_advisory_lock(\" + LockKeys.REPORT + \")\");\n"
                            + "    work();\n"
                            + "    st.execute(\"SELECT pg_advisory_unlock(\" + LockKeys.REPORT + \")\");\n  }\n  void work() {}\n}\n"),
            Map.entry(
                    "src/main/java/a/BillingJob.java",
                    "package a;\nclass BillingJob {\n"
                            + "  void run(java.sql.Statement st) throws Exception {\n"
                            + "    st.executeQuery(\"SELECT pg_try_advisory_xact_lock(\" + LockKeys.BILLING + \")\");\n  }\n}\n"),
            Map.entry(
                    "src/main/java/a/Locks.java",
                    "package a;\nclass Locks {\n"
                            + "  static void withLock(java.sql.Connection c, long key, Runnable r) throws Exception {\n"
                            + "    var ps = c.prepareStatement(\"SELECT pg_advisory_lock(?)\");\n    ps.setLong(1, key);\n    ps.execute();\n"
                            + "    try { r.run(); } finally {\n"
                            + "      var u = c.prepareStatement(\"SELECT pg_advisory_unlock(?)\");\n      u.setLong(1, key);\n      u.execute();\n"
                            + "    }\n  }\n}\n"),
            Map.entry(
                    "src/main/java/b/Transfer.java",
                    "package b;\nclass Transfer {\n"
                            + "  void move(java.sql.Connection c, long from, long to) throws Exception {\n"
                            + "    a.Locks.withLock(c, from, () -> {});\n    a.Locks.withLock(c, to, () -> {});\n"
                            + "    var s = c.createStatement();\n    s.execute(\"SELECT pg_advisory_xact_lock(1); SELECT pg_advisory_xact_lock(2)\");\n  }\n"
                            + "  void back(java.sql.Connection c) throws Exception {\n"
                            + "    var s = c.createStatement();\n    s.execute(\"SELECT pg_advisory_xact_lock(2); SELECT pg_advisory_xact_lock(1)\");\n  }\n}\n"),
            Map.entry(
                    "src/main/java/b/Queue.java",
                    "package b;\nclass Queue {\n"
                            + "  Object next(java.sql.Statement st) throws Exception {\n"
                            + "    return st.executeQuery(\"SELECT id FROM jobs WHERE pg_try_advisory_lock(id) ORDER BY id LIMIT 1\");\n  }\n}\n"),
            Map.entry(
                    "src/main/java/b/Broken.java",
                    "package b;\nclass Broken {\n  String s = \"pg_advisory_lock(1)\n}\n"),
            Map.entry(
                    "src/main/java/c/LockKeys.java",
                    "package c;\npublic final class LockKeys {\n  public static final long REPORT = 7;\n}\n"),
            Map.entry(
                    "src/main/resources/application.yml",
                    "spring:\n  datasource:\n    url: jdbc:postgresql://pgbouncer:6432/app\n"),
            Map.entry(
                    "src/main/resources/db/migration/V1__init.sql",
                    "SELECT pg_advisory_lock(9001);\n"
                            + "SELECT id FROM t WHERE pg_try_advisory_xact_lock(id) LIMIT 5;\n"),
            Map.entry(
                    "src/main/resources/db/migration/V2__odd.sql",
                    "SELECT pg_advisory_xact_lock(hashtext('x')) WHERE a @@@ b;\n"
                            + "DO $$ BEGIN PERFORM pg_advisory_lock(42); END $$;\n"),
            Map.entry("pgbouncer.ini", "[pgbouncer]\npool_mode = transaction\n"));

    private static final List<String> NAMES = POOL.keySet().stream().sorted().toList();

    @Provide
    Arbitrary<List<Integer>> subsets() {
        return Arbitraries.integers()
                .between(0, NAMES.size() - 1)
                .list()
                .uniqueElements()
                .ofMinSize(2)
                .ofMaxSize(NAMES.size());
    }

    /** Writes the chosen files in the given order into a fresh directory. */
    private static Path tree(List<String> files) throws Exception {
        Path root = Files.createTempDirectory("determinism");
        for (String f : files) {
            Path p = root.resolve(f);
            Files.createDirectories(p.getParent());
            Files.writeString(p, POOL.get(f));
        }
        return root;
    }

    private static String sarif(Path root, int threads) throws Exception {
        AnalysisResult r =
                Analyzer.builder().rules(RULES).threads(threads).build().analyze(root, List.of(root));
        StringWriter w = new StringWriter();
        new SarifReporter().write(r, w);
        return w.toString();
    }

    private static void delete(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Property(tries = 30)
    void sarifDoesNotDependOnVisitingOrderOrThreads(@ForAll("subsets") List<Integer> chosen, @ForAll long seed)
            throws Exception {
        List<String> files = new ArrayList<>(chosen.stream().map(NAMES::get).toList());
        List<String> shuffled = new ArrayList<>(files);
        Collections.shuffle(shuffled, new Random(seed));
        Collections.reverse(files);
        Path a = tree(files);
        Path b = tree(shuffled);
        try {
            String one = sarif(a, 1);
            String four = sarif(b, 4);
            assertThat(four).isEqualTo(one);
        } finally {
            delete(a);
            delete(b);
        }
    }

    @Property(tries = 15)
    void twoRunsGiveByteIdenticalValidSarif(@ForAll("subsets") List<Integer> chosen) throws Exception {
        Path root = tree(chosen.stream().map(NAMES::get).toList());
        try {
            String first = sarif(root, 2);
            String second = sarif(root, 2);
            assertThat(second.getBytes(StandardCharsets.UTF_8)).isEqualTo(first.getBytes(StandardCharsets.UTF_8));
            SarifSchema.assertValid(first);
        } finally {
            delete(root);
        }
    }

    @Example
    void theWholePoolHasFindingsSoTheComparisonsAreNotVacuous() throws Exception {
        Path root = tree(NAMES);
        try {
            String s = sarif(root, 2);
            assertThat(s)
                    .contains("\"ruleId\": \"lock-in-limit-query\"")
                    .contains("\"ruleId\": \"duplicate-lock-key\"")
                    .contains("java-parse-error");
        } finally {
            delete(root);
        }
    }
}
