package io.github.pgadvisorylint.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-file time budget (issue 10, item 4): a file that takes too long is abandoned with a
 * {@code file-time-budget} notification naming the budget, and the scan goes on and ends.
 */
class FileTimeBudgetTest {

    @TempDir
    Path root;

    /** @return a run over the temporary tree without rules */
    private AnalysisRun run(int threads, Duration budget) {
        return new AnalysisRun(settings(threads), root, List.of(root), budget);
    }

    /** @return settings with no rules, the given threads and nothing configured */
    static AnalysisRun.Settings settings(int threads) {
        return new AnalysisRun.Settings(
                List.of(),
                Set.of(),
                Map.of(),
                threads,
                PoolingSetting.AUTO,
                p -> true,
                Set.of(),
                Set.of(),
                ProgressListener.NONE);
    }

    /** A statement JSqlParser needs over a second for: IN subqueries nested 12 deep, just under the cutoff. */
    private static String slowStatement() {
        return "SELECT pg_advisory_lock(1) FROM t WHERE a IN " + "(SELECT a FROM t WHERE a IN ".repeat(11) + "(1)"
                + ")".repeat(11) + ";\n";
    }

    private void writeGoodFiles() throws Exception {
        for (int i = 0; i < 4; i++) {
            Files.writeString(root.resolve("V" + i + "__ok.sql"), "SELECT pg_advisory_xact_lock(" + i + ");\n");
        }
    }

    @Test
    @Timeout(60)
    void aGenuinelySlowSqlFileIsAbandonedAndTheOthersAreAnalysed() throws Exception {
        writeGoodFiles();
        Files.writeString(root.resolve("slow.sql"), slowStatement().repeat(20));
        long start = System.nanoTime();
        AnalysisResult r = run(1, Duration.ofSeconds(1)).run();
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(r.notifications()).singleElement().satisfies(n -> {
            assertThat(n.kind()).isEqualTo("file-time-budget");
            assertThat(n.level()).isEqualTo(Severity.WARNING);
            assertThat(n.region().path()).isEqualTo("slow.sql");
            assertThat(n.region().startLine()).isEqualTo(1);
            assertThat(n.message()).contains("time budget of 1 s").contains("skipped");
        });
        assertThat(r.model().sites())
                .extracting(s -> s.region().path())
                .containsExactly("V0__ok.sql", "V1__ok.sql", "V2__ok.sql", "V3__ok.sql");
        // the whole file needs 20+ s of parsing; the scan did not wait for it
        assertThat(ms).isLessThan(15_000);
    }

    @Test
    @Timeout(30)
    void aTaskThatNeverReturnsDoesNotBlockTheOnlyWorkerNorTheEndOfTheRun() throws Exception {
        writeGoodFiles();
        Files.writeString(root.resolve("Hang.java"), "class Hang { String s = \"select pg_advisory_lock(7)\"; }\n");
        AtomicBoolean release = new AtomicBoolean();
        try {
            AnalysisRun run = run(1, Duration.ofSeconds(1));
            // a front end that ignores interrupts, like JavaParser and JSqlParser
            run.beforeFileTask = path -> {
                while (path.equals("Hang.java") && !release.get()) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException ignored) {
                        // parsers do not check interrupts either
                    }
                }
            };
            AnalysisResult r = run.run();
            assertThat(r.notifications())
                    .extracting(Notification::kind, n -> n.region().path())
                    .containsExactly(Tuple.tuple("file-time-budget", "Hang.java"));
            assertThat(r.model().sites()).extracting(LockSite::display).hasSize(4);
        } finally {
            release.set(true);
        }
    }

    @Test
    @Timeout(30)
    void aFileAbandonedWhileExtractingIsNotRetriedInLaterPhases() throws Exception {
        writeGoodFiles();
        Files.writeString(root.resolve("Twice.java"), "class Twice { String s = \"select pg_advisory_lock(7)\"; }\n");
        AtomicInteger calls = new AtomicInteger();
        AnalysisRun run = run(2, Duration.ofSeconds(1));
        AtomicBoolean release = new AtomicBoolean();
        run.beforeFileTask = path -> {
            // reading and parsing are quick; from the first extraction on the file hangs
            if (path.equals("Twice.java") && calls.incrementAndGet() >= 3) {
                while (!release.get()) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException ignored) {
                        // keep going, like a parser
                    }
                }
            }
        };
        AnalysisResult r;
        try {
            r = run.run();
        } finally {
            release.set(true);
        }
        assertThat(r.notifications()).extracting(Notification::kind).containsExactly("file-time-budget");
        assertThat(calls.get()).isEqualTo(3);
        assertThat(r.model().sites()).hasSize(4);
    }

    @Test
    void theBudgetIsConfigurableAndMustBePositive() throws Exception {
        Files.writeString(root.resolve("a.sql"), "SELECT pg_advisory_xact_lock(1);\n");
        AnalysisResult r = Analyzer.builder()
                .threads(1)
                .fileTimeBudget(Duration.ofSeconds(30))
                .build()
                .analyze(root, List.of(root));
        assertThat(r.model().sites()).hasSize(1);
        assertThat(r.notifications()).isEmpty();
        assertThatThrownBy(() -> Analyzer.builder().fileTimeBudget(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(AnalysisRun.describe(Duration.ofSeconds(10).toNanos())).isEqualTo("10 s");
        assertThat(AnalysisRun.describe(Duration.ofMillis(1500).toNanos())).isEqualTo("1500 ms");
    }
}
