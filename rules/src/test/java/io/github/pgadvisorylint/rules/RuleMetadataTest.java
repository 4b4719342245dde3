package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.fixtures.Expectation;
import io.github.pgadvisorylint.fixtures.Expectations;
import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * What every registered rule must ship besides its code, checked for each rule found through
 * {@code ServiceLoader} (in the spirit of PMD's rule-set tests):
 * <ul>
 *   <li>its class is named after its id ({@code lock-in-limit-query}: {@code LockInLimitQueryRule});</li>
 *   <li>its page ({@code docs/<id>.md}, the SARIF help) starts with {@code # <id>}, states
 *       {@code **Default severity:** <level>} matching the descriptor, and has the five sections
 *       {@link #SECTIONS} in that order;</li>
 *   <li>a row in the README's rule table whose severity starts with the descriptor's;</li>
 *   <li>at least {@value #MIN_CASES} firing cases ({@code expect:} markers of the rule) and
 *       {@value #MIN_CASES} silent cases ({@code Silent} comments) in its fixture folder, and at least
 *       {@value #MIN_FRAGMENTS} markers that name a message fragment.</li>
 * </ul>
 */
class RuleMetadataTest {

    /** The sections of a rule page, in order. */
    static final List<String> SECTIONS = List.of("What it finds", "Why it is a bug", "Bad", "Good", "How to suppress");

    /**
     * The one other title a section may have: a rule whose finding is not a defect in itself
     * ({@code unused-suppression}) says why it matters instead.
     */
    private static final Map<String, String> SECTION_ALIASES = Map.of("Why it matters", "Why it is a bug");

    static final int MIN_CASES = 10;
    static final int MIN_FRAGMENTS = 2;

    private static final Pattern SEVERITY_LINE =
            Pattern.compile("(?m)^\\*\\*Default severity:\\*\\* (error|warning|note)\\b");
    private static final Pattern TABLE_ROW = Pattern.compile("^\\| `([a-z0-9-]+)` \\| ([^|]+) \\|");

    @TestFactory
    Stream<DynamicNode> everyRegisteredRule() throws IOException {
        Map<String, String> readme = readmeRuleRows();
        return RuleFixturesTest.rules().stream()
                .map(rule -> DynamicContainer.dynamicContainer(
                        rule.descriptor().id(),
                        Stream.of(
                                DynamicTest.dynamicTest("class name", () -> className(rule)),
                                DynamicTest.dynamicTest("page", () -> page(rule.descriptor())),
                                DynamicTest.dynamicTest("README row", () -> readmeRow(rule.descriptor(), readme)),
                                DynamicTest.dynamicTest(
                                        "fixture cases",
                                        () -> cases(rule.descriptor().id())))));
    }

    /** No README row, page or rule-named fixture folder outlives its rule. */
    @Test
    void nothingNamesAnUnregisteredRule() throws IOException {
        assertThat(readmeRuleRows().keySet())
                .as("README rule table")
                .containsExactlyInAnyOrderElementsOf(RuleFixturesTest.ruleIds());
        Path docs = FixtureHarness.repositoryRoot().resolve("rules/src/main/resources/docs");
        try (Stream<Path> pages = Files.list(docs)) {
            assertThat(pages.map(p -> p.getFileName().toString().replaceFirst("\\.md$", "")))
                    .as("pages in " + docs)
                    .containsExactlyInAnyOrderElementsOf(RuleFixturesTest.ruleIds());
        }
    }

    static void className(Rule rule) {
        assertThat(rule.getClass().getSimpleName()).isEqualTo(rule.descriptor().name() + "Rule");
    }

    static void page(RuleDescriptor d) {
        String page = d.helpMarkdown();
        assertThat(page).as("title of docs/%s.md", d.id()).startsWith("# " + d.id() + "\n");
        Matcher severity = SEVERITY_LINE.matcher(page);
        assertThat(severity.find())
                .as("'**Default severity:** <level>' line in docs/%s.md", d.id())
                .isTrue();
        assertThat(severity.group(1))
                .as("default severity in docs/%s.md", d.id())
                .isEqualTo(d.defaultSeverity().sarifLevel());
        List<String> headings = new ArrayList<>();
        for (String line : page.split("\n", -1)) {
            String title = line.startsWith("## ") ? line.substring(3).strip() : "";
            title = SECTION_ALIASES.getOrDefault(title, title);
            if (SECTIONS.contains(title)) {
                headings.add(title);
            }
        }
        assertThat(headings).as("sections of docs/%s.md", d.id()).containsExactlyElementsOf(SECTIONS);
    }

    private static void readmeRow(RuleDescriptor d, Map<String, String> rows) {
        assertThat(rows).as("README.md rule table").containsKey(d.id());
        assertThat(rows.get(d.id()))
                .as("severity of %s in the README table", d.id())
                .startsWith(d.defaultSeverity().sarifLevel());
    }

    private static void cases(String id) {
        Path folder = FixtureHarness.fixturesRoot().resolve(id);
        assertThat(folder).as("fixture folder of " + id).isDirectory();
        int firing = 0;
        int silent = 0;
        int fragments = 0;
        for (Path root : FixtureHarness.scanRoots(folder)) {
            Expectations ex = Expectations.parse(root);
            for (Expectation e : ex.all()) {
                if (e.ruleId().equals(id) && e.kind() == Expectation.Kind.EXPECT) {
                    firing++;
                    fragments += e.fragment().isPresent() ? 1 : 0;
                }
            }
            silent += ex.silentCases().size();
        }
        assertThat(firing)
                .as("firing cases ('expect: %s' markers) under %s", id, folder)
                .isGreaterThanOrEqualTo(MIN_CASES);
        assertThat(silent)
                .as("silent cases ('// Silent: why' comments) under %s", folder)
                .isGreaterThanOrEqualTo(MIN_CASES);
        assertThat(fragments)
                .as("'expect: %s \"message fragment\"' markers under %s", id, folder)
                .isGreaterThanOrEqualTo(MIN_FRAGMENTS);
    }

    /** @return rule id to severity column of the README's "## Rules" table */
    static Map<String, String> readmeRuleRows() throws IOException {
        Map<String, String> rows = new LinkedHashMap<>();
        boolean inRules = false;
        for (String line :
                Files.readAllLines(FixtureHarness.repositoryRoot().resolve("README.md"), StandardCharsets.UTF_8)) {
            if (line.startsWith("## ")) {
                inRules = line.equals("## Rules");
                continue;
            }
            Matcher row = TABLE_ROW.matcher(line);
            if (inRules && row.lookingAt()) {
                rows.put(row.group(1), row.group(2).strip());
            }
        }
        return rows;
    }
}
