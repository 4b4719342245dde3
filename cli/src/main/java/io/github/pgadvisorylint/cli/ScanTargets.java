package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.session.ScanSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files and directories a command analyses, resolved against the working directory, and the scan
 * root: the one directory given, or else the working directory. Shared by {@code scan} and {@code keys}.
 *
 * @param root    the scan root, real path; reported paths are relative to it
 * @param targets the real paths given (default {@code .}), each inside the root
 */
record ScanTargets(Path root, List<Path> targets) {

    /**
     * @param cwd   the working directory
     * @param paths the paths as given on the command line; empty for {@code .}
     * @return the resolved targets
     * @throws InputException for a missing or unreadable path, or a path outside the scan root
     */
    static ScanTargets resolve(Path cwd, List<String> paths) {
        List<Path> scanned = new ArrayList<>();
        for (String p : paths.isEmpty() ? List.of(".") : paths) {
            Path resolved = cwd.resolve(p).normalize();
            if (!Files.exists(resolved)) {
                throw new InputException("no such file or directory: " + p);
            }
            if (!Files.isReadable(resolved) || (Files.isDirectory(resolved) && !Files.isExecutable(resolved))) {
                throw new InputException("cannot read " + p + ": permission denied");
            }
            scanned.add(realPath(resolved, p));
        }
        Path root = scanned.size() == 1 && Files.isDirectory(scanned.get(0)) ? scanned.get(0) : realPath(cwd, ".");
        for (int i = 0; i < scanned.size(); i++) {
            if (!scanned.get(i).startsWith(root)) {
                throw new InputException(paths.get(i) + " is outside the scan root " + root
                        + " (the current directory when several paths are given); run from a directory"
                        + " that contains every path");
            }
        }
        return new ScanTargets(root, List.copyOf(scanned));
    }

    /** Fails before the analysis when the output is a directory or lies below a regular file. */
    static void checkWritableLocation(Path file, String asGiven) {
        if (Files.isDirectory(file)) {
            throw new InputException("cannot write " + asGiven + ": it is a directory");
        }
        for (Path p = file.getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new InputException("cannot write " + asGiven + ": " + p + " is not a directory");
                }
                return;
            }
        }
    }

    private static Path realPath(Path path, String asGiven) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            throw new InputException("cannot read " + asGiven + ": " + describe(e), e);
        }
    }

    /** @return e.g. {@code access denied}, {@code not a directory}: the exception's kind and reason, no temp-file path */
    static String describe(Exception e) {
        return ScanSession.describe(e);
    }
}
