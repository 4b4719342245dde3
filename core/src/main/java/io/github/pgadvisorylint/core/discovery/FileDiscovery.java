package io.github.pgadvisorylint.core.discovery;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.io.BoundedReads;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Walks the scan targets once and lists the files the analyzer reads (DESIGN.md "Data flow", step
 * 1). Skips {@code target/}, {@code build/}, {@code node_modules/} and version-control folders;
 * follows symbolic links only while they stay inside the scan root, and reports loops instead of
 * following them. A named pipe, socket or device (or a link to one) named like a file it lists is
 * reported ({@code special-file}) and never listed, so nothing opens it. Never throws for I/O problems: a directory that cannot be listed (no permission,
 * a {@code /proc} mount whose entries vanish or refuse) becomes a notification located at that
 * directory, and the walk goes on with its siblings.
 * <p>
 * Paths stay {@link Path} objects until the relative path is rendered: names are joined with
 * {@code /} exactly as the file system returned them (a {@code \} inside a Linux file name is part
 * of the name, never a separator), and a name the platform's locale cannot decode (a UTF-8 name
 * under {@code LC_ALL=C}) is decoded from its bytes as UTF-8, so the result never depends on the
 * locale.
 */
public final class FileDiscovery {

    /** Folder names never descended into. */
    public static final Set<String> DEFAULT_EXCLUDED_DIRECTORIES =
            Set.of("target", "build", "node_modules", ".git", ".hg", ".svn", ".gradle", ".idea");

    /**
     * Test seam: absolute normalized directories whose listing fails as an unreadable directory's
     * would, even for root (permission bits do not stop root). Empty in production.
     */
    private static final Set<Path> SIMULATED_UNREADABLE = ConcurrentHashMap.newKeySet();

    /**
     * What the walk found.
     *
     * @param files         files sorted by relative path, each listed once
     * @param notifications problems met (unreadable folders, loops, links leaving the root, missing targets)
     * @param otherLanguage files in a language the tool does not read ({@link OtherLanguage}), absolute
     *                      and normalized, sorted; counted in the reports, never analysed
     */
    public record Result(List<DiscoveredFile> files, List<Notification> notifications, List<Path> otherLanguage) {

        /** Copies the lists. */
        public Result {
            files = List.copyOf(files);
            notifications = List.copyOf(notifications);
            otherLanguage = List.copyOf(otherLanguage);
        }

        /**
         * A result without files in other languages.
         *
         * @param files         files sorted by relative path
         * @param notifications problems met
         */
        public Result(List<DiscoveredFile> files, List<Notification> notifications) {
            this(files, notifications, List.of());
        }
    }

    private FileDiscovery() {}

    /**
     * Test seam: until the returned handle is closed, listing {@code directory} fails with an
     * {@link AccessDeniedException} in the middle of the iteration, as a {@code /proc} mount or an
     * unreadable directory does for an ordinary user. Lets tests that run as root check that one
     * such directory is reported and the walk goes on.
     *
     * @param directory the directory to make unreadable
     * @return a handle whose {@code close()} makes it readable again
     */
    public static AutoCloseable simulateUnreadableDirectory(Path directory) {
        Path key = directory.toAbsolutePath().normalize();
        SIMULATED_UNREADABLE.add(key);
        return () -> SIMULATED_UNREADABLE.remove(key);
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
        Walk walk = new Walk(absRoot, realRoot);
        for (Path target : targets) {
            Path abs = target.toAbsolutePath().normalize();
            if (!Files.exists(abs)) {
                walk.note(Severity.ERROR, "missing-path", "no such file or directory: " + relative(absRoot, abs), abs);
                continue;
            }
            walk.walk(abs);
        }
        List<Notification> notes = new ArrayList<>(walk.notes);
        notes.sort(Comparator.naturalOrder());
        return new Result(List.copyOf(walk.byRelative.values()), List.copyOf(notes), List.copyOf(walk.others));
    }

    /** One discovery: the files found so far, by relative path and by absolute path. */
    private static final class Walk {
        private final Path absRoot;
        private final Path realRoot;
        private final TreeMap<String, DiscoveredFile> byRelative = new TreeMap<>();
        private final Set<Path> seen = new HashSet<>();
        private final List<Notification> notes = new ArrayList<>();
        private final TreeSet<Path> others = new TreeSet<>();

        Walk(Path absRoot, Path realRoot) {
            this.absRoot = absRoot;
            this.realRoot = realRoot;
        }

        void note(Severity level, String kind, String message, Path where) {
            notes.add(new Notification(level, kind, message, SourceRegion.line(relative(absRoot, where), 1)));
        }

        /** A directory on the stack, with the file keys of the directories above it (loop detection). */
        private record Dir(Path path, List<Object> ancestors) {}

        /** Walks one target without recursion: a deep tree cannot overflow the stack. */
        void walk(Path start) {
            BasicFileAttributes attrs;
            try {
                attrs = Files.readAttributes(start, BasicFileAttributes.class);
            } catch (IOException e) {
                unreadable(start, e);
                return;
            }
            if (!attrs.isDirectory()) {
                if (attrs.isRegularFile()) {
                    addFile(start, attrs);
                    addOther(start);
                } else if (FileKind.of(displayName(start.getFileName())) != null) {
                    special(start);
                }
                return;
            }
            Deque<Dir> stack = new ArrayDeque<>();
            stack.push(new Dir(start, List.of(key(start, attrs))));
            while (!stack.isEmpty()) {
                Dir dir = stack.pop();
                List<Path> children = list(dir.path());
                List<Dir> below = new ArrayList<>();
                for (Path child : children) {
                    Dir sub = visit(child, dir);
                    if (sub != null) {
                        below.add(sub);
                    }
                }
                Collections.reverse(below);
                below.forEach(stack::push);
            }
        }

        /** @return the entries of a directory sorted by name; what could be listed when the listing fails */
        private List<Path> list(Path dir) {
            List<Path> children = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                if (SIMULATED_UNREADABLE.contains(dir.toAbsolutePath().normalize())) {
                    throw new DirectoryIteratorException(new AccessDeniedException(dir.toString()));
                }
                for (Path p : entries) {
                    children.add(p);
                }
            } catch (IOException e) {
                unreadableDirectory(dir, e);
            } catch (DirectoryIteratorException e) {
                unreadableDirectory(dir, e.getCause());
            }
            children.sort(Comparator.naturalOrder());
            return children;
        }

        /** @return the directory to descend into, or null when {@code p} is a file or is skipped */
        private Dir visit(Path p, Dir parent) {
            boolean link = Files.isSymbolicLink(p);
            BasicFileAttributes attrs;
            try {
                attrs = Files.readAttributes(p, BasicFileAttributes.class);
            } catch (IOException e) {
                if (link && !isLoop(e) && FileKind.of(displayName(p.getFileName())) == null) {
                    // a dangling or forbidden link (/proc/*/fd/*) whose name is no file the analyzer
                    // reads: nothing is lost by passing it over in silence
                    return null;
                }
                unreadable(p, e);
                return null;
            }
            if (attrs.isDirectory()) {
                if (DEFAULT_EXCLUDED_DIRECTORIES.contains(displayName(p.getFileName()))) {
                    return null;
                }
                if (link && !staysInside(p, realRoot)) {
                    note(
                            Severity.NOTE,
                            "link-outside-root",
                            "symbolic link leads outside the scan root; not followed",
                            p);
                    return null;
                }
                Object key = key(p, attrs);
                if (parent.ancestors().contains(key)) {
                    note(Severity.WARNING, "symlink-loop", "symbolic link loop; not followed again", p);
                    return null;
                }
                List<Object> ancestors = new ArrayList<>(parent.ancestors());
                ancestors.add(key);
                return new Dir(p, List.copyOf(ancestors));
            }
            if (!attrs.isRegularFile() && FileKind.of(displayName(p.getFileName())) != null) {
                special(p);
                return null;
            }
            if (attrs.isRegularFile() && FileKind.of(displayName(p.getFileName())) != null) {
                if (link && !staysInside(p, realRoot)) {
                    note(
                            Severity.NOTE,
                            "link-outside-root",
                            "symbolic link leads outside the scan root; not followed",
                            p);
                    return null;
                }
                addFile(p, attrs);
            } else if (attrs.isRegularFile() && (!link || staysInside(p, realRoot))) {
                addOther(p);
            }
            return null;
        }

        /** Counts a file in a language the tool does not read (Kotlin, Scala, Groovy); ignores any other. */
        private void addOther(Path file) {
            if (OtherLanguage.of(displayName(file.getFileName())) != null) {
                others.add(file.toAbsolutePath().normalize());
            }
        }

        private void addFile(Path file, BasicFileAttributes attrs) {
            FileKind kind = FileKind.of(displayName(file.getFileName()));
            Path abs = file.toAbsolutePath().normalize();
            if (kind == null || !seen.add(abs)) {
                return; // not a file the analyzer reads, or listed by another target already
            }
            String rel = relative(absRoot, abs);
            DiscoveredFile earlier = byRelative.get(rel);
            if (earlier != null) {
                // only names that are not valid UTF-8 decode to the same text: say so rather than drop one
                note(
                        Severity.WARNING,
                        "ambiguous-path",
                        "file name is not valid UTF-8 and reads the same as "
                                + "another file's once decoded; not analysed",
                        abs);
                return;
            }
            byRelative.put(rel, new DiscoveredFile(file, rel, kind, attrs.size()));
        }

        /**
         * A named pipe, socket or device (or a link to one) named like a file the analyzer reads: said,
         * never opened (opening a pipe blocks until a writer comes; a device may never end).
         */
        private void special(Path p) {
            String what;
            try {
                what = BoundedReads.specialKind(p);
            } catch (IOException e) {
                what = null;
            }
            note(
                    Severity.WARNING,
                    "special-file",
                    (what == null ? "a special file" : what) + ", not a regular file; not read",
                    p);
        }

        private void unreadable(Path p, IOException e) {
            note(
                    Severity.WARNING,
                    isLoop(e) ? "symlink-loop" : "unreadable-path",
                    isLoop(e) ? "symbolic link loop; not followed again" : "cannot read: " + describe(e),
                    p);
        }

        private void unreadableDirectory(Path dir, IOException e) {
            note(
                    Severity.WARNING,
                    "unreadable-path",
                    "cannot list this directory (" + describe(e)
                            + "); the files below it are not analysed, the rest of the scan goes on",
                    dir);
        }

        /** @return the exception's type and the part of its message that is not the absolute path */
        private String describe(IOException e) {
            String type = e.getClass().getSimpleName();
            if (e instanceof FileSystemException fse) {
                return fse.getReason() == null ? type : type + ": " + fse.getReason();
            }
            return e.getMessage() == null ? type : type + ": " + e.getMessage();
        }
    }

    private static boolean isLoop(IOException e) {
        return e instanceof FileSystemLoopException
                || (e instanceof FileSystemException fse
                        && fse.getReason() != null
                        && fse.getReason().contains("symbolic links"));
    }

    /** @return what identifies a directory on disk (inode), or its real path where the file system has no key */
    private static Object key(Path dir, BasicFileAttributes attrs) {
        if (attrs.fileKey() != null) {
            return attrs.fileKey();
        }
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            return dir.toAbsolutePath().normalize();
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
     * @return {@code p} relative to the root, its names joined with {@code /} as they are (a
     *     {@code \} in a name stays); {@code ../}-prefixed when outside the root on the same file
     *     system root, absolute only when no relative path exists (another drive); {@code .} for the root
     */
    public static String relative(Path root, Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path rel;
        if (abs.startsWith(root)) {
            rel = root.relativize(abs);
        } else {
            try {
                rel = root.relativize(abs);
            } catch (IllegalArgumentException e) {
                rel = null;
            }
        }
        if (rel == null) {
            StringBuilder sb = new StringBuilder();
            if (abs.getRoot() != null) {
                sb.append(abs.getRoot().toString().replace(abs.getFileSystem().getSeparator(), "/"));
            }
            return join(sb, abs);
        }
        String s = join(new StringBuilder(), rel);
        return s.isEmpty() ? "." : s;
    }

    private static String join(StringBuilder sb, Path names) {
        int start = sb.length();
        for (Path name : names) {
            if (sb.length() > start) {
                sb.append('/');
            }
            sb.append(displayName(name));
        }
        return sb.toString();
    }

    /** Cache of decoded names: a scan meets the same directory names over and over. */
    private static final Map<Path, String> DECODED = Collections.synchronizedMap(new HashMap<>());

    /**
     * @param name one name element of a path (a file or directory name)
     * @return the name as text: as the platform decoded it when that was lossless; otherwise (a name
     *     whose bytes the locale's charset cannot decode, e.g. UTF-8 under {@code LC_ALL=C}) its bytes
     *     decoded as UTF-8 (invalid sequences become U+FFFD)
     */
    public static String displayName(Path name) {
        if (name == null) {
            return "";
        }
        String s = name.toString();
        if (s.indexOf('\uFFFD') < 0) {
            return s;
        }
        String cached = DECODED.get(name);
        if (cached != null) {
            return cached;
        }
        String decoded = decodeFromUri(name, s);
        if (DECODED.size() < 10_000) {
            DECODED.put(name, decoded);
        }
        return decoded;
    }

    /** Decodes a name's raw bytes, which {@link Path#toUri()} percent-encodes without the locale's charset. */
    private static String decodeFromUri(Path name, String fallback) {
        URI uri;
        try {
            uri = name.toAbsolutePath().toUri();
        } catch (RuntimeException e) {
            return fallback;
        }
        String raw = uri.getRawPath();
        if (raw == null) {
            return fallback;
        }
        if (raw.endsWith("/")) {
            raw = raw.substring(0, raw.length() - 1);
        }
        String last = raw.substring(raw.lastIndexOf('/') + 1);
        ByteBuffer bytes = ByteBuffer.allocate(last.length());
        for (int i = 0; i < last.length(); i++) {
            char c = last.charAt(i);
            if (c == '%' && i + 2 < last.length()) {
                bytes.put((byte) Integer.parseInt(last.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.put((byte) c);
            }
        }
        bytes.flip();
        return StandardCharsets.UTF_8.decode(bytes).toString();
    }
}
