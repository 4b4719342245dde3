package io.github.pgadvisorylint.core.config;

import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * File globs as the configuration file and the Maven plugin write them, compiled with
 * {@link FileSystem#getPathMatcher(String) java.nio "glob:"}: {@code *} and {@code ?} within one
 * directory, {@code **} across directories, {@code {a,b}} alternatives, {@code [abc]} classes. Two
 * Ant conventions on top: a leading {@code **}{@code /} also matches no directory at all, and a
 * pattern ending in {@code /} means everything below that directory. Backslashes are read as
 * {@code /}. Patterns are matched against relative paths.
 */
public final class Globs {

    private final List<PathMatcher> matchers;

    private Globs(List<PathMatcher> matchers) {
        this.matchers = matchers;
    }

    /**
     * @param patterns the globs
     * @return the compiled globs; empty for no patterns
     * @throws IllegalArgumentException for a blank or malformed glob, with the pattern and the reason
     */
    public static Globs compile(Collection<String> patterns) {
        FileSystem fs = FileSystems.getDefault();
        List<PathMatcher> out = new ArrayList<>();
        for (String glob : patterns) {
            out.addAll(compileOne(fs, glob));
        }
        return new Globs(List.copyOf(out));
    }

    /**
     * @param glob one glob
     * @throws IllegalArgumentException when it is blank or malformed, saying why
     */
    public static void check(String glob) {
        compileOne(FileSystems.getDefault(), glob);
    }

    private static List<PathMatcher> compileOne(FileSystem fs, String glob) {
        if (glob == null || glob.isBlank()) {
            throw new IllegalArgumentException("empty pattern");
        }
        String g = glob.trim().replace('\\', '/');
        if (g.endsWith("/")) {
            g = g + "**";
        }
        try {
            List<PathMatcher> out = new ArrayList<>();
            out.add(fs.getPathMatcher("glob:" + g));
            if (g.startsWith("**/")) {
                out.add(fs.getPathMatcher("glob:" + g.substring(3)));
            }
            return out;
        } catch (IllegalArgumentException e) {
            String reason = e instanceof java.util.regex.PatternSyntaxException pse ? pse.getDescription() : e.getMessage();
            throw new IllegalArgumentException("'" + glob + "' is not a valid glob: " + reason, e);
        }
    }

    /** @return true when there is no pattern */
    public boolean isEmpty() {
        return matchers.isEmpty();
    }

    /**
     * @param relative a relative path
     * @return true when some pattern matches it
     */
    public boolean matches(Path relative) {
        for (PathMatcher m : matchers) {
            if (m.matches(relative)) {
                return true;
            }
        }
        return false;
    }
}
