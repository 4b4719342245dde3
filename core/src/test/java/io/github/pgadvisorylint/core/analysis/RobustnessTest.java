package io.github.pgadvisorylint.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.report.AtomicFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
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
        Files.writeString(root.resolve("L.java"), "class L { Object f(java.sql.Statement st) throws Exception {"
                + " return st.executeQuery(\"SELECT pg_advisory_xact_lock(1), \" + " + terms + "); } }\n");
        AnalysisResult r = analyze();
        assertThat(r.notifications()).isEmpty();
        assertThat(r.model().sites()).extracting(LockSite::display).containsExactly("pg_advisory_xact_lock(1)");
    }

    @Test
    @Timeout(30)
    void aLockInTheMiddleOfALongConcatenationIsFound() throws Exception {
        String before = String.join(" + ", Collections.nCopies(1_500, "\" \""));
        Files.writeString(root.resolve("K.java"), "class K { Object f(java.sql.Statement st) throws Exception {"
                + " return st.executeQuery(\"SELECT id FROM jobs WHERE \" + " + before
                + " + \"pg_try_advisory_xact_lock(id) ORDER BY p LIMIT 1\"); } }\n");
        assertThat(analyze().model().sites()).hasSize(1);
    }

    @Test
    @Timeout(30)
    void deeplyNestedOrUnbalancedSqlFallsBackQuicklyWithANote() throws Exception {
        Files.writeString(root.resolve("a.sql"), "SELECT id FROM t WHERE " + "(".repeat(40) + "pg_try_advisory_xact_lock(id)"
                + ")".repeat(40) + " ORDER BY p LIMIT 1;\n");
        Files.writeString(root.resolve("b.sql"), "SELECT id FROM t WHERE " + "(".repeat(14)
                + "pg_try_advisory_xact_lock(id) ORDER BY p LIMIT 1;\n");
        AnalysisResult r = analyze();
        assertThat(r.model().sites()).hasSize(2);
        assertThat(r.notifications()).extracting(Notification::kind).containsExactly("sql-parse-fallback", "sql-parse-fallback");
    }

    @Test
    void reportsAreWrittenThroughSymbolicLinksNotOverThem() throws Exception {
        Path link = root.resolve("report.sarif");
        Files.createSymbolicLink(link, root.resolve("real.sarif"));
        AtomicFiles.write(link, w -> w.write("{}"));
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(root.resolve("real.sarif"))).isEqualTo("{}");
    }
}
