package io.github.pgadvisorylint.core.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Prefilter}: the byte search that picks the files to parse. Found by the fourth adversarial pass
 * (issue 27): a lock call spelled with a Java unicode escape, which javac and the front end decode, was
 * never parsed, so it went unreported with no notification.
 */
class PrefilterTest {

    @TempDir
    Path root;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void theWordIsFoundInAnyCaseAndThroughUnicodeEscapes() {
        assertThat(Prefilter.mentionsAdvisory(bytes("select PG_ADVISORY_LOCK(1)")))
                .isTrue();
        assertThat(Prefilter.mentionsAdvisory(bytes("\"SELECT pg_\\u0061dvisory_lock(1)\"")))
                .isTrue();
        assertThat(Prefilter.mentionsAdvisory(bytes("\"pg_\\uuu0061\\u0064visory_lock(1)\"")))
                .isTrue();
        assertThat(Prefilter.mentionsAdvisory(bytes("class A { String s = \"\\u0041dvice\"; }")))
                .isFalse();
        assertThat(Prefilter.mentionsAdvisory(bytes("class A { String s = \"\\u00\"; } // \\u")))
                .isFalse();
        assertThat(Prefilter.mentionsAdvisory(bytes("class A {}"))).isFalse();
    }

    @Test
    void aLockCallSpelledWithAnEscapeIsAnalysed() throws Exception {
        Files.writeString(root.resolve("Job.java"), """
                class Job {
                    void run(java.sql.Statement s) throws Exception {
                        s.execute("SELECT pg_\\u0061dvisory_lock(1)");
                    }
                }
                """);
        AnalysisResult r = Analyzer.builder().threads(1).build().analyze(root, List.of(root));
        assertThat(r.model().sites())
                .singleElement()
                .satisfies(s -> assertThat(s.function().sqlName()).isEqualTo("pg_advisory_lock"));
    }
}
