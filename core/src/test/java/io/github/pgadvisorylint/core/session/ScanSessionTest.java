package io.github.pgadvisorylint.core.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.report.ReportFormat;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan session on small trees with a test rule: path base, baseline, test sources, reports, fail policy. */
class ScanSessionTest {

    /** Reports every advisory-lock call, so each file with one gives exactly one finding. */
    static final class EverySiteRule implements Rule {
        private static final RuleDescriptor DESCRIPTOR = new RuleDescriptor(
                "every-site",
                "EverySite",
                Severity.WARNING,
                "Every lock site.",
                "Reports every advisory-lock call.",
                "# every-site\n",
                List.of("test"));

        @Override
        public RuleDescriptor descriptor() {
            return DESCRIPTOR;
        }

        @Override
        public void check(RuleContext context) {
            for (LockSite s : context.model().sites()) {
                context.report(Severity.WARNING, s, "lock taken here", List.of());
            }
        }
    }

    private static final List<Rule> RULES = List.of(new EverySiteRule());
    private static final String LOCK = "SELECT pg_advisory_lock(42);\n";

    @TempDir
    Path repo;

    private Path write(String relative, String text) throws IOException {
        Path p = repo.resolve(relative);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, text);
    }

    private static ScanRequest.Builder request(Path scanRoot) {
        return ScanRequest.builder(scanRoot, RULES).threads(1);
    }

    private static List<String> paths(ScanOutcome outcome) {
        return outcome.result().findings().stream().map(f -> f.region().path()).toList();
    }

    @Test
    void pathsAreRelativeToTheGitRootAboveTheScannedDirectoryAndSarifSaysSrcroot() throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        write("server/db/V1.sql", LOCK);
        Path sarif = repo.resolve("out/report.sarif");
        ScanOutcome outcome = new ScanSession()
                .run(request(repo.resolve("server/db"))
                        .reports(List.of(new ScanRequest.ReportTarget(ReportFormat.SARIF, sarif)))
                        .build());
        assertThat(outcome.pathBase()).isEqualTo(new PathBase.Choice(repo, PathBase.Origin.GIT_ROOT));
        assertThat(paths(outcome)).containsExactly("server/db/V1.sql");
        assertThat(outcome.report(ReportFormat.SARIF)).isEqualTo(sarif);
        assertThat(Files.readString(sarif))
                .contains("\"uri\": \"server/db/V1.sql\",\n")
                .contains("\"uriBaseId\": \"%SRCROOT%\"")
                .contains("\"originalUriBaseIds\"");
    }

    @Test
    void aGitFileMarksALinkedWorktreeRoot() throws IOException {
        Files.writeString(repo.resolve(".git"), "gitdir: /elsewhere/.git/worktrees/x\n");
        write("server/db/V1.sql", LOCK);
        assertThat(PathBase.gitRoot(repo.resolve("server/db"))).contains(repo);
        assertThat(paths(
                        new ScanSession().run(request(repo.resolve("server/db")).build())))
                .containsExactly("server/db/V1.sql");
    }

    @Test
    void withoutGitTheFallbackThenTheScanRootIsTheBase() throws IOException {
        write("server/db/V1.sql", LOCK);
        Path module = repo.resolve("server/db");
        ScanOutcome reactor =
                new ScanSession().run(request(module).pathBaseFallback(repo).build());
        assertThat(reactor.pathBase().origin()).isEqualTo(PathBase.Origin.FALLBACK);
        assertThat(paths(reactor)).containsExactly("server/db/V1.sql");
        // a fallback that does not hold the scanned directory is passed over
        ScanOutcome alone = new ScanSession()
                .run(request(module).pathBaseFallback(repo.resolve("other")).build());
        assertThat(alone.pathBase()).isEqualTo(new PathBase.Choice(module, PathBase.Origin.SCAN_ROOT));
        assertThat(paths(alone)).containsExactly("V1.sql");
    }

    @Test
    void anExplicitPathBaseWinsAndMustHoldTheScannedDirectory() throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        write("server/db/V1.sql", LOCK);
        ScanOutcome outcome = new ScanSession()
                .run(request(repo.resolve("server/db"))
                        .pathBase(repo.resolve("server"))
                        .build());
        assertThat(outcome.pathBase().origin()).isEqualTo(PathBase.Origin.EXPLICIT);
        assertThat(paths(outcome)).containsExactly("db/V1.sql");
        assertThatThrownBy(() -> new ScanSession()
                        .run(request(repo.resolve("server"))
                                .pathBase(repo.resolve("server/db"))
                                .build()))
                .isInstanceOfSatisfying(
                        ScanException.class,
                        e -> assertThat(e.problem()).isEqualTo(ScanException.Problem.BAD_PATH_BASE))
                .hasMessageContaining("does not contain the scanned directory");
    }

    @Test
    void aBaselineWrittenFromOneRootMatchesFromAnother() throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        write("server/db/V1.sql", LOCK);
        Path baseline = repo.resolve("baseline.json");
        ScanOutcome written = new ScanSession()
                .run(request(repo).writeBaseline(baseline, false).build());
        assertThat(written.summaryNotes()).contains("Baseline written to " + baseline + " (1 entry)");
        ScanOutcome fromModule = new ScanSession()
                .run(request(repo.resolve("server/db"))
                        .baselineFile(baseline)
                        .failPolicy(FailPolicy.atOrAbove(Severity.WARNING))
                        .build());
        assertThat(fromModule.result().findings()).isEmpty();
        assertThat(fromModule.result().suppressed())
                .extracting(f -> f.suppression().justification())
                .containsExactly("accepted in the baseline baseline.json");
        assertThat(fromModule.messages(ScanMessage.Kind.BASELINE)).isEmpty();
        assertThat(fromModule.failed()).isFalse();
    }

    @Test
    void aBaselineThatMatchesNothingSaysSoWithItsFileAndEntryCount() throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        write("server/db/V1.sql", LOCK);
        write("server/db/V2.sql", LOCK);
        Path baseline = repo.resolve("baseline.json");
        // written with the module as base: its paths (and fingerprints) lack the server/db/ prefix
        new ScanSession()
                .run(request(repo.resolve("server/db"))
                        .pathBase(repo.resolve("server/db"))
                        .writeBaseline(baseline, false)
                        .build());
        ScanOutcome outcome = new ScanSession()
                .run(request(repo.resolve("server/db"))
                        .baselineFile(baseline)
                        .display(p -> repo.relativize(p).toString())
                        .failPolicy(FailPolicy.atOrAbove(Severity.WARNING))
                        .build());
        assertThat(outcome.result().findings()).hasSize(2);
        assertThat(outcome.failed()).isTrue();
        assertThat(outcome.messages(ScanMessage.Kind.BASELINE)).singleElement().satisfies(m -> {
            assertThat(m.level()).isEqualTo(ScanMessage.Level.WARNING);
            assertThat(m.text())
                    .startsWith("baseline baseline.json has 2 entries but none matches a finding of this" + " scan")
                    .contains("another path base")
                    .contains("everything it held has been fixed");
        });
        // everything fixed: the same warning, since the baseline now excuses nothing
        Files.delete(repo.resolve("server/db/V1.sql"));
        Files.delete(repo.resolve("server/db/V2.sql"));
        write("server/db/V3.sql", "SELECT 1;\n");
        assertThat(new ScanSession()
                        .run(request(repo.resolve("server/db"))
                                .pathBase(repo.resolve("server/db"))
                                .baselineFile(baseline)
                                .build())
                        .messages(ScanMessage.Kind.BASELINE))
                .hasSize(1);
        // an empty baseline and one that matches say nothing
        Path empty = repo.resolve("empty.json");
        new ScanSession()
                .run(request(repo.resolve("server/db"))
                        .writeBaseline(empty, false)
                        .build());
        assertThat(new ScanSession()
                        .run(request(repo.resolve("server/db"))
                                .baselineFile(empty)
                                .build())
                        .messages(ScanMessage.Kind.BASELINE))
                .isEmpty();
    }

    @Test
    void testSourcesAreLeftOutUnlessIncluded() throws IOException {
        write("src/main/resources/db/V1.sql", LOCK);
        write("src/test/resources/db/fixture.sql", LOCK);
        write("checks/declared.sql", LOCK);
        ScanOutcome byDefault = new ScanSession().run(request(repo).build());
        assertThat(byDefault.includeTests()).isFalse();
        assertThat(paths(byDefault)).containsExactly("checks/declared.sql", "src/main/resources/db/V1.sql");
        assertThat(byDefault.result().filesScanned()).isEqualTo(2);
        ScanOutcome included =
                new ScanSession().run(request(repo).includeTests(true).build());
        assertThat(paths(included)).hasSize(3).contains("src/test/resources/db/fixture.sql");
        // a directory the build declares for tests is a test source too
        ScanOutcome declared = new ScanSession()
                .run(request(repo).testRoots(List.of(repo.resolve("checks"))).build());
        assertThat(paths(declared)).containsExactly("src/main/resources/db/V1.sql");
        // the configuration file's includeTests, and the request's value over it
        write(".pg-advisory-lint.yml", "includeTests: true\n");
        assertThat(paths(new ScanSession().run(request(repo).build()))).hasSize(3);
        assertThat(paths(new ScanSession().run(request(repo).includeTests(false).build())))
                .hasSize(2);
    }

    @Test
    void nothingToScanWritesNothingWhenAsked() throws IOException {
        Path fixture = write("src/test/resources/fixture.sql", LOCK);
        Path sarif = repo.resolve("target/r.sarif");
        ScanOutcome skipped = new ScanSession()
                .run(request(repo)
                        .targets(List.of(fixture))
                        .skipWhenEmpty(true)
                        .reports(List.of(new ScanRequest.ReportTarget(ReportFormat.SARIF, sarif)))
                        .build());
        assertThat(skipped.scanned()).isFalse();
        assertThat(skipped.result()).isNull();
        assertThat(sarif).doesNotExist();
        ScanOutcome withTests = new ScanSession()
                .run(request(repo)
                        .targets(List.of(fixture))
                        .skipWhenEmpty(true)
                        .includeTests(true)
                        .reports(List.of(new ScanRequest.ReportTarget(ReportFormat.SARIF, sarif)))
                        .build());
        assertThat(withTests.scanned()).isTrue();
        assertThat(sarif).exists();
    }

    @Test
    void failPolicyCountsFindingsAtOrAboveTheThresholdBeyondTheAllowance() throws IOException {
        write("a/V1.sql", LOCK);
        write("b/V2.sql", LOCK);
        ScanRequest.Builder r = request(repo);
        assertThat(new ScanSession()
                        .run(r.failPolicy(FailPolicy.atOrAbove(Severity.WARNING))
                                .build()))
                .satisfies(o -> assertThat(o.failing()).isEqualTo(2))
                .satisfies(o -> assertThat(o.failed()).isTrue());
        assertThat(new ScanSession()
                        .run(r.failPolicy(new FailPolicy(Severity.WARNING, 2)).build()))
                .satisfies(o -> assertThat(o.failing()).isEqualTo(2))
                .satisfies(o -> assertThat(o.failed()).isFalse());
        assertThat(new ScanSession()
                        .run(r.failPolicy(FailPolicy.atOrAbove(Severity.ERROR)).build())
                        .failed())
                .isFalse();
        assertThat(new ScanSession().run(r.failPolicy(FailPolicy.NEVER).build()).failing())
                .isZero();
        assertThatThrownBy(() -> new FailPolicy(Severity.ERROR, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A Java file the front end leaves out: type arguments nested past the bound ({@code java-too-deep}). */
    private void writeLeftOutFile() throws IOException {
        write(
                "src/Deep.java",
                "// pg_advisory_lock\nclass Deep { " + "java.util.List<".repeat(120) + "String" + ">".repeat(120)
                        + " x; }\n");
    }

    @Test
    void failOnIncompleteFailsAScanThatLeftSomethingOut() throws IOException {
        write("server/db/V1.sql", LOCK);
        writeLeftOutFile();
        ScanRequest.Builder r = request(repo).failPolicy(FailPolicy.atOrAbove(Severity.ERROR));
        ScanOutcome plain = new ScanSession().run(r.build());
        assertThat(plain.leftOut()).extracting(Notification::kind).containsExactly("java-too-deep");
        assertThat(plain.failed()).isFalse();
        assertThat(plain.incompleteFails()).isFalse();

        ScanOutcome asked = new ScanSession().run(r.failOnIncomplete(true).build());
        assertThat(asked.failed()).isTrue();
        assertThat(asked.incompleteFails()).isTrue();
        assertThat(asked.failing()).isZero();

        // the Maven plugin's default, which an explicit false and the configuration file override
        ScanRequest.Builder maven = request(repo).failOnIncompleteByDefault(true);
        assertThat(new ScanSession().run(maven.build()).incompleteFails()).isTrue();
        assertThat(new ScanSession().run(maven.failOnIncomplete(false).build()).failed())
                .isFalse();
        write(".pg-advisory-lint.yml", "failOnIncomplete: false\n");
        assertThat(new ScanSession()
                        .run(request(repo).failOnIncompleteByDefault(true).build())
                        .incompleteFails())
                .isFalse();
    }

    /**
     * Found by the fourth adversarial pass (issue 27): a lock-using Java file that does not parse, one
     * that holds NUL bytes and a FIFO named {@code .java} were left out, yet {@code --fail-on-incomplete}
     * passed the scan.
     */
    @Test
    void failOnIncompleteFailsOnFilesThatCouldNotBeReadOrParsed() throws IOException {
        write("server/db/V1.sql", LOCK);
        write("src/Broken.java", "class Broken { void f() { s.execute(\"SELECT pg_advisory_lock(1)\"); \n");
        write("src/Binary.java", "class Binary { String s = \"pg_advisory_lock(1)\u0000\"; }\n");
        ScanOutcome o =
                new ScanSession().run(request(repo).failOnIncomplete(true).build());
        assertThat(o.leftOut())
                .extracting(Notification::kind)
                .containsExactlyInAnyOrder("java-parse-error", "binary-file");
        assertThat(o.incompleteFails()).isTrue();
        assertThat(o.failed()).isTrue();
    }

    @Test
    void aCompleteScanNeverFailsOnIncompleteness() throws IOException {
        write("server/db/V1.sql", LOCK);
        ScanOutcome o =
                new ScanSession().run(request(repo).failOnIncomplete(true).build());
        assertThat(o.leftOut()).isEmpty();
        assertThat(o.incompleteFails()).isFalse();
        assertThat(o.failed()).isFalse();
    }

    @Test
    void theSessionPrintsNothingAndReturnsItsMessages() throws IOException {
        write("V1.sql", LOCK);
        write(".pg-advisory-lint.yml", "pooling: none\n");
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ScanOutcome outcome;
        try (PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            System.setErr(capture);
            outcome = new ScanSession()
                    .run(request(repo)
                            .display(p -> repo.relativize(p).toString())
                            .cacheFile(repo.resolve("cache/facts.json"))
                            .reports(List.of(new ScanRequest.ReportTarget(ReportFormat.TEXT, repo.resolve("r.txt"))))
                            .build());
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(outcome.messages())
                .extracting(ScanMessage::kind)
                .containsExactly(ScanMessage.Kind.CONFIGURATION, ScanMessage.Kind.CACHE, ScanMessage.Kind.SUMMARY);
        assertThat(outcome.messages().get(0).text()).isEqualTo("configuration .pg-advisory-lint.yml");
        assertThat(outcome.messages().get(1).text()).isEqualTo("cache cache/facts.json: 0 files reused, 1 analysed");
        assertThat(outcome.messages().get(2).text())
                .startsWith("0 errors, 1 warning, 0 notes in 2 files")
                .endsWith("Configuration: .pg-advisory-lint.yml. Text written to r.txt");
        assertThat(outcome.configUsed()).isEqualTo(".pg-advisory-lint.yml");
    }

    @Test
    void linksLeadingOutOfTheOutputRootAreReplacedWithAWarningAndNothingOutsideIsWritten(@TempDir Path outside)
            throws IOException {
        // issue 27: a committed link at target/pg-advisory-lint made the Maven plugin write cache.json outside
        write("V1.sql", LOCK);
        Path target = Files.createDirectories(repo.resolve("target"));
        Files.createSymbolicLink(target.resolve("pg-advisory-lint"), outside);
        Files.createSymbolicLink(target.resolve("reports"), outside);
        ScanOutcome outcome = new ScanSession()
                .run(request(repo)
                        .display(p -> repo.relativize(p).toString())
                        .cacheFile(target.resolve("pg-advisory-lint/cache.json"))
                        .outputRoot(target)
                        .reports(List.of(
                                new ScanRequest.ReportTarget(ReportFormat.SARIF, target.resolve("reports/r.sarif"))))
                        .build());
        assertThat(outside).isEmptyDirectory();
        assertThat(target.resolve("pg-advisory-lint/cache.json")).isRegularFile();
        assertThat(target.resolve("reports/r.sarif")).isRegularFile();
        assertThat(outcome.messages())
                .filteredOn(m -> m.level() == ScanMessage.Level.WARNING)
                .extracting(ScanMessage::kind, ScanMessage::text)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                ScanMessage.Kind.CACHE,
                                "target/pg-advisory-lint was a symbolic link leading out of target; the link was"
                                        + " replaced by an empty folder, nothing outside was read or written"),
                        org.assertj.core.groups.Tuple.tuple(
                                ScanMessage.Kind.REPORT,
                                "target/reports was a symbolic link leading out of target; the link was replaced"
                                        + " by an empty folder, nothing outside was read or written"));

        // the cache file itself a link leading out: removed before it is read, then written in its place
        Files.delete(target.resolve("pg-advisory-lint/cache.json"));
        Files.createSymbolicLink(target.resolve("pg-advisory-lint/cache.json"), outside.resolve("planted.json"));
        ScanOutcome again = new ScanSession()
                .run(request(repo)
                        .display(p -> repo.relativize(p).toString())
                        .cacheFile(target.resolve("pg-advisory-lint/cache.json"))
                        .outputRoot(target)
                        .build());
        assertThat(outside).isEmptyDirectory();
        assertThat(Files.isSymbolicLink(target.resolve("pg-advisory-lint/cache.json")))
                .isFalse();
        assertThat(again.messages())
                .filteredOn(m -> m.level() == ScanMessage.Level.WARNING)
                .extracting(ScanMessage::text)
                .containsExactly("target/pg-advisory-lint/cache.json was a symbolic link leading out of target;"
                        + " the link was removed (the cache takes its place), nothing outside was read or written");
    }

    @Test
    void aCacheFileThatIsALinkLeadingOutOfItsFolderIsReplacedWithAWarningWithoutAnOutputRoot(@TempDir Path outside)
            throws IOException {
        // the CLI's --cache: no output root, but the replaced link is said, as for a report
        write("V1.sql", LOCK);
        Path cache = Files.createDirectories(repo.resolve("cache")).resolve("facts.json");
        Files.createSymbolicLink(cache, outside.resolve("planted.json"));
        ScanOutcome outcome = new ScanSession()
                .run(request(repo)
                        .display(p -> repo.relativize(p).toString())
                        .cacheFile(cache)
                        .build());
        assertThat(outside).isEmptyDirectory();
        assertThat(cache).isRegularFile();
        assertThat(outcome.messages())
                .filteredOn(m -> m.level() == ScanMessage.Level.WARNING)
                .extracting(ScanMessage::text)
                .containsExactly("cache/facts.json was a symbolic link leading out of its directory; the link was"
                        + " replaced by the cache, nothing outside was written");
    }

    @Test
    void missingOrBrokenInputIsATypedScanException() throws IOException {
        write("V1.sql", LOCK);
        assertThatThrownBy(() -> new ScanSession()
                        .run(request(repo)
                                .baselineFile(repo.resolve("nope.json"))
                                .build()))
                .isInstanceOfSatisfying(
                        ScanException.class,
                        e -> assertThat(e.problem()).isEqualTo(ScanException.Problem.NO_BASELINE_FILE))
                .hasMessage("no such baseline file: " + repo.resolve("nope.json"));
        write("bad.yml", "pooling: sometimes\n");
        assertThatThrownBy(() -> new ScanSession()
                        .run(request(repo).configFile(repo.resolve("bad.yml")).build()))
                .isInstanceOfSatisfying(
                        ScanException.class, e -> assertThat(e.problem()).isEqualTo(ScanException.Problem.BAD_CONFIG));
        // the baseline to write may be missing: it is created
        Path created = repo.resolve("new.json");
        ScanOutcome outcome = new ScanSession()
                .run(request(repo)
                        .baselineFile(created)
                        .writeBaseline(created, false)
                        .build());
        assertThat(created).exists();
        assertThat(outcome.result().suppressed()).extracting(Finding::ruleId).containsExactly("every-site");
    }
}
