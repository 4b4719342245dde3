package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The bundled example project {@code examples/invoice-service/} is checked for every rule its
 * markers name, like a fixture, and its README lists exactly the findings of a default scan.
 */
class ExampleProjectTest {

    /** A row of the README's findings table: {@code | `path:line` | `rule-id` | level | why |}. */
    private static final Pattern ROW =
            Pattern.compile("^\\| `([^`]+):(\\d+)` \\| `([a-z0-9-]+)` \\| (error|warning|note) \\|");

    /** The heading of the README section that holds the table. */
    private static final String SECTION = "## What the scan reports";

    @Test
    void invoiceService() {
        Path project = FixtureHarness.exampleProject();
        assertThat(project.resolve("src/main/java")).isDirectory();
        FixtureHarness.verifyAllMarked(project);
    }

    @Test
    void readmeListsEveryFindingOfTheScanAndNothingElse() throws IOException {
        Path project = FixtureHarness.exampleProject();
        List<String> listed = readmeFindings(project.resolve("README.md"));
        assertThat(listed).as("rows of the README's table").isNotEmpty();

        // what `pg-advisory-lint scan examples/invoice-service` runs: the rules on by default
        AnalysisResult result =
                Analyzer.builder().rules(RuleRegistry.load()).threads(1).build().analyze(project, List.of(project));
        List<String> scanned = new ArrayList<>();
        for (Finding f : result.findings()) {
            scanned.add(relativeToExample(project, f.region().path()) + ":"
                    + f.region().startLine() + " " + f.ruleId() + " "
                    + f.severity().sarifLevel());
        }
        assertThat(listed)
                .as("README.md '" + SECTION + "' against the scan")
                .containsExactlyInAnyOrderElementsOf(scanned);
    }

    /**
     * @param readme the example's README
     * @return {@code path:line rule level} of each row of the findings table, in order
     */
    static List<String> readmeFindings(Path readme) throws IOException {
        List<String> rows = new ArrayList<>();
        boolean inSection = false;
        for (String line : Files.readAllLines(readme)) {
            if (line.startsWith("#")) {
                inSection = line.trim().equals(SECTION);
                continue;
            }
            Matcher m = ROW.matcher(line);
            if (inSection && m.find()) {
                rows.add(m.group(1) + ":" + m.group(2) + " " + m.group(3) + " " + m.group(4));
            }
        }
        return rows;
    }

    /**
     * @param project the example's directory
     * @param path    a reported path: relative to the example, or to a directory above it (a repository-relative
     *                {@code examples/invoice-service/src/...})
     * @return the path relative to the example: the longest tail of {@code path} naming a file in it
     */
    static String relativeToExample(Path project, String path) {
        String rest = path;
        while (true) {
            if (Files.isRegularFile(project.resolve(rest))) {
                return rest;
            }
            int slash = rest.indexOf('/');
            if (slash < 0) {
                return path;
            }
            rest = rest.substring(slash + 1);
        }
    }
}
