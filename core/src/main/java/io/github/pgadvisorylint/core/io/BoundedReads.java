package io.github.pgadvisorylint.core.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads input files with a size limit, whatever they turned into since they were listed: a regular
 * file is read through a stream that stops one byte past the limit, and anything else (a named pipe, a
 * socket, a device, directly or through symbolic links) is never opened, since opening a pipe blocks
 * until a writer comes and a device such as {@code /dev/zero} never ends. A leaf of {@code core}: the
 * discovery names special files with {@link #specialKind}, the readers read with {@link #read}.
 */
public final class BoundedReads {

    /** A path that is not a regular file: it was not opened. */
    public static final class SpecialFileException extends IOException {
        private static final long serialVersionUID = 1L;

        /** @param description what the path is, e.g. {@code a symbolic link to a named pipe} */
        public SpecialFileException(String description) {
            super(description);
        }

        /** @return what the path is, e.g. {@code a named pipe} or {@code a symbolic link to a character device} */
        public String description() {
            return getMessage();
        }
    }

    /** A file with more bytes than the limit: it was read no further than one byte past it. */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        /** The limit that was exceeded (bytes). */
        private final long limit;

        /** @param limit the limit that was exceeded (bytes) */
        public TooLargeException(long limit) {
            super("more than " + limit + " bytes");
            this.limit = limit;
        }

        /** @return the limit that was exceeded (bytes) */
        public long limit() {
            return limit;
        }
    }

    private BoundedReads() {}

    /**
     * Reads a whole file of at most {@code limit} bytes. The file is checked to be a regular file
     * (following symbolic links) right before it is opened, and read through a stream that never
     * takes more than {@code limit + 1} bytes, so a file that grew, or was replaced by a link to a
     * device after the check, still costs at most that much.
     *
     * @param file  the file
     * @param limit the most bytes accepted
     * @return its bytes
     * @throws SpecialFileException when it is not a regular file (nothing was opened)
     * @throws TooLargeException    when it holds more than {@code limit} bytes
     * @throws IOException          when it cannot be read
     */
    public static byte[] read(Path file, long limit) throws IOException {
        if (limit < 0 || limit >= Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("limit out of range: " + limit);
        }
        String special = specialKind(file);
        if (special != null) {
            throw new SpecialFileException(special);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) limit + 1);
            if (bytes.length > limit) {
                throw new TooLargeException(limit);
            }
            return bytes;
        }
    }

    /**
     * @param path a path that exists
     * @return null for a regular file or a directory (directly or through symbolic links), else what
     *     it is: {@code a named pipe}, {@code a socket}, {@code a character device}, {@code a block
     *     device} or {@code a special file}, after {@code a symbolic link to } when a link leads there
     * @throws IOException when its attributes cannot be read (a dangling link, no permission)
     */
    public static String specialKind(Path path) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
        if (attrs.isRegularFile() || attrs.isDirectory()) {
            return null;
        }
        String kind = kindFromMode(path);
        return Files.isSymbolicLink(path) ? "a symbolic link to " + kind : kind;
    }

    /** @return the file type as the mode bits tell it (followed through links), or a general word where there are none */
    private static String kindFromMode(Path path) {
        Object mode;
        try {
            mode = Files.getAttribute(path, "unix:mode");
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
            return "a special file";
        }
        if (!(mode instanceof Integer bits)) {
            return "a special file";
        }
        return switch (bits & 0170000) { // S_IFMT
            case 0010000 -> "a named pipe";
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            case 0140000 -> "a socket";
            default -> "a special file";
        };
    }
}
