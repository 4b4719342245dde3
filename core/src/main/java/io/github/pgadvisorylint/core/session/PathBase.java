package io.github.pgadvisorylint.core.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The directory every reported path is relative to (SARIF {@code %SRCROOT%}): the one the user chose,
 * else the git root above the scanned directory, else a fallback the front end knows (the Maven
 * reactor root), else the scanned directory itself. Repository-relative paths let GitHub code scanning
 * place alerts, and let a baseline written from one directory match a scan from another.
 */
public final class PathBase {

    /** The name whose presence marks a git working tree's root: a directory, or a file in a linked worktree. */
    public static final String GIT_MARKER = ".git";

    private PathBase() {}

    /**
     * How the base was chosen.
     *
     * @param directory the base, absolute and normalized
     * @param origin    why this directory
     */
    public record Choice(Path directory, Origin origin) {}

    /** Where a base comes from, in the order they are tried. */
    public enum Origin {
        /** Given by the user ({@code --path-base}, {@code pathBase}). */
        EXPLICIT,
        /** The nearest directory at or above the scanned one holding {@code .git}. */
        GIT_ROOT,
        /** The front end's fallback, e.g. the Maven reactor's root directory. */
        FALLBACK,
        /** The scanned directory itself. */
        SCAN_ROOT
    }

    /**
     * @param explicit the base the user gave, or null
     * @param scanRoot the scanned directory
     * @param fallback the front end's fallback (a Maven reactor root), or null; used only when it holds
     *                 the scanned directory
     * @return the chosen base
     * @throws ScanException ({@link ScanException.Problem#BAD_PATH_BASE}) when {@code explicit} is not a
     *                       directory or does not hold the scanned directory
     */
    public static Choice choose(Path explicit, Path scanRoot, Path fallback) {
        Path root = scanRoot.toAbsolutePath().normalize();
        if (explicit != null) {
            Path base = explicit.toAbsolutePath().normalize();
            if (!Files.isDirectory(base)) {
                throw new ScanException(
                        ScanException.Problem.BAD_PATH_BASE, base, "path base " + base + " is not a directory", null);
            }
            Path real = realPath(base);
            if (!root.startsWith(base) && !realPath(root).startsWith(real)) {
                throw new ScanException(
                        ScanException.Problem.BAD_PATH_BASE,
                        base,
                        "path base " + base + " does not contain the scanned directory " + root,
                        null);
            }
            return new Choice(root.startsWith(base) ? base : real, Origin.EXPLICIT);
        }
        Optional<Path> git = gitRoot(root);
        if (git.isPresent()) {
            return new Choice(git.get(), Origin.GIT_ROOT);
        }
        if (fallback != null) {
            Path f = fallback.toAbsolutePath().normalize();
            if (root.startsWith(f)) {
                return new Choice(f, Origin.FALLBACK);
            }
        }
        return new Choice(root, Origin.SCAN_ROOT);
    }

    /**
     * Finds the git root by looking at the file system only (git is never run): the nearest directory at
     * or above {@code dir} that holds an entry named {@code .git}, a directory or (worktrees, submodules)
     * a file.
     *
     * @param dir a directory
     * @return the git root, absolute and normalized, or empty outside a git working tree
     */
    public static Optional<Path> gitRoot(Path dir) {
        for (Path d = dir.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
            if (Files.exists(d.resolve(GIT_MARKER), LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }
}
