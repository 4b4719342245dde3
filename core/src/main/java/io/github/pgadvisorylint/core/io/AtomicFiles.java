package io.github.pgadvisorylint.core.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Writes report files so that readers see either the old content or the complete new content; used
 * by the CLI and the Maven plugin.
 */
public final class AtomicFiles {

    /** Writes content to a writer. */
    @FunctionalInterface
    public interface Content {
        /**
         * @param out UTF-8 writer on the temporary file
         * @throws IOException when writing fails
         */
        void writeTo(Writer out) throws IOException;
    }

    /** What {@link #write} did. */
    public enum Outcome {
        /** The target was created or replaced atomically. */
        REPLACED,
        /**
         * The target is a symbolic link to a file inside the output directory: that file was replaced
         * atomically and the link kept.
         */
        REPLACED_LINK_TARGET,
        /**
         * The target was a symbolic link to somewhere outside the output directory (or dangling
         * there): the link itself was replaced by the report and nothing outside was touched.
         */
        REPLACED_LINK,
        /** The target is a pipe or a character device ({@code /dev/stdout}): written through, not replaced. */
        STREAMED
    }

    private AtomicFiles() {}

    /**
     * Writes UTF-8 text so that a reader, or a kill midway, sees either the old content or the
     * complete new content: the text goes to a hidden temporary file in the directory of the file
     * finally written, which is then renamed over it ({@code ATOMIC_MOVE}; a plain replacing move
     * where the file system cannot rename atomically). The temporary file is deleted when anything
     * fails. The output directory is the target's own directory, created when missing.
     * <ul>
     *   <li>A symbolic link (or chain of links) whose end lies in the output directory: the file it
     *       ends at is replaced atomically; the link stays.</li>
     *   <li>A symbolic link whose end lies outside the output directory, or would (a dangling link):
     *       never followed; the link itself is replaced by the report, so a link committed into a
     *       repository cannot make a scan overwrite or create a file elsewhere.</li>
     *   <li>A pipe or a character device ({@code /dev/stdout}, {@code /dev/null}), directly or through
     *       links: written through, never replaced.</li>
     *   <li>Anything else that is not a regular file (a directory, a block device): an error.</li>
     * </ul>
     * The temporary file is created with the default permissions (umask), not {@code 0600}. Text UTF-8
     * cannot encode (half a surrogate pair) is written as U+FFFD.
     *
     * @param target  the file to create or replace
     * @param content what to write
     * @return what was done
     * @throws IOException when the directory, the temporary file or the rename fails, or the target
     *                     is neither a file, a link nor a stream
     */
    public static Outcome write(Path target, Content content) throws IOException {
        Path absolute = target.toAbsolutePath().normalize();
        Path dir = absolute.getParent();
        if (Files.isSymbolicLink(absolute)) {
            if (Files.exists(absolute) && isStream(absolute)) {
                stream(absolute, content);
                return Outcome.STREAMED;
            }
            Path end = linkEnd(absolute);
            if (end != null && inside(end, dir) && (!Files.exists(end) || Files.isRegularFile(end))) {
                replace(end, content);
                return Outcome.REPLACED_LINK_TARGET;
            }
            replace(absolute, content); // renaming over a link replaces the link, never its target
            return Outcome.REPLACED_LINK;
        }
        if (Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)
                && !Files.isRegularFile(absolute, LinkOption.NOFOLLOW_LINKS)) {
            if (isStream(absolute)) {
                stream(absolute, content);
                return Outcome.STREAMED;
            }
            throw new IOException("not a regular file, a pipe or a character device; not replaced");
        }
        Files.createDirectories(dir);
        replace(absolute, content);
        return Outcome.REPLACED;
    }

    /**
     * Keeps a file the tool is about to read back or write below {@code root} (the Maven plugin's build
     * directory) inside it, as {@link #write} does for a link at the file itself: every symbolic link on
     * the way from {@code root} down to {@code target}, {@code target} included, that leads out of
     * {@code root} (or dangles out of it) is removed; a folder on the way is then created in its place,
     * empty. Nothing the links led to is read, written or deleted. Links that stay inside {@code root}
     * are kept, and nothing is done when {@code target} does not lie below {@code root} (an output the
     * user placed elsewhere on purpose).
     *
     * @param target the file to be read or written
     * @param root   the directory it must not leave, or null for none
     * @return the links removed, from {@code root} down (empty when none); each was a folder on the way,
     *     or the target itself when last and equal to {@code target}
     * @throws IOException when a link cannot be removed or its folder created
     */
    public static List<Path> confine(Path target, Path root) throws IOException {
        if (root == null) {
            return List.of();
        }
        Path base = root.toAbsolutePath().normalize();
        Path file = target.toAbsolutePath().normalize();
        if (!file.startsWith(base) || file.equals(base)) {
            return List.of();
        }
        Path realBase;
        try {
            realBase = base.toRealPath();
        } catch (IOException e) {
            return List.of(); // no build directory yet: nothing below it can be a link
        }
        List<Path> removed = new ArrayList<>();
        Path p = base;
        for (Path name : base.relativize(file)) {
            p = p.resolve(name);
            if (!Files.isSymbolicLink(p)) {
                if (!Files.isDirectory(p) && !p.equals(file)) {
                    break; // missing (or not a folder): nothing further down exists
                }
                continue;
            }
            Path end = linkEnd(p);
            Path real = end;
            if (end != null && Files.exists(end)) {
                real = end.toRealPath();
            }
            if (real != null && real.startsWith(realBase)) {
                continue;
            }
            Files.delete(p); // the link only, never what it leads to
            removed.add(p);
            if (!p.equals(file)) {
                Files.createDirectory(p);
            }
        }
        return List.copyOf(removed);
    }

    private static void stream(Path target, Content content) throws IOException {
        try (Writer w =
                utf8(Files.newOutputStream(target, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING))) {
            content.writeTo(w);
        }
    }

    /**
     * A buffered UTF-8 writer that writes text UTF-8 cannot encode, half a surrogate pair (a Java
     * string literal may hold one, and findings quote code), as U+FFFD instead of failing the whole
     * report with a {@code MalformedInputException}.
     */
    private static Writer utf8(OutputStream out) {
        CharsetEncoder encoder = StandardCharsets.UTF_8
                .newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)
                .replaceWith(REPLACEMENT);
        return new BufferedWriter(new OutputStreamWriter(out, encoder));
    }

    /** U+FFFD in UTF-8. */
    private static final byte[] REPLACEMENT = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    private static void replace(Path absolute, Content content) throws IOException {
        Path dir = absolute.getParent();
        Path tmp = dir.resolve("." + absolute.getFileName() + "." + UUID.randomUUID() + ".tmp");
        boolean done = false;
        try {
            try (Writer w = utf8(Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
                content.writeTo(w);
            }
            try {
                Files.move(tmp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /**
     * @return where a chain of symbolic links ends (absolute, normalized; it may not exist), or null
     *     for a chain longer than 40 links or one that cannot be read
     */
    private static Path linkEnd(Path link) {
        Path p = link;
        for (int hops = 0; hops < 40; hops++) {
            if (!Files.isSymbolicLink(p)) {
                try {
                    // the directories on the way may be links too: judge where the file really is
                    Path parent = p.getParent().toRealPath();
                    return parent.resolve(p.getFileName());
                } catch (IOException e) {
                    return p;
                }
            }
            try {
                p = p.getParent()
                        .resolve(Files.readSymbolicLink(p))
                        .toAbsolutePath()
                        .normalize();
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }

    private static boolean inside(Path file, Path dir) {
        Path realDir;
        try {
            realDir = dir.toRealPath();
        } catch (IOException e) {
            realDir = dir;
        }
        return file.startsWith(realDir) || file.startsWith(dir);
    }

    /** @return true for a pipe or a character device (followed through links) */
    private static boolean isStream(Path p) {
        try {
            Object mode = Files.getAttribute(p, "unix:mode");
            int type = ((Integer) mode) & 0170000;
            return type == 0010000 || type == 0020000; // S_IFIFO, S_IFCHR
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return (Files.isRegularFile(p) || Files.isDirectory(p)) ? false : Files.exists(p);
        } catch (IOException e) {
            return false;
        }
    }
}
