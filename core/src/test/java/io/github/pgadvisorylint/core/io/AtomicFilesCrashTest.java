package io.github.pgadvisorylint.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 2: a writer killed midway (SIGKILL, no finally block runs) leaves the old report
 * intact; only its hidden temporary file remains.
 */
class AtomicFilesCrashTest {

    /** Writes half a report through {@link AtomicFiles}, says so, and waits to be killed. */
    public static final class Victim {
        private Victim() {}

        /**
         * @param args the report file
         * @throws Exception never in practice: the test kills the process while it sleeps
         */
        public static void main(String[] args) throws Exception {
            AtomicFiles.write(Path.of(args[0]), w -> {
                w.write("{\"half\": \"a new rep");
                w.flush();
                System.out.println("HALF");
                System.out.flush();
                try {
                    Thread.sleep(120_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }

    @Test
    @Timeout(60)
    void killingTheWriterMidwayLeavesTheOldReportIntact(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report.sarif");
        Files.writeString(report, "{\"old\": \"complete\"}\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), Victim.class.getName(), report.toString())
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("HALF");
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(Files.readString(report)).isEqualTo("{\"old\": \"complete\"}\n");
        List<Path> temps;
        try (Stream<Path> s = Files.list(dir)) {
            temps = s.filter(f -> !f.equals(report)).toList();
        }
        // the half-written content went only to the hidden temporary file next to it
        assertThat(temps).singleElement().satisfies(t -> {
            assertThat(t.getFileName().toString()).startsWith(".report.sarif.").endsWith(".tmp");
            assertThat(Files.readString(t)).isEqualTo("{\"half\": \"a new rep");
        });
    }

    @Test
    @Timeout(60)
    void killingTheWriterMidwayThroughALinkLeavesTheOldReportIntact(@TempDir Path dir) throws Exception {
        // issue 19: the output is a symbolic link to the report kept next to it; before, the write went
        // through the link in place, so a kill left the report truncated and the old one gone
        Path report = dir.resolve("report-2024.sarif");
        Files.writeString(report, "{\"old\": \"complete\"}\n");
        Path link = Files.createSymbolicLink(dir.resolve("latest.sarif"), Path.of("report-2024.sarif"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), Victim.class.getName(), link.toString())
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("HALF");
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(Files.readString(link)).isEqualTo("{\"old\": \"complete\"}\n");
        assertThat(Files.isSymbolicLink(link)).isTrue();
    }
}
