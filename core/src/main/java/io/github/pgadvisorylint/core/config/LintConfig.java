package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.TestSources;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import java.nio.file.Path;
import java.time.Duration;
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
 * @param failOnIncomplete    whether a scan that left a file, method or rule out of the analysis fails, or
 *                            null when not stated
 * @param timeLimit           the wall-clock safety limit per file phase and per rule, or null when not
 *                            stated
 */
public record LintConfig(
        Path file,
        Set<String> disabledRules,
        Map<String, Severity> severityOverrides,
        List<String> includes,
        List<String> excludes,
        PoolingSetting pooling,
        Boolean includeTests,
        Set<String> lockHelpers,
        Set<String> pooledApiTypes,
        Set<String> enabledRules,
        Boolean failOnIncomplete,
        Duration timeLimit) {

    /** Path segments that mark test sources when {@code includeTests} is false ({@link TestSources#DIRECTORIES}). */
    public static final List<String> TEST_SOURCE_DIRECTORIES = TestSources.DIRECTORIES;

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
        return new LintConfig(
                null, Set.of(), Map.of(), List.of(), List.of(), null, null, Set.of(), Set.of(), Set.of(), null, null);
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
        return fileFilter(scanRoot, excludeTestSources ? new TestSources(scanRoot, List.of()) : null);
    }

    /**
     * Which files to analyse, as {@link #fileFilter(Path, boolean)}, with the test sources a front end
     * knows about.
     *
     * @param scanRoot    the scan root, absolute
     * @param testSources the test sources to drop, or null to keep them
     * @return a filter over absolute normalized paths
     */
    public Predicate<Path> fileFilter(Path scanRoot, TestSources testSources) {
        Globs in = Globs.compile(includes);
        Globs out = Globs.compile(excludes);
        Path root = scanRoot.toAbsolutePath().normalize();
        Path base = file == null ? root : file.toAbsolutePath().normalize().getParent();
        return path -> {
            Path abs = path.toAbsolutePath().normalize();
            Path rel = abs.startsWith(base) ? base.relativize(abs) : abs.startsWith(root) ? root.relativize(abs) : abs;
            if (testSources != null && testSources.contains(abs)) {
                return false;
            }
            return (in.isEmpty() || in.matches(rel)) && !out.matches(rel);
        };
    }

    /**
     * @param relative a relative path
     * @return true when it lies below a test source directory ({@link TestSources#isTestSource(Path)})
     */
    public static boolean isTestSource(Path relative) {
        return TestSources.isTestSource(relative);
    }

    /**
     * @param relativePath a relative path as the model reports it, {@code /}-separated
     * @return true when it lies below a test source directory ({@link TestSources#isTestSource(String)})
     */
    public static boolean isTestSource(String relativePath) {
        return TestSources.isTestSource(relativePath);
    }

    /**
     * @param commandLine the pooling given on the command line or as a Maven parameter, or null
     * @return the effective pooling: the command line's, else the file's, else {@code AUTO}
     */
    public PoolingSetting effectivePooling(PoolingSetting commandLine) {
        return commandLine != null ? commandLine : Objects.requireNonNullElse(pooling, PoolingSetting.AUTO);
    }
}
