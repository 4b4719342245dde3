package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.fixtures.Expectations;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every fixture folder, found on disk and checked by the harness, strict both ways: no list to keep.
 *
 * <ul>
 *   <li>A registered rule's own folder {@code fixtures/<rule-id>/} is checked for that rule and for every
 *       rule its markers name, one dynamic test per scan root (the folder, then each
 *       {@code projects/<name>/}).</li>
 *   <li>Any other folder (a shape several rules share: {@code lock-helpers}, {@code api-surfaces}, ...)
 *       is checked for every rule its markers name.</li>
 * </ul>
 */
class RuleFixturesTest {

    static List<Rule> rules() {
        return RuleRegistry.load(RuleFixturesTest.class.getClassLoader());
    }

    static Set<String> ruleIds() {
        Set<String> ids = new TreeSet<>();
        rules().forEach(r -> ids.add(r.descriptor().id()));
        return ids;
    }

    /** @return every folder directly under the fixtures root, sorted */
    static List<Path> fixtureFolders() throws IOException {
        try (Stream<Path> s = Files.list(FixtureHarness.fixturesRoot())) {
            return s.filter(Files::isDirectory).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicNode> everyRegisteredRuleAgainstItsFolder() {
        return rules().stream().map(rule -> {
            String id = rule.descriptor().id();
            Path folder = FixtureHarness.fixturesRoot().resolve(id);
            if (!Files.isDirectory(folder)) {
                return DynamicTest.dynamicTest(id, () -> {
                    throw new AssertionError(
                            "rule " + id + " has no fixture folder " + folder + " (scripts/new-rule writes one)");
                });
            }
            return DynamicContainer.dynamicContainer(
                    id,
                    FixtureHarness.scanRoots(folder).stream()
                            .map(root -> DynamicTest.dynamicTest(label(folder, root), root.toUri(), () -> {
                                Set<String> checked =
                                        new TreeSet<>(Expectations.parse(root).ruleIds());
                                checked.add(id);
                                FixtureHarness.verify(root, checked);
                            })));
        });
    }

    @TestFactory
    Stream<DynamicNode> everySharedFolderForTheRulesItsMarkersName() throws IOException {
        Set<String> ids = ruleIds();
        return fixtureFolders().stream()
                .filter(folder -> !ids.contains(folder.getFileName().toString()))
                .map(folder -> DynamicContainer.dynamicContainer(
                        folder.getFileName().toString(),
                        FixtureHarness.scanRoots(folder).stream()
                                .map(root -> DynamicTest.dynamicTest(
                                        label(folder, root),
                                        root.toUri(),
                                        () -> FixtureHarness.verifyAllMarked(root)))));
    }

    /** The discovery itself: it finds the rules and the shared folders it should. */
    @Test
    void discoveryFindsRulesAndSharedFolders() throws IOException {
        assertThat(ruleIds()).contains("lock-in-limit-query", "unused-suppression");
        assertThat(fixtureFolders())
                .extracting(p -> p.getFileName().toString())
                .contains("lock-in-limit-query", "lock-helpers", "api-surfaces");
        assertThat(FixtureHarness.scanRoots(FixtureHarness.fixture("lock-without-finally-unlock")))
                .extracting(p ->
                        FixtureHarness.fixturesRoot().relativize(p).toString().replace('\\', '/'))
                .startsWith("lock-without-finally-unlock")
                .contains(
                        "lock-without-finally-unlock/projects/config-hikari-yaml",
                        "lock-without-finally-unlock/projects/sql",
                        "lock-without-finally-unlock/projects/unreleased")
                .allMatch(p -> p.equals("lock-without-finally-unlock")
                        || p.startsWith("lock-without-finally-unlock/projects/"));
    }

    private static String label(Path folder, Path root) {
        return root.equals(folder)
                ? folder.getFileName().toString()
                : folder.getFileName() + "/"
                        + folder.relativize(root).toString().replace('\\', '/');
    }
}
