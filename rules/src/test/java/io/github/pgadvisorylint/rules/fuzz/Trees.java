package io.github.pgadvisorylint.rules.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/** Temporary file trees for the fuzz properties. */
final class Trees {

    private Trees() {}

    /**
     * @param files relative path to content
     * @return a new temporary directory holding them
     */
    static Path write(Map<String, byte[]> files) throws IOException {
        Path root = Files.createTempDirectory("fuzz-tree");
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            Path p = root.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.write(p, f.getValue());
        }
        return root;
    }

    /** Deletes a tree; nothing when it is null or gone. */
    static void delete(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
