package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.discovery.FileDiscovery;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.rule.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The contents of a {@code .pg-advisory-lint.yml} file, validated (see {@link LintConfigLoader} for
 * the format). Settings the file does not state are null or empty; the CLI and the Maven plugin
 * apply their own defaults and let their options win over the file.
 *
 * @param file                the file read, absolute; null for {@link #none()}
 * @param disabledRules       ids of rules set to {@code off}
 * @param severityOverrides   rule id to the severity all its findings get ({@code error},
 *                            {@code warning}, {@code note})
 * @param includes            globs of files to analyse, relative to the file's directory; empty: all
 * @param excludes            globs of files not to analyse, applied after {@code includes}
 * @param pooling             the {@code pooling} setting, or null when not stated
 * @param includeTests        whether test sources are analysed, or null when not stated
 * @param lockHelpers         extra lock-helper method names ({@code acquire}, {@code Locks.acquire},
 *                            {@code com.acme.Locks.acquire})
 * @param pooledApiTypes      extra pooled-connection API type names (simple or qualified)
 * @param enabledRules        ids of rules set to {@code on} or to a severity: they run even when they are
 *                            off by default ({@link RuleDescriptor#enabledByDefault()})
 */
public record LintConfig(Path file, Set<String> disabledRules, Map<String, Severity> severityOverrides,
                         List<String> includes, List<String> excludes, PoolingSetting pooling, Boolean includeTests,
                         Set<String> lockHelpers, Set<String> pooledApiTypes, Set<String> enabledRules) {

    /** Path segments that mark test sources when {@code includeTests} is false. */
    public static final List<String> TEST_SOURCE_DIRECTORIES =
            List.of("src/test/", "src/it/", "src/integrationTest/", "src/testFixtures/");

    /** Copies the collections. */
    public LintConfig {
        disabledRules = Set.copyOf(disabledRules);
        severityOverrides = Map.copyOf(severityOverrides);
        includes = List.copyOf(includes);
        excludes = List.copyOf(excludes);
        lockHelpers = Set.copyOf(lockHelpers);
        pooledApiTypes = Set.copyOf(pooledApiTypes);
        enabledRules = Set.copyOf(enabledRules);
    }

    /** @return the configuration of a project without a configuration file: nothing stated */
    public static LintConfig none() {
        return new LintConfig(null, Set.of(), Map.of(), List.of(), List.of(), null, null, Set.of(), Set.of(), Set.of());
    }

    /**
     * @param rule a rule's descriptor
     * @return true when the rule runs under this configuration: not set to {@code off}, and on by default
     *     or switched on ({@code on} or a severity)
     */
    public boolean runs(RuleDescriptor rule) {
        return !disabledRules.contains(rule.id()) && (rule.enabledByDefault() || enabledRules.contains(rule.id()));
    }

    /**
     * Which files to analyse, for {@code Analyzer.Builder.fileFilter}. Globs are matched against the
     * path relative to the configuration file's directory, or, for a file outside it, relative to the
     * scan root.
     *
     * @param scanRoot           the scan root, absolute
     * @param excludeTestSources true to drop files under {@link #TEST_SOURCE_DIRECTORIES} as well
     * @return a filter over absolute normalized paths
     */
    public Predicate<Path> fileFilter(Path scanRoot, boolean excludeTestSources) {
        Globs in = Globs.compile(includes);
        Globs out = Globs.compile(excludes);
        Path root = scanRoot.toAbsolutePath().normalize();
        Path base = file == null ? root : file.toAbsolutePath().normalize().getParent();
        return path -> {
            Path abs = path.toAbsolutePath().normalize();
            Path rel = abs.startsWith(base) ? base.relativize(abs) : abs.startsWith(root) ? root.relativize(abs) : abs;
            if (excludeTestSources && isTestSource(abs.startsWith(root) ? root.relativize(abs) : rel)) {
                return false;
            }
            return (in.isEmpty() || in.matches(rel)) && !out.matches(rel);
        };
    }

    /**
     * @param relative a relative path
     * @return true when it lies below a test source directory ({@code src/test/} and the like),
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
     * @return true when it lies below a test source directory ({@code src/test/} and the like)
     */
    public static boolean isTestSource(String relativePath) {
        return isTestSource(List.of(relativePath.split("/", -1)));
    }

    private static boolean isTestSource(List<String> names) {
        for (String dir : TEST_SOURCE_DIRECTORIES) {
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

    /**
     * @param commandLine the pooling given on the command line or as a Maven parameter, or null
     * @return the effective pooling: the command line's, else the file's, else {@code AUTO}
     */
    public PoolingSetting effectivePooling(PoolingSetting commandLine) {
        return commandLine != null ? commandLine : Objects.requireNonNullElse(pooling, PoolingSetting.AUTO);
    }
}
