package io.github.pgadvisorylint.core.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiscoveryTest {

    @Test
    void walksOnceSkipsBuildOutputAndReportsLoops(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("src/a"));
        Files.createDirectories(root.resolve("target/classes"));
        Files.writeString(root.resolve("src/a/Job.java"), "class Job {}");
        Files.writeString(root.resolve("src/a/V1__init.sql"), "select 1;");
        Files.writeString(root.resolve("src/a/application.yml"), "a: 1");
        Files.writeString(root.resolve("src/a/notes.txt"), "ignored");
        Files.writeString(root.resolve("target/classes/Gen.java"), "class Gen {}");
        Files.createSymbolicLink(root.resolve("src/a/loop"), root.resolve("src"));
        FileDiscovery.Result r = FileDiscovery.discover(root, List.of(root));
        assertThat(r.files())
                .extracting(DiscoveredFile::relativePath)
                .containsExactly("src/a/Job.java", "src/a/V1__init.sql", "src/a/application.yml");
        assertThat(r.notifications()).extracting(n -> n.kind()).contains("symlink-loop");
    }

    @Test
    void missingTargetIsANotification(@TempDir Path root) {
        FileDiscovery.Result r = FileDiscovery.discover(root, List.of(root.resolve("nope")));
        assertThat(r.files()).isEmpty();
        assertThat(r.notifications())
                .singleElement()
                .satisfies(n -> assertThat(n.message()).contains("nope"));
    }

    @Test
    void prefilterFindsAdvisoryInAnyCase() {
        assertThat(Prefilter.mentionsAdvisory("select PG_ADVISORY_LOCK(1)".getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        assertThat(Prefilter.mentionsAdvisory("select pg_try_Advisory_lock".getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        assertThat(Prefilter.mentionsAdvisory("advisor".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(Prefilter.mentionsAdvisory(new byte[0])).isFalse();
    }
}
