package io.github.pgadvisorylint.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Globs}: the java.nio glob meaning, matched without backtracking. */
class GlobsTest {

    private static final List<String> PATHS = List.of(
            "a.sql",
            "db/a.sql",
            "db/V1__x.sql",
            "src/main/A.java",
            "src/gen/deep/B.java",
            "x",
            "dx",
            "d/x",
            "a,b",
            "b",
            "ab/c",
            "src/{weird}.sql",
            "c.jav",
            "c.javb");

    /** Patterns the JDK matches quickly: both matchers must agree on every path. */
    private static final List<String> PATTERNS = List.of(
            "*.sql",
            "**/*.sql",
            "db/*.sql",
            "**",
            "*",
            "src/**",
            "**/B.java",
            "?.sql",
            "db/V?__*.sql",
            "{a,b}",
            "a{,b}/c",
            "{src,db}/**",
            "src/[gm]*/**",
            "[!a]*",
            "c.jav[a-c]",
            "*x",
            "**x",
            "src/\\{weird}.sql",
            "ab/c",
            "a.sql");

    @Test
    void matchesWhatTheJdkGlobMatches() {
        for (String pattern : PATTERNS) {
            if (pattern.contains("\\")) {
                continue; // backslashes are separators here, escapes for the JDK
            }
            Globs ours = Globs.compile(List.of(pattern));
            PathMatcher jdk = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
            PathMatcher jdkNoDir = pattern.startsWith("**/")
                    ? FileSystems.getDefault().getPathMatcher("glob:" + pattern.substring(3))
                    : jdk;
            for (String path : PATHS) {
                Path p = Path.of(path);
                assertThat(ours.matches(p))
                        .as(pattern + " on " + path)
                        .isEqualTo(jdk.matches(p) || jdkNoDir.matches(p));
            }
        }
    }

    @Test
    @Timeout(10)
    void runsOfStarsAreLinear() {
        // the JDK's regex backtracks through every split of the path among the stars: minutes for 15
        Globs many = Globs.compile(List.of("*".repeat(200) + "x", "**/" + "*/".repeat(50) + "*y"));
        String deep = "a/".repeat(500) + "b".repeat(5000);
        assertThat(many.matches(Path.of(deep))).isFalse();
        assertThat(many.matches(Path.of(deep + "x"))).isTrue();
    }

    @Test
    void malformedGlobsSayWhy() {
        assertThatThrownBy(() -> Globs.check("src/{a,b")).hasMessage("'src/{a,b' is not a valid glob: Missing '}");
        assertThatThrownBy(() -> Globs.check("src/[ab")).hasMessage("'src/[ab' is not a valid glob: Missing ']");
        assertThatThrownBy(() -> Globs.check("{a,{b}}")).hasMessageContaining("Cannot nest groups");
        assertThatThrownBy(() -> Globs.check("[a/b]")).hasMessageContaining("name separator");
        assertThatThrownBy(() -> Globs.check(" ")).hasMessage("empty pattern");
    }
}
