package io.github.pgadvisorylint.core.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Named pipes, sockets and devices named like a file the scan reads are reported and never opened
 * (issue 27, item 6): opening a pipe blocks until a writer comes, a device such as {@code /dev/zero}
 * never ends.
 */
class SpecialFilesTest {

    @TempDir
    Path root;

    /** Makes a named pipe with {@code mkfifo}; skips the test where there is none. */
    private static void mkfifo(Path fifo) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", fifo.toString())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            Assumptions.abort("mkfifo is not available: " + e.getMessage());
            return;
        }
        Assumptions.assumeTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo works here");
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aNamedPipeNamedLikeSourceIsReportedAndTheScanGoesOn() throws Exception {
        Files.createDirectories(root.resolve("src"));
        mkfifo(root.resolve("src/Pipe.java"));
        mkfifo(root.resolve("src/pipe.sql"));
        mkfifo(root.resolve("src/application.yml"));
        mkfifo(root.resolve("src/Mapper.xml"));
        Files.writeString(
                root.resolve("src/claim.sql"), "SELECT id FROM jobs WHERE pg_try_advisory_lock(id) LIMIT 1;\n");

        FileDiscovery.Result found = FileDiscovery.discover(root, List.of(root));
        assertThat(found.files()).extracting(DiscoveredFile::relativePath).containsExactly("src/claim.sql");
        assertThat(found.notifications())
                .extracting(Notification::kind, n -> n.region().path(), Notification::level)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("special-file", "src/Mapper.xml", Severity.WARNING),
                        org.assertj.core.groups.Tuple.tuple("special-file", "src/Pipe.java", Severity.WARNING),
                        org.assertj.core.groups.Tuple.tuple("special-file", "src/application.yml", Severity.WARNING),
                        org.assertj.core.groups.Tuple.tuple("special-file", "src/pipe.sql", Severity.WARNING));
        assertThat(found.notifications())
                .allSatisfy(n -> assertThat(n.message()).contains("named pipe").contains("not read"));

        // the whole analysis finishes (nothing opens the pipes) and still analyses the regular file
        AnalysisResult r = Analyzer.builder().threads(1).build().analyze(root, List.of(root));
        assertThat(r.model().sites()).hasSize(1);
        assertThat(r.notifications()).extracting(Notification::kind).containsOnly("special-file");
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aPipeGivenAsATargetIsReportedToo() throws Exception {
        Path pipe = root.resolve("Given.java");
        mkfifo(pipe);
        FileDiscovery.Result found = FileDiscovery.discover(root, List.of(pipe));
        assertThat(found.files()).isEmpty();
        assertThat(found.notifications()).singleElement().satisfies(n -> {
            assertThat(n.kind()).isEqualTo("special-file");
            assertThat(n.region().path()).isEqualTo("Given.java");
        });
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSocketNamedLikeSourceIsReported() throws Exception {
        Path socket = root.resolve("Sock.java");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            FileDiscovery.Result found = FileDiscovery.discover(root, List.of(root));
            assertThat(found.files()).isEmpty();
            assertThat(found.notifications())
                    .extracting(n -> n.region().path() + ": " + n.kind() + ": " + n.message())
                    .containsExactly("Sock.java: special-file: a socket, not a regular file; not read");
        } catch (UnsupportedOperationException e) {
            Assumptions.abort("no Unix domain sockets here");
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aLinkToADeviceIsReportedAsSuch() throws Exception {
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero on this system");
        Files.createSymbolicLink(root.resolve("Zero.java"), zero);
        Files.createSymbolicLink(root.resolve("null.sql"), Path.of("/dev/null"));
        mkfifo(root.resolve("real.fifo"));
        Files.createSymbolicLink(root.resolve("linked.properties"), root.resolve("real.fifo"));
        Files.createSymbolicLink(root.resolve("notes.txt"), zero); // no file the scan reads: silent

        FileDiscovery.Result found = FileDiscovery.discover(root, List.of(root));
        assertThat(found.files()).isEmpty();
        assertThat(found.notifications())
                .extracting(n -> n.region().path() + ": " + n.kind() + ": " + n.message())
                .containsExactly(
                        "Zero.java: special-file: a symbolic link to a character device, not a regular file; not read",
                        "linked.properties: special-file: a symbolic link to a named pipe, not a regular file; not read",
                        "null.sql: special-file: a symbolic link to a character device, not a regular file; not read");

        AnalysisResult r = Analyzer.builder().threads(1).build().analyze(root, List.of(root));
        assertThat(r.notifications()).extracting(Notification::kind).containsOnly("special-file");
    }
}
