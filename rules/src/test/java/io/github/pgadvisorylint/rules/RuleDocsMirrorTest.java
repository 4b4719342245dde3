package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rule pages readers browse under {@code docs/rules/} are byte-for-byte copies of
 * {@code rules/src/main/resources/docs/}, the pages {@code pg-advisory-lint explain} prints and SARIF
 * carries as each rule's help: no copy missing, none left over from a removed rule, none different.
 */
class RuleDocsMirrorTest {

    /** The pages, relative to the repository root. */
    static final String SOURCE = "rules/src/main/resources/docs";

    /** The copies, relative to the repository root. */
    static final String MIRROR = "docs/rules";

    /** Files of {@link #MIRROR} that are not copies: the index of the rules and the script that copies. */
    static final Set<String> NOT_COPIES = Set.of("README.md", "sync.sh");

    /** The command that brings the copies up to date, run from the repository root. */
    static final String REGENERATE = "sh docs/rules/sync.sh";

    @Test
    void docsRulesHoldsAnExactCopyOfEveryRulePage() throws IOException {
        Path root = FixtureHarness.repositoryRoot();
        Path source = root.resolve(SOURCE);
        Path mirror = root.resolve(MIRROR);
        Set<String> pages = names(source);
        pages.removeIf(name -> !name.endsWith(".md"));
        assertThat(pages).as("rule pages in " + SOURCE).isNotEmpty();
        assertThat(mirror)
                .as(MIRROR + " (regenerate it with: " + REGENERATE + ")")
                .isDirectory();
        Set<String> copies = names(mirror);
        copies.removeAll(NOT_COPIES);

        List<String> problems = new ArrayList<>();
        for (String page : pages) {
            if (!copies.contains(page)) {
                problems.add("missing: " + MIRROR + "/" + page);
            } else if (Files.mismatch(source.resolve(page), mirror.resolve(page)) != -1L) {
                problems.add("different from " + SOURCE + "/" + page + ": " + MIRROR + "/" + page);
            }
        }
        for (String copy : copies) {
            if (!pages.contains(copy)) {
                problems.add("extra (no such page in " + SOURCE + "): " + MIRROR + "/" + copy);
            }
        }
        assertThat(problems)
                .withFailMessage(
                        "%s is not a copy of %s:%n  %s%nRegenerate it from the repository root with: %s",
                        MIRROR, SOURCE, String.join(System.lineSeparator() + "  ", problems), REGENERATE)
                .isEmpty();
    }

    /**
     * @param dir a directory
     * @return the names of its entries (files and folders), sorted, in a set the caller may change
     */
    private static Set<String> names(Path dir) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }
}
