package io.github.pgadvisorylint.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class LintConfigLoaderTest {

    private static final Set<String> RULES = Set.of("lock-in-limit-query", "duplicate-lock-key", "unused-suppression");
    private static final Path FILE = Path.of("/repo/.pg-advisory-lint.yml");

    @TempDir
    Path dir;

    private static LintConfig parse(String yaml) {
        return LintConfigLoader.parse(FILE, yaml, RULES);
    }

    private static void fails(String yaml, String message) {
        assertThatThrownBy(() -> parse(yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessage(FILE + ":" + message);
    }

    @Test
    void readsEveryKey() {
        LintConfig c = parse("""
                # the whole reference
                rules:
                  duplicate-lock-key: off
                  lock-in-limit-query: warning
                  unused-suppression: on
                includes: [src/main/**]
                excludes:
                  - "**/generated/**"
                  - legacy/
                pooling: Transaction
                includeTests: false
                lockHelpers: [acquire, com.acme.Locks.withLock]
                pooledApiTypes: com.acme.db.PooledDataSource
                failOnIncomplete: true
                timeLimit: 90
                """);
        assertThat(c.file()).isEqualTo(FILE);
        assertThat(c.disabledRules()).containsExactly("duplicate-lock-key");
        assertThat(c.enabledRules()).containsExactlyInAnyOrder("lock-in-limit-query", "unused-suppression");
        assertThat(c.severityOverrides()).isEqualTo(Map.of("lock-in-limit-query", Severity.WARNING));
        assertThat(c.includes()).containsExactly("src/main/**");
        assertThat(c.excludes()).containsExactly("**/generated/**", "legacy/");
        assertThat(c.pooling()).isEqualTo(PoolingSetting.TRANSACTION);
        assertThat(c.includeTests()).isFalse();
        assertThat(c.lockHelpers()).containsExactlyInAnyOrder("acquire", "com.acme.Locks.withLock");
        assertThat(c.pooledApiTypes()).containsExactly("com.acme.db.PooledDataSource");
        assertThat(c.failOnIncomplete()).isTrue();
        assertThat(c.timeLimit()).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void badFailOnIncompleteOrTimeLimit() {
        fails(
                "failOnIncomplete: yes please\n",
                "1:19: failOnIncomplete: 'yes please' is not allowed (allowed: true, false)");
        fails(
                "timeLimit: 0\n",
                "1:12: timeLimit: '0' is not allowed (allowed: a whole number of seconds from 1 to 86400)");
        fails(
                "timeLimit: 5m\n",
                "1:12: timeLimit: '5m' is not allowed (allowed: a whole number of seconds from 1 to 86400)");
        assertThat(parse("pooling: auto\n").timeLimit()).isNull();
        assertThat(parse("pooling: auto\n").failOnIncomplete()).isNull();
    }

    @Test
    void onOrASeveritySwitchesOnARuleThatIsOffByDefault() {
        RuleDescriptor offByDefault = new RuleDescriptor(
                "unused-suppression", "UnusedSuppression", Severity.NOTE, "s", "f", "# page", List.of(), false);
        RuleDescriptor onByDefault = new RuleDescriptor(
                "duplicate-lock-key", "DuplicateLockKey", Severity.WARNING, "s", "f", "# page", List.of());
        assertThat(LintConfig.none().runs(offByDefault)).isFalse();
        assertThat(LintConfig.none().runs(onByDefault)).isTrue();
        assertThat(parse("rules:\n  unused-suppression: on\n").runs(offByDefault))
                .isTrue();
        assertThat(parse("rules:\n  unused-suppression: warning\n").runs(offByDefault))
                .isTrue();
        assertThat(parse("rules:\n  unused-suppression: off\n").runs(offByDefault))
                .isFalse();
        assertThat(parse("rules:\n  duplicate-lock-key: off\n").runs(onByDefault))
                .isFalse();
    }

    @Test
    void anEmptyFileStatesNothing() {
        for (String yaml : new String[] {"", "# only a comment\n", "---\n"}) {
            LintConfig c = parse(yaml);
            assertThat(c.pooling()).isNull();
            assertThat(c.includeTests()).isNull();
            assertThat(c.disabledRules()).isEmpty();
            assertThat(c.effectivePooling(null)).isEqualTo(PoolingSetting.AUTO);
        }
        assertThat(parse("rules:\nincludes:\n").includes()).isEmpty();
    }

    @Test
    void commandLineWinsOverTheFile() {
        LintConfig c = parse("pooling: session\n");
        assertThat(c.effectivePooling(null)).isEqualTo(PoolingSetting.SESSION);
        assertThat(c.effectivePooling(PoolingSetting.TRANSACTION)).isEqualTo(PoolingSetting.TRANSACTION);
    }

    @Test
    void unknownKey() {
        fails(
                "rules: {}\npolling: transaction\n",
                "2:1: unknown key 'polling' (did you mean pooling?) (allowed:"
                        + " rules, includes, excludes, pooling, includeTests, lockHelpers, pooledApiTypes,"
                        + " failOnIncomplete, timeLimit)");
        fails(
                "colour: red\n",
                "1:1: unknown key 'colour' (allowed: rules, includes, excludes, pooling, includeTests,"
                        + " lockHelpers, pooledApiTypes, failOnIncomplete, timeLimit)");
    }

    @Test
    void duplicateKey() {
        fails("pooling: auto\nincludeTests: true\npooling: none\n", "3:1: duplicate key 'pooling' (first at line 1)");
        fails(
                "rules:\n  duplicate-lock-key: off\n  duplicate-lock-key: on\n",
                "3:3: duplicate rule 'duplicate-lock-key' (first at line 2)");
    }

    @Test
    void badPooling() {
        fails(
                "pooling: transactional\n",
                "1:10: pooling: 'transactional' is not allowed (allowed: auto, transaction,"
                        + " statement, session, none)");
        fails(
                "pooling: [a]\n",
                "1:10: pooling: expected one of auto, transaction, statement, session, none, found a list");
        fails("pooling:\n", "1:9: pooling: expected one of auto, transaction, statement, session, none, found nothing");
    }

    @Test
    void badIncludeTests() {
        fails("includeTests: yes\n", "1:15: includeTests: 'yes' is not allowed (allowed: true, false)");
    }

    @Test
    void badRules() {
        fails(
                "rules:\n  lock-in-limt-query: off\n",
                "2:3: rules: unknown rule 'lock-in-limt-query' (did you mean"
                        + " lock-in-limit-query?) (allowed: duplicate-lock-key, lock-in-limit-query, unused-suppression)");
        fails(
                "rules:\n  lock-in-limit-query: disabled\n",
                "2:24: rules.lock-in-limit-query: 'disabled' is not allowed"
                        + " (allowed: off, on, error, warning, note)");
        fails(
                "rules:\n  lock-in-limit-query: {severity: note}\n",
                "2:24: rules.lock-in-limit-query: expected one of" + " off, on, error, warning, note, found a mapping");
        fails(
                "rules: [lock-in-limit-query]\n",
                "1:8: rules: expected a mapping of rule id to one of off, on, error," + " warning, note, found a list");
    }

    @Test
    void badGlobs() {
        fails("excludes:\n  - src/{a,b\n", "2:5: excludes: 'src/{a,b' is not a valid glob: Missing '}");
        fails("includes: {a: b}\n", "1:11: includes: expected a list of globs, found a mapping");
        fails("includes: ['']\n", "1:12: includes: empty pattern");
    }

    @Test
    void badNames() {
        fails(
                "lockHelpers: [\"acquire()\"]\n",
                "1:15: lockHelpers: 'acquire()' is not a Java name (allowed: method names"
                        + " such as acquire, Locks.acquire or com.acme.Locks.acquire)");
        fails(
                "pooledApiTypes: [com..Pool]\n",
                "1:18: pooledApiTypes: 'com..Pool' is not a Java name (allowed: type"
                        + " names such as PooledDataSource or com.acme.db.PooledDataSource)");
    }

    @Test
    void everyMistakeOfTheFileIsReportedEachOnItsLine() {
        assertThatThrownBy(() -> parse("rules:\n  no-such-rule: on\n  duplicate-lock-key: loud\npooling: sometimes\n"
                        + "failOn: wrong\nincludeTests: true\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(FILE + ":2:3: rules: unknown rule 'no-such-rule' (allowed: duplicate-lock-key,"
                        + " lock-in-limit-query, unused-suppression)\n"
                        + FILE + ":3:23: rules.duplicate-lock-key: 'loud' is not allowed (allowed: off, on, error,"
                        + " warning, note)\n"
                        + FILE + ":4:10: pooling: 'sometimes' is not allowed (allowed: auto, transaction, statement,"
                        + " session, none)\n"
                        + FILE + ":5:1: unknown key 'failOn' (allowed: rules,"
                        + " includes, excludes, pooling, includeTests, lockHelpers, pooledApiTypes, failOnIncomplete,"
                        + " timeLimit)")
                .satisfies(e -> assertThat(((ConfigException) e).line()).isEqualTo(2));
        fails(
                "rules:\n  duplicate-lock-key: warn\n",
                "2:23: rules.duplicate-lock-key: 'warn' is not allowed (did you mean warning?) (allowed: off, on,"
                        + " error, warning, note)");
    }

    @Test
    void aTildeIsNullAsInYamlsCoreSchema() {
        assertThat(parse("includes: ~\nexcludes: ~\n")).isEqualTo(parse("includes:\nexcludes:\n"));
        assertThat(parse("includes: '~'\n").includes()).containsExactly("~");
    }

    @Test
    void notAMappingOrNotYaml() {
        fails(
                "- a\n- b\n",
                "1:1: the file: expected a mapping of the keys rules, includes, excludes, pooling,"
                        + " includeTests, lockHelpers, pooledApiTypes, failOnIncomplete, timeLimit, found a list");
        assertThatThrownBy(() -> parse("pooling: [unclosed\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(FILE + ":2:1: not valid YAML: ");
        assertThatThrownBy(() -> parse("a: 1\n---\nb: 2\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("not valid YAML");
    }

    @Test
    void unreadableFiles() throws Exception {
        Path bad = dir.resolve(LintConfigLoader.FILE_NAME);
        Files.write(bad, new byte[] {'p', ':', ' ', (byte) 0xC3, (byte) 0x28});
        assertThatThrownBy(() -> LintConfigLoader.load(bad, RULES))
                .isInstanceOf(ConfigException.class)
                .hasMessage(bad + ": file is not valid UTF-8");
        Path missing = dir.resolve("missing.yml");
        assertThatThrownBy(() -> LintConfigLoader.load(missing, RULES))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(missing + ": cannot read the file: NoSuchFileException");
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aConfigurationThatIsAPipeOrADeviceIsFoundAndRefusedUnopened() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo/.git")).getParent();
        Path pipe = repo.resolve(LintConfigLoader.FILE_NAME);
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", pipe.toString()).start();
        } catch (java.io.IOException e) {
            Assumptions.abort("mkfifo is not available");
            return;
        }
        Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo works here");
        // found, never passed over in silence (the scan would run without the settings it holds) ...
        assertThat(LintConfigLoader.find(repo)).contains(pipe.toAbsolutePath().normalize());
        // ... and refused without being opened (opening a pipe blocks until someone writes to it)
        assertThatThrownBy(() -> LintConfigLoader.load(pipe, RULES))
                .isInstanceOf(ConfigException.class)
                .hasMessage(pipe + ": a named pipe, not a regular file; not read");
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero here");
        Path link = Files.createSymbolicLink(dir.resolve("zero.yml"), zero);
        assertThatThrownBy(() -> LintConfigLoader.load(link, RULES))
                .isInstanceOf(ConfigException.class)
                .hasMessage(link + ": a symbolic link to a character device, not a regular file; not read");
    }

    @Test
    void foundByWalkingUpToTheRepositoryRoot() throws Exception {
        Path repo = dir.resolve("repo");
        Path module = Files.createDirectories(repo.resolve("billing/src"));
        Files.createDirectories(repo.resolve(".git"));
        assertThat(LintConfigLoader.find(module)).isEmpty();
        Files.writeString(dir.resolve(LintConfigLoader.FILE_NAME), "pooling: none\n");
        assertThat(LintConfigLoader.find(module))
                .as("never above the repository root")
                .isEmpty();
        Path atRoot =
                Files.writeString(repo.resolve(LintConfigLoader.FILE_NAME), "pooling: none\n", StandardCharsets.UTF_8);
        assertThat(LintConfigLoader.find(module))
                .contains(atRoot.toAbsolutePath().normalize());
        Path inModule = Files.writeString(repo.resolve("billing/" + LintConfigLoader.FILE_NAME), "");
        assertThat(LintConfigLoader.find(module))
                .contains(inModule.toAbsolutePath().normalize());
    }

    @Test
    void fileFilterMatchesRelativeToTheFilesDirectory() {
        LintConfig c = LintConfigLoader.parse(
                Path.of("/repo/.pg-advisory-lint.yml"),
                "includes: ['**/src/main/**', 'db/']\nexcludes: ['**/generated/**']\n",
                RULES);
        Predicate<Path> f = c.fileFilter(Path.of("/repo/billing"), false);
        assertThat(f.test(Path.of("/repo/billing/src/main/java/A.java"))).isTrue();
        assertThat(f.test(Path.of("/repo/src/main/java/A.java")))
                .as("leading **/ matches no directory")
                .isTrue();
        assertThat(f.test(Path.of("/repo/db/V1__x.sql")))
                .as("trailing / means everything below")
                .isTrue();
        assertThat(f.test(Path.of("/repo/billing/src/main/java/generated/G.java")))
                .isFalse();
        assertThat(f.test(Path.of("/repo/billing/README.sql"))).isFalse();

        Predicate<Path> noTests = LintConfig.none().fileFilter(Path.of("/repo"), true);
        assertThat(noTests.test(Path.of("/repo/billing/src/test/java/T.java"))).isFalse();
        assertThat(noTests.test(Path.of("/repo/billing/src/main/java/T.java"))).isTrue();
        assertThat(LintConfig.none().fileFilter(Path.of("/repo"), false).test(Path.of("/repo/src/test/T.java")))
                .isTrue();
    }
}
