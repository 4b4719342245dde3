package io.github.pgadvisorylint.core.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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

    private AtomicFiles() {
    }

    /**
     * Writes UTF-8 text to a hidden temporary file in the target's directory (created when missing),
     * then renames it over the target ({@code ATOMIC_MOVE}; a plain replacing move where the file
     * system cannot rename atomically). The temporary file is deleted when anything fails. A target
     * that exists but is not a regular file (a symbolic link, a named pipe, a device such as
     * {@code /dev/stdout}) is written through, never replaced. The
     * temporary file is created with the default permissions (umask), not {@code 0600}.
     *
     * @param target  the file to create or replace
     * @param content what to write
     * @throws IOException when the directory, the temporary file or the rename fails
     */
    public static void write(Path target, Content content) throws IOException {
        if (Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                && !Files.isRegularFile(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            // a symbolic link, a named pipe or a device (/dev/stdout): write through it, never replace it
            try (Writer w = Files.newBufferedWriter(target, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                content.writeTo(w);
            }
            return;
        }
        Path absolute = target.toAbsolutePath().normalize();
        Path dir = absolute.getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + absolute.getFileName() + "." + UUID.randomUUID() + ".tmp");
        boolean done = false;
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
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
}
