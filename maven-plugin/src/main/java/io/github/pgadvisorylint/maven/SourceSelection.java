package io.github.pgadvisorylint.maven;

import io.github.pgadvisorylint.core.config.Globs;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileDiscovery;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Chooses the files a goal analyses: the files the core discovery finds under a module's source
 * roots, kept or dropped by {@code includes}/{@code excludes} globs matched against the path
 * relative to that module's base directory.
 *
 * <p>Glob syntax is that of {@link FileSystem#getPathMatcher(String) java.nio "glob:"}, matched by
 * {@link Globs} in linear time: {@code *} and
 * {@code ?} stay within one directory, {@code **} crosses directories, {@code {a,b}} alternates.
 * As in Ant, a leading {@code **}{@code /} also matches no directory at all, so {@code **}{@code /*.sql}
 * matches {@code V1.sql} as well as {@code src/V1.sql}.
 */
public final class SourceSelection {

    /**
     * One module's part of a scan.
     *
     * @param basedir        the module's base directory; globs are relative to it
     * @param buildDirectory the module's build directory ({@code target}); roots inside it hold
     *                       generated files and are skipped
     * @param roots          compile source roots and resource directories, then the test ones,
     *                         absolute or relative to {@code basedir}, in project order; missing ones
     *                         are ignored
     * @param testRoots        the roots among them that hold test sources (test compile source roots and
     *                         test resource directories), absolute or relative to {@code basedir}
     */
    public record Module(Path basedir, Path buildDirectory, List<Path> roots, List<Path> testRoots) {

        /** Makes the paths absolute and normalized and copies the roots. */
        public Module {
            basedir = basedir.toAbsolutePath().normalize();
            Path base = basedir;
            buildDirectory = base.resolve(buildDirectory).normalize();
            roots = roots.stream().map(r -> base.resolve(r).normalize()).toList();
            testRoots = testRoots.stream().map(r -> base.resolve(r).normalize()).toList();
        }

        /**
         * A module without test roots.
         *
         * @param basedir        the module's base directory
         * @param buildDirectory the module's build directory
         * @param roots          its source roots and resource directories
         */
        public Module(Path basedir, Path buildDirectory, List<Path> roots) {
            this(basedir, buildDirectory, roots, List.of());
        }
    }

    /**
     * What was chosen.
     *
     * @param files         the files to analyse, absolute, sorted, each once
     * @param roots         the source roots walked (existing, outside build directories), in order
     * @param skippedRoots  existing roots left out because they lie in a build directory
     * @param notifications problems the walk met (unreadable folders, symbolic-link loops); paths in
     *                      them are relative to the module's base directory
     */
    public record Result(
            List<Path> files, List<Path> roots, List<Path> skippedRoots, List<Notification> notifications) {

        /** Copies the lists. */
        public Result {
            files = List.copyOf(files);
            roots = List.copyOf(roots);
            skippedRoots = List.copyOf(skippedRoots);
            notifications = List.copyOf(notifications);
        }
    }

    private final Globs includes;
    private final Globs excludes;

    /**
     * @param includes globs of files to analyse; empty means every file the discovery finds
     * @param excludes globs of files not to analyse, applied after the includes
     * @throws IllegalArgumentException for a blank or malformed glob, naming it
     */
    public SourceSelection(Collection<String> includes, Collection<String> excludes) {
        this.includes = matchers(includes, "includes");
        this.excludes = matchers(excludes, "excludes");
    }

    /**
     * Walks the modules' roots with the core discovery (which skips {@code target/}, {@code .git/}
     * and the like below a root) and applies the globs.
     *
     * @param modules the modules, in reactor order
     * @return the chosen files and what the walk met; never throws for I/O problems
     */
    public Result select(List<Module> modules) {
        return select(modules, null);
    }

    /**
     * As {@link #select(List)}, with the notifications' paths relative to a path base.
     *
     * @param modules  the modules, in reactor order
     * @param pathBase the directory the notifications' paths are relative to (it holds every module), or
     *                 null for each module's base directory
     * @return the chosen files and what the walk met; never throws for I/O problems
     */
    public Result select(List<Module> modules, Path pathBase) {
        TreeMap<Path, Boolean> files = new TreeMap<>();
        List<Path> walked = new ArrayList<>();
        List<Path> skipped = new ArrayList<>();
        List<Notification> notes = new ArrayList<>();
        for (Module m : modules) {
            Set<Path> roots = new LinkedHashSet<>();
            for (Path root : m.roots()) {
                if (!Files.isDirectory(root)) {
                    continue;
                }
                if (root.startsWith(m.buildDirectory())) {
                    skipped.add(root);
                } else {
                    roots.add(root);
                }
            }
            if (roots.isEmpty()) {
                continue;
            }
            walked.addAll(roots);
            FileDiscovery.Result found =
                    FileDiscovery.discover(pathBase != null ? pathBase : m.basedir(), List.copyOf(roots));
            notes.addAll(found.notifications());
            Path base = m.basedir().toAbsolutePath().normalize();
            for (DiscoveredFile f : found.files()) {
                // relative as a Path, never rebuilt from the text: a name the locale cannot encode
                // (Jöb.java under LC_ALL=C) would make Path.of throw
                Path abs = f.path().toAbsolutePath().normalize();
                if (accepts(abs.startsWith(base) ? base.relativize(abs) : abs)) {
                    files.put(f.path().toAbsolutePath().normalize(), Boolean.TRUE);
                }
            }
        }
        return new Result(List.copyOf(files.keySet()), walked, skipped, notes);
    }

    /**
     * @param relative a path relative to its module's base directory
     * @return true when an include (or, without includes, any file) matches and no exclude does
     */
    public boolean accepts(Path relative) {
        return (includes.isEmpty() || includes.matches(relative)) && !excludes.matches(relative);
    }

    private static Globs matchers(Collection<String> globs, String parameter) {
        List<String> patterns = globs == null ? List.of() : new ArrayList<>(globs);
        for (String glob : patterns) {
            if (glob == null || glob.isBlank()) {
                throw new IllegalArgumentException(parameter + " holds an empty pattern");
            }
        }
        try {
            return Globs.compile(patterns);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(parameter + " pattern " + e.getMessage(), e);
        }
    }

    /**
     * @param paths some directories
     * @return their deepest common ancestor, or null when they share none (different roots)
     */
    public static Path commonAncestor(Collection<Path> paths) {
        Path common = null;
        for (Path p : paths) {
            Path abs = Objects.requireNonNull(p).toAbsolutePath().normalize();
            if (common == null) {
                common = abs;
                continue;
            }
            while (common != null && !abs.startsWith(common)) {
                common = common.getParent();
            }
            if (common == null) {
                return null;
            }
        }
        return common;
    }
}
