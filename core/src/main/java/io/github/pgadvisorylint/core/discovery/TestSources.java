package io.github.pgadvisorylint.core.discovery;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a test source is, the one definition the CLI, the Maven plugin and the lock model share: a file
 * below a directory the build declares for tests (Maven's test compile source roots and test resource
 * directories, when the front end knows them), or below one of {@link #DIRECTORIES} anywhere under the
 * scan root ({@code src/test/}, the Maven and Gradle convention). Neither front end analyses test sources
 * unless asked to ({@code --include-tests}, {@code includeTests}), like the PMD and Checkstyle plugins.
 */
public final class TestSources {

    /** Path segments that mark test sources: Maven's and Gradle's conventional test directories. */
    public static final List<String> DIRECTORIES =
            List.of("src/test/", "src/it/", "src/integrationTest/", "src/testFixtures/");

    private final Path scanRoot;
    private final List<Path> declaredRoots;

    /**
     * @param scanRoot      the scanned directory; the conventional directories are looked for below it
     * @param declaredRoots directories the build declares as test sources, absolute or relative to the
     *                      scan root; empty when unknown (the CLI)
     */
    public TestSources(Path scanRoot, List<Path> declaredRoots) {
        this.scanRoot = scanRoot.toAbsolutePath().normalize();
        List<Path> roots = new ArrayList<>();
        for (Path r : declaredRoots) {
            roots.add(this.scanRoot.resolve(r).normalize());
        }
        this.declaredRoots = List.copyOf(roots);
    }

    /**
     * @param file a file, absolute or relative to the working directory
     * @return true when it lies below a declared test root, or below a conventional test directory
     *     (judged on its path relative to the scan root; a file outside it on its whole path)
     */
    public boolean contains(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        for (Path root : declaredRoots) {
            if (abs.startsWith(root) && !abs.equals(root)) {
                return true;
            }
        }
        return isTestSource(abs.startsWith(scanRoot) ? scanRoot.relativize(abs) : abs);
    }

    /**
     * @param relative a relative path
     * @return true when it lies below a conventional test directory ({@code src/test/} and the like),
     *     judged on its name elements (a {@code \\} inside a file name is never a separator)
     */
    public static boolean isTestSource(Path relative) {
        List<String> names = new ArrayList<>();
        for (Path name : relative) {
            names.add(FileDiscovery.displayName(name));
        }
        return isTestSource(names);
    }

    /**
     * Locale-independent form of {@link #isTestSource(Path)} for the model's paths, which are text:
     * never turned back into a {@link Path}, which fails for names the locale cannot encode.
     *
     * @param relativePath a relative path as the model reports it, {@code /}-separated
     * @return true when it lies below a conventional test directory ({@code src/test/} and the like)
     */
    public static boolean isTestSource(String relativePath) {
        return isTestSource(List.of(relativePath.split("/", -1)));
    }

    private static boolean isTestSource(List<String> names) {
        for (String dir : DIRECTORIES) {
            // each entry ends with "/": its names are the parts before it
            String[] parts = dir.substring(0, dir.length() - 1).split("/", -1);
            // the last name is the file itself: a test directory has to hold it
            for (int i = 0; i + parts.length < names.size(); i++) {
                boolean match = true;
                for (int j = 0; j < parts.length && match; j++) {
                    match = names.get(i + j).equals(parts[j]);
                }
                if (match) {
                    return true;
                }
            }
        }
        return false;
    }
}
