package io.github.pgadvisorylint.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
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

    /**
     * Found by the fuzzing harness (issue 27): a Java string may hold half a surrogate pair
     * ({@code "\\uD800"} is decoded before parsing, as javac does), and a finding quoting it made every
     * report fail to write ({@code MalformedInputException}: "cannot write report.sarif", exit 2). Text
     * UTF-8 cannot encode is written as U+FFFD, the replacement character.
     */
    @Test
    void halfASurrogatePairIsWrittenAsTheReplacementCharacter() throws IOException {
        Path target = dir.resolve("report.json");
        AtomicFiles.write(target, w -> w.write("a\uD800b\uDC00c\uD83D\uDE00"));
        assertThat(Files.readString(target)).isEqualTo("a\uFFFDb\uFFFDc\uD83D\uDE00");
        Path stream = Path.of("/dev/null");
        Assumptions.assumeTrue(Files.exists(stream) && Files.isWritable(stream));
        assertThat(AtomicFiles.write(stream, w -> w.write("\uDBFF"))).isEqualTo(AtomicFiles.Outcome.STREAMED);
    }

    @Test
    void aFailedWriteKeepsTheOldFileAndLeavesNoTemporaryFile() throws IOException {
        Path target = dir.resolve("report.sarif");
        Files.writeString(target, "old");
        assertThatThrownBy(() -> AtomicFiles.write(target, w -> {
                    w.write("half a rep");
                    throw new IOException("disk full");
                }))
                .hasMessage("disk full");
        assertThat(Files.readString(target)).isEqualTo("old");
        assertThat(names()).containsExactly("report.sarif");
    }

    @Test
    void aLinkLeadingOutOfTheDirectoryIsReplacedAndItsTargetLeftAlone(@TempDir Path outside) throws IOException {
        Path victim = Files.writeString(outside.resolve("victim"), "keep");
        Path link = Files.createSymbolicLink(dir.resolve("report.sarif"), victim);
        assertThat(AtomicFiles.write(link, w -> w.write("new"))).isEqualTo(AtomicFiles.Outcome.REPLACED_LINK);
        assertThat(Files.readString(victim)).isEqualTo("keep");
        assertThat(Files.isSymbolicLink(link)).isFalse();
        assertThat(Files.readString(link)).isEqualTo("new");
        // a dangling link would have created a file outside: it is replaced just the same
        Path dangling = Files.createSymbolicLink(dir.resolve("report.json"), outside.resolve("new-file"));
        assertThat(AtomicFiles.write(dangling, w -> w.write("json"))).isEqualTo(AtomicFiles.Outcome.REPLACED_LINK);
        assertThat(outside.resolve("new-file")).doesNotExist();
        assertThat(Files.readString(dangling)).isEqualTo("json");
    }

    @Test
    void aLinkInsideTheDirectoryKeepsPointingAtTheReplacedFile() throws IOException {
        Path real = Files.writeString(dir.resolve("2024.txt"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("latest.txt"), Path.of("2024.txt"));
        assertThat(AtomicFiles.write(link, w -> w.write("new"))).isEqualTo(AtomicFiles.Outcome.REPLACED_LINK_TARGET);
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(real)).isEqualTo("new");
        assertThat(names()).containsExactly("2024.txt", "latest.txt");
    }

    @Test
    void aCharacterDeviceIsWrittenThrough() throws IOException {
        Path devNull = Path.of("/dev/null");
        Assumptions.assumeTrue(Files.exists(devNull), "no /dev/null on this system");
        assertThat(AtomicFiles.write(devNull, w -> w.write("gone"))).isEqualTo(AtomicFiles.Outcome.STREAMED);
        assertThat(Files.exists(devNull)).isTrue();
    }

    @Test
    void confineReplacesFolderLinksThatLeadOutOfTheRootAndKeepsThoseThatStayIn(@TempDir Path outside)
            throws IOException {
        // issue 27: a committed link at target/pg-advisory-lint made the Maven plugin write its cache outside
        Path target = Files.createDirectories(dir.resolve("target"));
        Files.createSymbolicLink(target.resolve("pg-advisory-lint"), outside);
        Path cache = target.resolve("pg-advisory-lint/cache.json");
        assertThat(AtomicFiles.confine(cache, target)).containsExactly(target.resolve("pg-advisory-lint"));
        assertThat(Files.isSymbolicLink(target.resolve("pg-advisory-lint"))).isFalse();
        assertThat(target.resolve("pg-advisory-lint")).isEmptyDirectory();
        AtomicFiles.write(cache, w -> w.write("{}"));
        assertThat(outside).isEmptyDirectory();

        // a link that stays inside the root is kept, and so is one the file's path does not go through
        Files.createDirectories(target.resolve("real"));
        Files.createSymbolicLink(target.resolve("inside"), Path.of("real"));
        Files.createSymbolicLink(target.resolve("elsewhere"), outside);
        assertThat(AtomicFiles.confine(target.resolve("inside/r.sarif"), target))
                .isEmpty();
        assertThat(Files.isSymbolicLink(target.resolve("inside"))).isTrue();
        assertThat(Files.isSymbolicLink(target.resolve("elsewhere"))).isTrue();

        // a dangling link leading out, a chain of links, and the file itself as a link leading out
        Files.createSymbolicLink(target.resolve("dangling"), outside.resolve("missing"));
        Files.createSymbolicLink(target.resolve("hop"), Path.of("elsewhere"));
        Files.createDirectories(target.resolve("real/sub"));
        Files.createSymbolicLink(target.resolve("real/sub/r.json"), outside.resolve("planted.json"));
        assertThat(AtomicFiles.confine(target.resolve("dangling/a/b.json"), target))
                .containsExactly(target.resolve("dangling"));
        assertThat(AtomicFiles.confine(target.resolve("hop/x.json"), target)).containsExactly(target.resolve("hop"));
        assertThat(AtomicFiles.confine(target.resolve("inside/sub/r.json"), target))
                .containsExactly(target.resolve("inside/sub/r.json"));
        assertThat(target.resolve("real/sub/r.json")).doesNotExist();
        assertThat(outside).isEmptyDirectory();
        assertThat(Files.isSymbolicLink(target.resolve("elsewhere"))).isTrue();

        // outside the root, or without one, nothing is done: the user chose that place
        Files.createSymbolicLink(dir.resolve("out"), outside);
        assertThat(AtomicFiles.confine(dir.resolve("out/r.sarif"), target)).isEmpty();
        assertThat(AtomicFiles.confine(target.resolve("elsewhere/r.sarif"), null))
                .isEmpty();
        assertThat(Files.isSymbolicLink(dir.resolve("out"))).isTrue();
    }

    @Test
    void confineJudgesTheRootByWhereItReallyIs(@TempDir Path build) throws IOException {
        // target itself a link (to a RAM disk, say): folders below it that stay there are inside
        Path target = Files.createSymbolicLink(dir.resolve("target"), build);
        Files.createDirectories(build.resolve("real"));
        Files.createSymbolicLink(build.resolve("pg-advisory-lint"), build.resolve("real"));
        assertThat(AtomicFiles.confine(target.resolve("pg-advisory-lint/cache.json"), target))
                .isEmpty();
        assertThat(Files.isSymbolicLink(build.resolve("pg-advisory-lint"))).isTrue();
    }
}
