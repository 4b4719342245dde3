package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

    @TempDir
    Path dir;

    private String[] names() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toArray(String[]::new);
        }
    }

    @Test
    void replacesTheTargetAndCreatesMissingDirectories() throws IOException {
        Path target = dir.resolve("a/b/report.json");
        AtomicFiles.write(target, w -> w.write("first"));
        AtomicFiles.write(target, w -> w.write("second ü"));
        assertThat(Files.readString(target)).isEqualTo("second ü");
        try (Stream<Path> s = Files.list(target.getParent())) {
            assertThat(s).containsExactly(target);
        }
    }

    @Test
    void aFailedWriteKeepsTheOldFileAndLeavesNoTemporaryFile() throws IOException {
        Path target = dir.resolve("report.sarif");
        Files.writeString(target, "old");
        assertThatThrownBy(() -> AtomicFiles.write(target, w -> {
            w.write("half a rep");
            throw new IOException("disk full");
        })).hasMessage("disk full");
        assertThat(Files.readString(target)).isEqualTo("old");
        assertThat(names()).containsExactly("report.sarif");
    }
}
