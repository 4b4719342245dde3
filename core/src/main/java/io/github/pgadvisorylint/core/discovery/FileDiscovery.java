package io.github.pgadvisorylint.core.discovery;

import io.github.pgadvisorylint.core.analysis.Notification;
import io.github.pgadvisorylint.core.model.SourceRegion;
import io.github.pgadvisorylint.core.rule.Severity;
import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * Walks the scan targets once and lists the files the analyzer reads (DESIGN.md "Data flow", step
 * 1). Skips {@code target/}, {@code build/}, {@code node_modules/} and version-control folders;
 * follows symbolic links only while they stay inside the scan root, and reports loops instead of
 * following them. Never throws for I/O problems: they become notifications.
 */
public final class FileDiscovery {

    /** Folder names never descended into. */
    public static final Set<String> DEFAULT_EXCLUDED_DIRECTORIES =
            Set.of("target", "build", "node_modules", ".git", ".hg", ".svn", ".gradle", ".idea");

    /**
     * What the walk found.
     *
     * @param files         files sorted by relative path, each listed once
     * @param notifications problems met (unreadable folders, loops, links leaving the root, missing targets)
     */
    public record Result(List<DiscoveredFile> files, List<Notification> notifications) {
    }

    private FileDiscovery() {
    }

    /**
     * @param root    the scan root (reported paths are relative to it)
     * @param targets files or directories to walk
     * @return the files found and the problems met
     */
    public static Result discover(Path root, List<Path> targets) {
        Path absRoot = root.toAbsolutePath().normalize();
        Path realRoot;
        try {
            realRoot = absRoot.toRealPath();
        } catch (IOException e) {
            realRoot = absRoot;
        }
        TreeMap<String, DiscoveredFile> files = new TreeMap<>();
        List<Notification> notes = new ArrayList<>();
        for (Path target : targets) {
            Path abs = target.toAbsolutePath().normalize();
            if (!Files.exists(abs)) {
                notes.add(new Notification(Severity.ERROR, "missing-path", "no such file or directory: " + target,
                        SourceRegion.line(relative(absRoot, abs), 1)));
                continue;
            }
            walk(absRoot, realRoot, abs, files, notes);
        }
        notes.sort(Comparator.naturalOrder());
        return new Result(List.copyOf(files.values()), List.copyOf(notes));
    }

    private static void walk(Path absRoot, Path realRoot, Path start, TreeMap<String, DiscoveredFile> files,
                             List<Notification> notes) {
        try {
            Files.walkFileTree(start, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                            if (!dir.equals(start) && DEFAULT_EXCLUDED_DIRECTORIES.contains(String.valueOf(dir.getFileName()))) {
                                return FileVisitResult.SKIP_SUBTREE;
                            }
                            if (Files.isSymbolicLink(dir) && !staysInside(dir, realRoot)) {
                                notes.add(new Notification(Severity.NOTE, "link-outside-root",
                                        "symbolic link leads outside the scan root; not followed",
                                        SourceRegion.line(relative(absRoot, dir), 1)));
                                return FileVisitResult.SKIP_SUBTREE;
                            }
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                            if (!attrs.isRegularFile()) {
                                return FileVisitResult.CONTINUE;
                            }
                            FileKind kind = FileKind.of(String.valueOf(file.getFileName()));
                            if (kind == null) {
                                return FileVisitResult.CONTINUE;
                            }
                            if (Files.isSymbolicLink(file) && !staysInside(file, realRoot)) {
                                notes.add(new Notification(Severity.NOTE, "link-outside-root",
                                        "symbolic link leads outside the scan root; not followed",
                                        SourceRegion.line(relative(absRoot, file), 1)));
                                return FileVisitResult.CONTINUE;
                            }
                            String rel = relative(absRoot, file);
                            files.putIfAbsent(rel, new DiscoveredFile(file, rel, kind, attrs.size()));
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException exc) {
                            String what = exc instanceof FileSystemLoopException
                                    ? "symbolic link loop; not followed again"
                                    : "cannot read: " + exc.getClass().getSimpleName()
                                            + (exc.getMessage() == null ? "" : " (" + exc.getMessage() + ")");
                            notes.add(new Notification(Severity.WARNING,
                                    exc instanceof FileSystemLoopException ? "symlink-loop" : "unreadable-path",
                                    what, SourceRegion.line(relative(absRoot, file), 1)));
                            return FileVisitResult.CONTINUE;
                        }
                    });
        } catch (IOException e) {
            notes.add(new Notification(Severity.WARNING, "unreadable-path", "cannot walk: " + e.getMessage(),
                    SourceRegion.line(relative(absRoot, start), 1)));
        }
    }

    private static boolean staysInside(Path p, Path realRoot) {
        try {
            return p.toRealPath().startsWith(realRoot);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * @param root an absolute, normalized root
     * @param p    a path
     * @return {@code p} relative to the root with {@code /} separators; the path itself when outside the root
     */
    public static String relative(Path root, Path p) {
        Path abs = p.toAbsolutePath().normalize();
        String s = abs.startsWith(root) ? root.relativize(abs).toString() : abs.toString();
        s = s.replace('\\', '/');
        return s.isEmpty() ? "." : s;
    }
}
