package io.github.pgadvisorylint.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceSelectionTest {

    @TempDir
    Path dir;

    private Path touch(String relative) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "-- pg_advisory_lock\n");
        return p;
    }

    private List<String> chosen(SourceSelection s, SourceSelection.Module... modules) {
        return s.select(List.of(modules)).files().stream()
                .map(p -> dir.relativize(p).toString().replace('\\', '/'))
                .toList();
    }

    private SourceSelection.Module module(String base, String... roots) {
        return new SourceSelection.Module(
                dir.resolve(base),
                Path.of("target"),
                List.of(roots).stream().map(Path::of).toList());
    }

    @Test
    void walksExistingRootsOnceAndSkipsGeneratedSources() throws IOException {
        touch("src/main/java/a/Job.java");
        touch("src/main/resources/db/migration/V1__init.sql");
        touch("src/main/resources/application.yml");
        touch("src/main/resources/notes.txt");
        touch("target/generated-sources/annotations/a/Gen.java");
        SourceSelection.Module m = module(
                ".",
                "src/main/java",
                "src/main/resources",
                "src/main/resources",
                "target/generated-sources/annotations",
                "src/missing");
        SourceSelection.Result r = new SourceSelection(List.of(), List.of()).select(List.of(m));
        assertThat(chosen(new SourceSelection(List.of(), List.of()), m))
                .containsExactly(
                        "src/main/java/a/Job.java",
                        "src/main/resources/application.yml",
                        "src/main/resources/db/migration/V1__init.sql");
        assertThat(r.roots()).containsExactly(dir.resolve("src/main/java"), dir.resolve("src/main/resources"));
        assertThat(r.skippedRoots()).containsExactly(dir.resolve("target/generated-sources/annotations"));
    }

    @Test
    void includesAndExcludesAreGlobsRelativeToEachModule() throws IOException {
        touch("svc/src/main/java/a/Job.java");
        touch("svc/src/main/resources/db/migration/V1__init.sql");
        touch("svc/src/main/resources/db/legacy/old.sql");
        touch("lib/src/main/resources/db/migration/V9__lib.sql");
        SourceSelection s = new SourceSelection(List.of("**/*.sql"), List.of("src/main/resources/db/legacy/"));
        assertThat(chosen(s, module("svc", "src/main/java", "src/main/resources"), module("lib", "src/main/resources")))
                .containsExactly(
                        "lib/src/main/resources/db/migration/V9__lib.sql",
                        "svc/src/main/resources/db/migration/V1__init.sql");
    }

    @Test
    void aLeadingDoubleStarAlsoMatchesNoDirectoryAsInAnt() {
        SourceSelection s = new SourceSelection(List.of("**/*.sql"), List.of("**/Gen*.java"));
        assertThat(s.accepts(Path.of("V1.sql"))).isTrue();
        assertThat(s.accepts(Path.of("a/b/V1.sql"))).isTrue();
        assertThat(s.accepts(Path.of("a/Job.java"))).isFalse();
        SourceSelection excludesOnly = new SourceSelection(List.of(), List.of("**/Gen*.java"));
        assertThat(excludesOnly.accepts(Path.of("Generated.java"))).isFalse();
        assertThat(excludesOnly.accepts(Path.of("a/GenX.java"))).isFalse();
        assertThat(excludesOnly.accepts(Path.of("a/Job.java"))).isTrue();
    }

    @Test
    void rejectsBlankAndMalformedPatternsNamingTheParameter() {
        assertThatThrownBy(() -> new SourceSelection(List.of(" "), List.of()))
                .hasMessage("includes holds an empty pattern");
        assertThatThrownBy(() -> new SourceSelection(List.of(), List.of("src/{a,b")))
                .hasMessageStartingWith("excludes pattern 'src/{a,b' is not a valid glob");
    }

    @Test
    void commonAncestorOfModuleDirectories() {
        assertThat(SourceSelection.commonAncestor(List.of(dir.resolve("a/b"), dir.resolve("a/c/d"), dir.resolve("a"))))
                .isEqualTo(dir.resolve("a"));
        assertThat(SourceSelection.commonAncestor(List.of(dir.resolve("x"), dir.resolve("y"))))
                .isEqualTo(dir);
    }
}
