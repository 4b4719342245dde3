package io.github.pgadvisorylint.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileKind;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file that changes between discovery and reading is still read with the size limit (issue 27,
 * item 6): one swapped for a link to {@code /dev/zero} is never read without end, one that grew past
 * the limit is skipped with the same notification as one that was over it when listed.
 */
class BoundedReadTest {

    @TempDir
    Path root;

    private final SourceReader reader = new SourceReader(PoolingSetting.AUTO, true, f -> true);

    /** @return the one notification of a file that was read as a {@code Known} failure */
    private static Notification onlyNotification(SourceReader.Read read) {
        assertThat(read.staged()).isInstanceOf(Staged.Known.class);
        assertThat(((Staged.Known) read.staged()).facts().notifications()).hasSize(1);
        return ((Staged.Known) read.staged()).facts().notifications().get(0);
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFileSwappedForALinkToDevZeroIsNotReadWithoutLimit() throws Exception {
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero on this system");
        Path file = root.resolve("Swapped.java");
        Files.createSymbolicLink(file, zero);
        // listed while it was a 40-byte source file
        DiscoveredFile listed = new DiscoveredFile(file, "Swapped.java", FileKind.JAVA, 40);

        Notification n = onlyNotification(reader.read(listed, true, null, Set.of()));
        assertThat(n.kind()).isEqualTo("special-file");
        assertThat(n.region().path()).isEqualTo("Swapped.java");
        assertThat(n.message()).contains("character device").contains("not read");
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFileThatGrewPastTheLimitAfterItWasListedIsSkipped() throws Exception {
        Path file = root.resolve("Grown.sql");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(SourceReader.MAX_FILE_BYTES + 1); // sparse: costs no disk
        }
        DiscoveredFile listed = new DiscoveredFile(file, "Grown.sql", FileKind.SQL, 30);

        Notification n = onlyNotification(reader.read(listed, true, null, Set.of()));
        assertThat(n.kind()).isEqualTo("file-too-large");
        assertThat(n.message())
                .contains("grew")
                .contains(String.valueOf(SourceReader.MAX_FILE_BYTES))
                .contains("skipped");
    }

    @Test
    void aFileAtTheLimitIsStillRead() throws Exception {
        Path file = root.resolve("Edge.sql");
        byte[] text = "SELECT pg_advisory_lock(1);\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Files.write(file, text);
        SourceReader.Read read =
                reader.read(new DiscoveredFile(file, "Edge.sql", FileKind.SQL, text.length), false, null, Set.of());
        assertThat(read.staged()).isInstanceOf(Staged.Text.class);
        assertThat(read.sha256()).isEqualTo(SourceReader.sha256(text));
    }
}
