package io.github.pgadvisorylint.core.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.FindingSuppression;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineTest {

    @TempDir
    Path dir;

    private static Finding finding(String fingerprint, int line) {
        return new Finding(
                "lock-in-limit-query",
                Severity.ERROR,
                "message " + fingerprint,
                new SourceRegion("src/A.java", line, 5, line, 20),
                List.of(),
                fingerprint);
    }

    private static AnalysisResult result(Finding... findings) {
        return new AnalysisResult(
                Path.of("/root"),
                List.of(),
                List.of(findings),
                List.of(),
                new LockModel(List.of(), List.of()),
                1,
                1,
                1);
    }

    @Test
    void roundTripsThroughTheDocumentedFormat() throws Exception {
        Baseline b = Baseline.of(List.of(finding("bbbb", 9), finding("aaaa", 3)));
        Path file = dir.resolve("baseline.json");
        b.write(file);
        assertThat(Files.readString(file)).isEqualTo("""
                {
                  "version": 1,
                  "tool": "pg-advisory-lint",
                  "findings": [
                    {
                      "ruleId": "lock-in-limit-query",
                      "path": "src/A.java",
                      "fingerprint": "aaaa",
                      "message": "message aaaa"
                    },
                    {
                      "ruleId": "lock-in-limit-query",
                      "path": "src/A.java",
                      "fingerprint": "bbbb",
                      "message": "message bbbb"
                    }
                  ]
                }
                """);
        assertThat(Baseline.read(file)).isEqualTo(b);
    }

    @Test
    void matchesByFingerprintNotByLine() {
        Baseline b = Baseline.of(List.of(finding("aaaa", 3)));
        AnalysisResult applied = b.apply(result(finding("aaaa", 13), finding("cccc", 30)), "baseline.json");
        assertThat(applied.findings()).extracting(Finding::fingerprint).containsExactly("cccc");
        assertThat(applied.suppressed()).singleElement().satisfies(f -> {
            assertThat(f.fingerprint()).isEqualTo("aaaa");
            assertThat(f.suppression().kind()).isEqualTo(FindingSuppression.Kind.EXTERNAL);
            assertThat(f.suppression().location()).isEqualTo(SourceRegion.line("baseline.json", 1));
        });
    }

    @Test
    void anUpdateOnlyDropsUnlessAskedToRecordAll() {
        Baseline b = Baseline.of(List.of(finding("aaaa", 3), finding("bbbb", 4)));
        List<Finding> now = List.of(finding("bbbb", 40), finding("cccc", 50));
        assertThat(b.update(now, false).entries())
                .extracting(Baseline.Entry::fingerprint)
                .containsExactly("bbbb");
        assertThat(b.update(now, true).entries())
                .extracting(Baseline.Entry::fingerprint)
                .containsExactly("bbbb", "cccc");
    }

    @Test
    void refusesBrokenFiles() throws Exception {
        Path file = dir.resolve("b.json");
        Files.writeString(file, "{\n  \"version\": 1,\n  \"findings\": [\n");
        assertThatThrownBy(() -> Baseline.read(file))
                .isInstanceOf(BaselineException.class)
                .hasMessageStartingWith(file + ":4: not valid JSON");
        Files.writeString(file, "{\"version\": 2, \"findings\": []}");
        assertThatThrownBy(() -> Baseline.read(file))
                .hasMessage(file + ": unsupported baseline version 2" + " (this pg-advisory-lint reads version 1)");
        Files.writeString(file, "{\"version\": 1, \"findings\": [{\"ruleId\": \"x\", \"path\": \"p\"}]}");
        assertThatThrownBy(() -> Baseline.read(file))
                .hasMessage(file + ": findings[0]: \"fingerprint\" must be a" + " non-empty string");
        Files.writeString(file, "[]");
        assertThatThrownBy(() -> Baseline.read(file)).hasMessageContaining("not a baseline");
    }
}
