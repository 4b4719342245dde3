package io.github.pgadvisorylint.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.config.ConfigException;
import io.github.pgadvisorylint.core.config.LintConfig;
import io.github.pgadvisorylint.core.config.LintConfigLoader;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The reader of {@code .pg-advisory-lint.yml} over mutated configurations (valid ones, the fixtures'
 * YAML and other configuration files, YAML syntax soup) as text and as bytes: it returns a
 * configuration or throws {@link ConfigException} naming the file and a line inside it (0 for the whole
 * file), never anything else, and reads the same input the same way twice.
 */
@AddLifecycleHook(FuzzBudget.class)
class ConfigReaderFuzzTest {

    private static final Set<String> RULE_IDS = new TreeSet<>(
            RuleRegistry.load().stream().map(r -> r.descriptor().id()).toList());

    private static Path dir;

    @BeforeContainer
    static void createDirectory() throws Exception {
        dir = Files.createTempDirectory("config-fuzz");
    }

    @AfterContainer
    static void deleteDirectory() throws Exception {
        Trees.delete(dir);
    }

    private static final List<String> VALID = List.of(
            """
            # the whole reference
            rules:
              duplicate-lock-key: off
              lock-in-limit-query: warning
              unused-suppression: on
            includes: [src/main/**]
            excludes:
              - "**/generated/**"
              - legacy/
            pooling: transaction
            includeTests: false
            lockHelpers: [acquire, com.acme.Locks.withLock]
            pooledApiTypes: [com.acme.db.PooledDataSource]
            """,
            "pooling: auto\n",
            "rules: {blocking-lock-without-timeout: on, unlock-mismatch: error}\nincludeTests: true\n",
            "includes:\n  - \"src/{main,test}/java/**/*.java\"\n  - '*.sql'\nexcludes: [\"**/[a-z]*/**\"]\n",
            "lockHelpers: acquire\npooledApiTypes:\n",
            "---\nrules: &r\n  duplicate-lock-key: note\nexcludes: *r\n...\n",
            "");

    private static final String[] YAML = {
        "rules:",
        "includes:",
        "excludes:",
        "pooling:",
        "includeTests:",
        "lockHelpers:",
        "pooledApiTypes:",
        "duplicate-lock-key:",
        "off",
        "on",
        "error",
        "true",
        "transaction",
        "\n",
        "\n  ",
        "\n    - ",
        "- ",
        "[",
        "]",
        "{",
        "}",
        ",",
        ": ",
        "&a",
        "*a",
        "!!str",
        "!!map",
        "!<tag:yaml.org,2002:seq>",
        "|",
        ">-",
        "? ",
        "---",
        "...",
        "%YAML 1.2",
        "%TAG ! tag:x,2000:",
        "\"",
        "'",
        "#",
        "\t",
        "\\",
        "src/**",
        "{a,b}",
        "[!x]",
        "**/",
        "\"\\x00\"",
        "\"\\uD800\"",
        "<<: *a",
        "~",
        "null",
        "0x1F",
        ".inf",
    };

    @Provide
    Arbitrary<String> configText() {
        List<String> seeds = new ArrayList<>(VALID);
        Corpus.config().stream()
                .filter(s -> s.fileName().endsWith(".yml") || s.fileName().endsWith(".yaml"))
                .forEach(s -> seeds.add(s.text()));
        Arbitrary<String> soup = Arbitraries.of(YAML)
                .list()
                .ofMaxSize(60)
                .flatMap(tokens -> Arbitraries.of(" ", "", "\n").map(sep -> String.join(sep, tokens)));
        return Arbitraries.oneOf(Mutations.mutatedText(seeds), soup);
    }

    @Provide
    Arbitrary<byte[]> configBytes() {
        List<byte[]> seeds = new ArrayList<>();
        VALID.forEach(v -> seeds.add(v.getBytes(StandardCharsets.UTF_8)));
        Corpus.config().forEach(s -> seeds.add(s.bytes()));
        return Mutations.mutatedBytes(seeds);
    }

    /** A configuration, or the message of the problem; checks that a problem is located in the file. */
    private static Object read(Path file, String text, Guard.Work<LintConfig> reading) throws Exception {
        try {
            return Guard.call(text, reading);
        } catch (ConfigException e) {
            assertThat(e.file()).isEqualTo(file);
            assertThat(e.getMessage()).startsWith(file.toString());
            assertThat(e.line()).isBetween(0, new SourceFile("c", text).lineCount() + 1);
            return "ConfigException: " + e.getMessage();
        }
    }

    @Property(tries = 400, seed = "2707004")
    void textGivesAConfigurationOrALocatedConfigException(@ForAll("configText") String text) throws Exception {
        Path file = Path.of(LintConfigLoader.FILE_NAME);
        Object once = read(file, text, () -> LintConfigLoader.parse(file, text, RULE_IDS));
        Object again = read(file, text, () -> LintConfigLoader.parse(file, text, RULE_IDS));
        assertThat(again).isEqualTo(once);
        covers(once);
    }

    @Property(tries = 300, seed = "2707005")
    void bytesGiveAConfigurationOrALocatedConfigException(@ForAll("configBytes") byte[] bytes) throws Exception {
        Path file = dir.resolve(LintConfigLoader.FILE_NAME);
        Files.write(file, bytes);
        String shown = new String(bytes, StandardCharsets.UTF_8);
        Object once = read(file, shown, () -> LintConfigLoader.load(file, RULE_IDS));
        Object again = read(file, shown, () -> LintConfigLoader.load(file, RULE_IDS));
        assertThat(again).isEqualTo(once);
        covers(once);
    }

    /** Both answers are common, so neither the reading nor the checks go untested. */
    private static void covers(Object outcome) {
        Statistics.label("outcome").collect(outcome instanceof LintConfig ? "read" : "refused");
        Statistics.label("outcome").coverage(c -> {
            c.check("read").percentage(p -> p >= 5);
            c.check("refused").percentage(p -> p >= 30);
        });
    }
}
