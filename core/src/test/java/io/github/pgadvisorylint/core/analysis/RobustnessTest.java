package io.github.pgadvisorylint.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.io.AtomicFiles;
import io.github.pgadvisorylint.core.model.LockSite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Input that once hung, crashed or lost lock sites (reported by a tester); each now finishes and is analysed. */
class RobustnessTest {

    @TempDir
    Path root;

    private AnalysisResult analyze() {
        return Analyzer.builder().threads(1).build().analyze(root, List.of(root));
    }

    @Test
    @Timeout(30)
    void tenThousandTermConcatenationIsAnalysedNotOverflowed() throws Exception {
        String terms = String.join(" + ", Collections.nCopies(10_000, "\"a\""));
        Files.writeString(
                root.resolve("L.java"),
                "class L { Object f(java.sql.Statement st) throws Exception {"
                        + " return st.executeQuery(\"SELECT pg_advisory_xact_lock(1), \" + " + terms + "); } }\n");
        AnalysisResult r = analyze();
        assertThat(r.notifications()).isEmpty();
        assertThat(r.model().sites()).extracting(LockSite::display).containsExactly("pg_advisory_xact_lock(1)");
    }

    @Test
    @Timeout(30)
    void aLockInTheMiddleOfALongConcatenationIsFound() throws Exception {
        String before = String.join(" + ", Collections.nCopies(1_500, "\" \""));
        Files.writeString(
                root.resolve("K.java"),
                "class K { Object f(java.sql.Statement st) throws Exception {"
                        + " return st.executeQuery(\"SELECT id FROM jobs WHERE \" + " + before
                        + " + \"pg_try_advisory_xact_lock(id) ORDER BY p LIMIT 1\"); } }\n");
        assertThat(analyze().model().sites()).hasSize(1);
    }

    @Test
    @Timeout(30)
    void deeplyNestedOrUnbalancedSqlFallsBackQuicklyWithANote() throws Exception {
        Files.writeString(
                root.resolve("a.sql"),
                "SELECT id FROM t WHERE " + "(".repeat(40) + "pg_try_advisory_xact_lock(id)" + ")".repeat(40)
                        + " ORDER BY p LIMIT 1;\n");
        Files.writeString(
                root.resolve("b.sql"),
                "SELECT id FROM t WHERE " + "(".repeat(14) + "pg_try_advisory_xact_lock(id) ORDER BY p LIMIT 1;\n");
        AnalysisResult r = analyze();
        assertThat(r.model().sites()).hasSize(2);
        assertThat(r.notifications())
                .extracting(Notification::kind)
                .containsExactly("sql-parse-fallback", "sql-parse-fallback");
    }

    @Test
    void reportsAreWrittenThroughSymbolicLinksNotOverThem() throws Exception {
        Path link = root.resolve("report.sarif");
        Files.createSymbolicLink(link, root.resolve("real.sarif"));
        AtomicFiles.write(link, w -> w.write("{}"));
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(root.resolve("real.sarif"))).isEqualTo("{}");
    }

    @Test
    @Timeout(30)
    void aYamlFileOverTheSizeLimitIsSkippedBeforeAnyParsing() throws Exception {
        // snakeyaml reads about 1 MB/s of a huge scalar: the byte limit keeps it from ever seeing 17 MB
        StringBuilder b =
                new StringBuilder("spring:\n  datasource:\n    url: jdbc:postgresql://pgbouncer:6432/app\nblob: \"");
        b.append("x".repeat(17 * 1024 * 1024)).append("\"\n");
        Files.writeString(root.resolve("application.yml"), b);
        AnalysisResult r = analyze();
        assertThat(r.notifications())
                .extracting(Notification::kind, n -> n.region().path())
                .containsExactly(Tuple.tuple("file-too-large", "application.yml"));
        assertThat(r.model().poolingEvidence()).isEmpty();
    }

    @Test
    @Timeout(30)
    void aFileThatVanishesBetweenDiscoveryAndReadingIsAWarning() throws Exception {
        // stands in for an unreadable file, which root (the CI user here) cannot produce with permissions
        Files.writeString(root.resolve("Gone.java"), "class Gone { String s = \"select pg_advisory_lock(1)\"; }\n");
        Files.writeString(root.resolve("a.sql"), "SELECT pg_advisory_xact_lock(1);\n");
        AnalysisRun run = new AnalysisRun(TimeLimitTest.settings(1), root, List.of(root));
        run.beforeFileTask = path -> {
            try {
                Files.deleteIfExists(root.resolve("Gone.java"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        AnalysisResult r = run.run();
        assertThat(r.notifications()).singleElement().satisfies(n -> {
            assertThat(n.kind()).isEqualTo("unreadable-file");
            assertThat(n.region().path()).isEqualTo("Gone.java");
            assertThat(n.message()).contains("NoSuchFileException");
        });
        assertThat(r.model().sites()).hasSize(1);
    }
}
