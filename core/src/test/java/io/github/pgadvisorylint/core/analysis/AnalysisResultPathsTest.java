package io.github.pgadvisorylint.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 19: a result never carries the scan root's absolute path in its notifications. */
class AnalysisResultPathsTest {

    @Test
    void absoluteLocationsAndMessagesBelowTheRootBecomeRelative() {
        Path root = Path.of("/work/checkout/repo").toAbsolutePath();
        String abs = root.resolve("src/A.java").toString();
        Notification fromIo = new Notification(
                Severity.WARNING,
                "unreadable-file",
                "cannot read file: AccessDeniedException (" + abs + ")",
                SourceRegion.line(abs, 1));
        Notification atRoot = new Notification(
                Severity.WARNING, "unreadable-path", "cannot walk: " + root, SourceRegion.line(".", 1));
        // a backslash inside a name is not a separator and stays as it is
        Notification plain =
                new Notification(Severity.NOTE, "encoding", "kept", SourceRegion.line("src/back\\slash.java", 1));
        AnalysisResult r = new AnalysisResult(
                root,
                List.of(),
                List.of(),
                List.of(fromIo, atRoot, plain),
                new LockModel(List.of(), List.of()),
                3,
                1,
                0);
        assertThat(r.notifications())
                .extracting(n -> n.region().path() + " " + n.message())
                .containsExactly(
                        ". cannot walk: .",
                        "src/A.java cannot read file: AccessDeniedException (src/A.java)",
                        "src/back\\slash.java kept");
        assertThat(r.notifications().get(2)).isSameAs(plain);
    }
}
