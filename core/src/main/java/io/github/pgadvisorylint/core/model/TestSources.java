package io.github.pgadvisorylint.core.model;

import java.util.List;

/**
 * Which paths are test sources: a file below one of {@link #DIRECTORIES}. The model marks its sites
 * with it ({@link LockModel#inTestSources(LockSite)}) and the configuration drops such files when tests
 * are not analysed ({@code LintConfig.fileFilter}).
 */
public final class TestSources {

    /** Path segments that mark test sources when {@code includeTests} is false. */
    public static final List<String> DIRECTORIES =
            List.of("src/test/", "src/it/", "src/integrationTest/", "src/testFixtures/");

    private TestSources() {
    }

    /**
     * Locale-independent test for the model's paths, which are text: never turned back into a
     * {@code Path}, which fails for names the locale cannot encode.
     *
     * @param relativePath a relative path as the model reports it, {@code /}-separated
     * @return true when it lies below a test source directory ({@code src/test/} and the like)
     */
    public static boolean contains(String relativePath) {
        return contains(List.of(relativePath.split("/", -1)));
    }

    /**
     * @param names the name elements of a relative path, the file's own name last
     * @return true when the file lies below a test source directory
     */
    public static boolean contains(List<String> names) {
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
