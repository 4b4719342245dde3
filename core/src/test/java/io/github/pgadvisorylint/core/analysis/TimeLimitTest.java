package io.github.pgadvisorylint.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wall-clock safety limit (issue 27, item 1): what a run reports never depends on time. A file that
 * is slow but finishes is analysed whole, however loaded the machine; a file that runs past the limit
 * stops the run with {@link TimeLimitExceededException} naming it, instead of a report with the file
 * quietly left out (formerly the {@code file-time-budget} notification, whose verdicts changed with load).
 */
class TimeLimitTest {

    @TempDir
    Path root;

    /** @return a run over the temporary tree without rules */
    private AnalysisRun run(Duration limit) {
        return new AnalysisRun(settings(1), root, List.of(root), limit);
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

    private void writeGoodFiles() throws Exception {
        for (int i = 0; i < 4; i++) {
            Files.writeString(root.resolve("V" + i + "__ok.sql"), "SELECT pg_advisory_xact_lock(" + i + ");\n");
        }
    }

    /** A statement JSqlParser needs a while for: IN subqueries nested 12 deep, just under the cutoff. */
    private static String slowStatement() {
        return "SELECT pg_advisory_lock(1) FROM t WHERE a IN " + "(SELECT a FROM t WHERE a IN ".repeat(11) + "(1)"
                + ")".repeat(11) + ";\n";
    }

    @Test
    @Timeout(1800)
    void aSlowFileUnderTheLimitIsAnalysedWholeAndSaysNothing() throws Exception {
        writeGoodFiles();
        Files.writeString(root.resolve("slow.sql"), slowStatement().repeat(3));
        // a limit no load can reach: the verdict must not depend on the machine (a loaded CI runner took
        // over 100 s for these three statements)
        AnalysisResult r = run(Duration.ofHours(1)).run();
        assertThat(r.notifications()).isEmpty();
        assertThat(r.model().sites()).extracting(s -> s.region().path()).contains("slow.sql");
    }

    @Test
    @Timeout(30)
    void aFileThatNeverReturnsStopsTheRunNamingTheFileAndTheLimit() throws Exception {
        writeGoodFiles();
        Files.writeString(root.resolve("Hang.java"), "class Hang { String s = \"select pg_advisory_lock(7)\"; }\n");
        AtomicBoolean release = new AtomicBoolean();
        try {
            AnalysisRun run = run(Duration.ofSeconds(1));
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
            assertThatThrownBy(run::run)
                    .isInstanceOfSatisfying(TimeLimitExceededException.class, e -> {
                        assertThat(e.subject()).isEqualTo("Hang.java");
                        assertThat(e.limit()).isEqualTo(Duration.ofSeconds(1));
                    })
                    .hasMessageContaining("Hang.java took longer than the time limit of 1 s")
                    .hasMessageContaining("--time-limit");
        } finally {
            release.set(true);
        }
    }

    @Test
    void theLimitIsConfigurableAndMustBePositive() throws Exception {
        Files.writeString(root.resolve("a.sql"), "SELECT pg_advisory_xact_lock(1);\n");
        AnalysisResult r = Analyzer.builder()
                .threads(1)
                .timeLimit(Duration.ofSeconds(30))
                .build()
                .analyze(root, List.of(root));
        assertThat(r.model().sites()).extracting(LockSite::display).containsExactly("pg_advisory_xact_lock(1)");
        assertThat(r.notifications()).isEmpty();
        assertThatThrownBy(() -> Analyzer.builder().timeLimit(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(AnalysisRun.describe(Duration.ofSeconds(10).toNanos())).isEqualTo("10 s");
        assertThat(AnalysisRun.describe(Duration.ofMillis(1500).toNanos())).isEqualTo("1500 ms");
    }
}
