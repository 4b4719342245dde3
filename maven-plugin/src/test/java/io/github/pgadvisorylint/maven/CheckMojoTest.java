package io.github.pgadvisorylint.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.report.ReportFormat;
import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SortedSet;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.model.Resource;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugin.descriptor.PluginDescriptorBuilder;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@link CheckMojo} on a hand-built project, without a Maven runtime: output, failure, reports. */
class CheckMojoTest {

    @TempDir
    Path dir;

    /** Records what the mojo logs, one line per call, prefixed like Maven's console. */
    static final class RecordingLog extends SystemStreamLog {
        final List<String> lines = new ArrayList<>();

        @Override
        public void info(CharSequence content) {
            lines.add("[INFO] " + content);
        }

        @Override
        public void warn(CharSequence content) {
            lines.add("[WARNING] " + content);
        }

        @Override
        public void error(CharSequence content) {
            lines.add("[ERROR] " + content);
        }

        @Override
        public void debug(CharSequence content) {
            lines.add("[DEBUG] " + content);
        }
    }

    private final RecordingLog log = new RecordingLog();

    private CheckMojo mojo() {
        return mojo(dir);
    }

    /** @param dir the module's base directory */
    private CheckMojo mojo(Path dir) {
        Model model = new Model();
        model.setGroupId("com.example");
        model.setArtifactId("demo");
        model.setVersion("1");
        Build build = new Build();
        build.setDirectory(dir.resolve("target").toString());
        Resource resources = new Resource();
        resources.setDirectory(dir.resolve("src/main/resources").toString());
        build.addResource(resources);
        Resource testResources = new Resource();
        testResources.setDirectory(dir.resolve("src/test/resources").toString());
        build.addTestResource(testResources);
        model.setBuild(build);
        MavenProject project = new MavenProject(model);
        project.setFile(dir.resolve("pom.xml").toFile());
        project.addCompileSourceRoot(dir.resolve("src/main/java").toString());
        project.addTestCompileSourceRoot(dir.resolve("src/test/java").toString());
        CheckMojo m = new CheckMojo();
        m.project = project;
        m.failOnSeverity = "warning";
        m.formats = List.of("sarif");
        m.outputDirectory = dir.resolve("target").toFile();
        m.printFindings = true;
        m.setLog(log);
        return m;
    }

    private void write(String relative, String text) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private static final String LIMIT_QUERY =
            "SELECT id FROM jobs WHERE status = 'pending' AND pg_try_advisory_lock(id) ORDER BY priority LIMIT 1;\n";

    @Test
    void findingsFailTheBuildWithCountsAndSarifPath() throws IOException {
        write("src/main/resources/db/migration/V2__claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        assertThatThrownBy(m::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessageStartingWith("pg-advisory-lint found 1 finding at or above failOnSeverity=warning"
                        + " (1 error, 0 warnings, 0 notes). SARIF report: ")
                .hasMessageEndingWith("pg-advisory-lint.sarif");
        assertThat(log.lines)
                .anyMatch(
                        l -> l.startsWith(
                                "[ERROR] src/main/resources/db/migration/V2__claim.sql:1:50 [lock-in-limit-query] pg_try_advisory_lock(id)"));
        assertThat(log.lines)
                .anyMatch(l -> l.startsWith("[INFO] pg-advisory-lint: 1 error, 0 warnings, 0 notes in 1 file"));
        assertThat(Files.readString(dir.resolve("target/pg-advisory-lint.sarif")))
                .contains("\"ruleId\": \"lock-in-limit-query\"")
                .contains("\"uri\": \"src/main/resources/db/migration/V2__claim.sql\"");
    }

    @Test
    void failOnSeverityNoneReportsWithoutFailing() throws Exception {
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        m.failOnSeverity = "NONE";
        m.formats = List.of("json,text");
        m.execute();
        assertThat(log.lines)
                .anyMatch(l ->
                        l.startsWith("[WARNING] src/main/resources/db/claim.sql:1:50 error [lock-in-limit-query]"));
        assertThat(dir.resolve("target/pg-advisory-lint.json")).exists();
        assertThat(dir.resolve("target/pg-advisory-lint.txt")).exists();
        assertThat(dir.resolve("target/pg-advisory-lint.sarif")).doesNotExist();
    }

    @Test
    void printFindingsFalseKeepsOnlyTheSummary() throws Exception {
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        m.printFindings = false;
        m.failOnSeverity = "none";
        m.execute();
        assertThat(log.lines).noneMatch(l -> l.contains("[lock-in-limit-query]"));
        assertThat(log.lines).anyMatch(l -> l.startsWith("[INFO] pg-advisory-lint: 1 error,"));
    }

    @Test
    void testRootsOnlyWithIncludeTests() throws Exception {
        write("src/test/resources/fixture.sql", LIMIT_QUERY);
        write("src/main/resources/db/V1__plain.sql", "SELECT 1;\n");
        CheckMojo m = mojo();
        m.execute();
        assertThat(log.lines)
                .anyMatch(l -> l.startsWith("[INFO] pg-advisory-lint: 0 errors, 0 warnings, 0 notes in 1 file"));
        assertThat(Files.readString(dir.resolve("target/pg-advisory-lint.sarif")))
                .contains("\"results\": []");
        m.includeTests = true;
        assertThatThrownBy(m::execute).isInstanceOf(MojoFailureException.class);
    }

    @Test
    void aModuleWithNothingToScanGetsNoReport() throws Exception {
        // a packaging-pom parent, or a module whose only sources are tests: nothing under the main roots
        write("src/test/resources/fixture.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        m.formats = List.of("sarif", "json");
        m.execute();
        assertThat(log.lines.stream().filter(l -> !l.startsWith("[DEBUG]")))
                .containsExactly("[INFO] pg-advisory-lint: nothing to scan in " + m.display(dir)
                        + " (no Java, SQL or configuration file under its source roots); no report written");
        assertThat(dir.resolve("target")).doesNotExist();
        // with its tests included it has something to scan again, so the report comes back
        m.includeTests = true;
        m.failOnSeverity = "none";
        m.execute();
        assertThat(dir.resolve("target/pg-advisory-lint.sarif")).exists();
    }

    @Test
    void failOnViolationFalseReportsWithoutFailing() throws Exception {
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        m.failOnViolation = false;
        m.execute();
        // nothing can fail the build: the error is logged as a warning that names its severity, no [ERROR] line
        assertThat(log.lines)
                .anyMatch(
                        l -> l.startsWith("[WARNING] src/main/resources/db/claim.sql:1:50 error [lock-in-limit-query]"))
                .noneMatch(l -> l.startsWith("[ERROR]"));
        assertThat(dir.resolve("target/pg-advisory-lint.sarif")).exists();
        CheckMojo failing = mojo();
        assertThat(failing.failOnViolation)
                .as("the default fails, as in PMD and Checkstyle")
                .isTrue();
        assertThatThrownBy(failing::execute).isInstanceOf(MojoFailureException.class);
        CheckMojo badSeverity = mojo();
        badSeverity.failOnViolation = false;
        badSeverity.failOnSeverity = "fatal";
        assertThatThrownBy(badSeverity::execute)
                .as("still checked when nothing can fail")
                .isInstanceOf(MojoExecutionException.class);
    }

    @Test
    void maxAllowedViolationsFailsOnlyAboveIt() throws Exception {
        write("src/main/resources/db/V1__claim.sql", LIMIT_QUERY);
        write("src/main/resources/db/V2__claim.sql", LIMIT_QUERY);
        CheckMojo tolerant = mojo();
        tolerant.maxAllowedViolations = 2;
        tolerant.execute();
        assertThat(log.lines)
                .contains("[INFO] pg-advisory-lint: 2 findings at or above failOnSeverity=warning,"
                        + " not more than maxAllowedViolations=2; the build goes on");
        CheckMojo strict = mojo();
        strict.maxAllowedViolations = 1;
        assertThatThrownBy(strict::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessageStartingWith("pg-advisory-lint found 2 findings at or above failOnSeverity=warning,"
                        + " more than maxAllowedViolations=1 (2 errors, 0 warnings, 0 notes).");
        CheckMojo errorsOnly = mojo();
        errorsOnly.failOnSeverity = "error";
        errorsOnly.maxAllowedViolations = 2;
        errorsOnly.execute();
        CheckMojo negative = mojo();
        negative.maxAllowedViolations = -1;
        assertThatThrownBy(negative::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage("pg-advisory-lint: maxAllowedViolations must be 0 or more, not -1");
    }

    /** @return the check goal's execution, described by the descriptor maven-plugin-plugin generated */
    private static MojoExecution checkExecution() throws Exception {
        try (Reader in = Files.newBufferedReader(Path.of("target/classes/META-INF/maven/plugin.xml"))) {
            PluginDescriptor plugin = new PluginDescriptorBuilder().build(in);
            return new MojoExecution(plugin.getMojo("check"));
        }
    }

    @Test
    void knownPropertiesAreEveryGoalsUserProperties() throws Exception {
        SortedSet<String> known =
                AbstractLintMojo.knownProperties(checkExecution().getMojoDescriptor());
        assertThat(known)
                .contains(
                        "pgAdvisoryLint.skip",
                        "pgAdvisoryLint.failOnViolation",
                        "pgAdvisoryLint.maxAllowedViolations",
                        "pgAdvisoryLint.failOnSeverity",
                        "pgAdvisoryLint.threads");
        assertThat(known).contains("pgAdvisoryLint.failOnIncomplete", "pgAdvisoryLint.timeLimit");
        assertThat(known).hasSize(22).allMatch(p -> p.startsWith("pgAdvisoryLint."));
    }

    @Test
    void unknownPluginPropertiesAreNamedWithTheirLikelyMeaning() throws Exception {
        SortedSet<String> known =
                AbstractLintMojo.knownProperties(checkExecution().getMojoDescriptor());
        Properties given = new Properties();
        given.setProperty("pg-advisory-lint.skip", "true");
        given.setProperty("pgAdvisoryLint.failOnViolation", "false");
        given.setProperty("pgadvisorylint.FAILONSEVERITY", "error");
        given.setProperty("pgAdvisoryLint.maxViolations", "3");
        given.setProperty("pmd.skip", "true");
        given.setProperty("pgAdvisoryLintSkip", "true");
        assertThat(AbstractLintMojo.unknownProperties(known, given))
                .containsExactly(
                        "unknown property pg-advisory-lint.skip is ignored; did you mean pgAdvisoryLint.skip?",
                        "unknown property pgAdvisoryLint.maxViolations is ignored; the known ones are "
                                + String.join(", ", known),
                        "unknown property pgadvisorylint.FAILONSEVERITY is ignored; did you mean pgAdvisoryLint.failOnSeverity?");
    }

    @Test
    void executeWarnsAboutAnUnknownPropertyAndRunsOn() throws Exception {
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        m.mojoExecution = checkExecution();
        m.failOnSeverity = "none";
        String property = "pg-advisory-lint.failOnSeverity";
        System.setProperty(property, "error");
        try {
            m.execute();
        } finally {
            System.clearProperty(property);
        }
        assertThat(log.lines.get(0))
                .isEqualTo("[WARNING] pg-advisory-lint: unknown property " + property
                        + " is ignored; did you mean pgAdvisoryLint.failOnSeverity?");
        assertThat(log.lines).anyMatch(l -> l.startsWith("[INFO] pg-advisory-lint: 1 error,"));
    }

    /**
     * An unparsable lock-using file is a warning, never a finding; it was left out of the analysis, so
     * the default {@code failOnIncomplete} fails the build on it (issue 27: a gate must not pass on a
     * partial analysis), and with {@code failOnIncomplete} off the build passes.
     */
    @Test
    void unparsableFilesAreWarningsThatFailOnlyAsIncomplete() throws Exception {
        write("src/main/java/a/Broken.java", "class Broken { void f( { \"SELECT pg_advisory_lock(1)\" }\n");
        CheckMojo m = mojo();
        m.failOnSeverity = "note";
        assertThatThrownBy(m::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessageStartingWith("pg-advisory-lint left 1 part of the input out of the analysis"
                        + " (java-parse-error at src/main/java/a/Broken.java:1)");
        log.lines.clear();
        CheckMojo off = mojo();
        off.failOnSeverity = "note";
        off.failOnIncomplete = false;
        off.execute();
        assertThat(log.lines)
                .anyMatch(l -> l.startsWith("[WARNING] src/main/java/a/Broken.java:1:")
                        && l.contains("[tool:java-parse-error]"));
    }

    @Test
    void aFileLeftOutOfTheAnalysisFailsTheBuildUnlessFailOnIncompleteIsOff() throws Exception {
        // type arguments nested past the bound: the front end leaves the file out (java-too-deep)
        write(
                "src/main/java/a/Deep.java",
                "// pg_advisory_lock\nclass Deep { " + "java.util.List<".repeat(120) + "String" + ">".repeat(120)
                        + " x; }\n");
        CheckMojo m = mojo();
        assertThatThrownBy(m::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessageStartingWith(
                        "pg-advisory-lint left 1 part of the input out of the analysis (java-too-deep at"
                                + " src/main/java/a/Deep.java:")
                .hasMessageContaining("failOnIncomplete is on");
        CheckMojo off = mojo();
        off.failOnIncomplete = false;
        off.execute();
        assertThat(log.lines).anyMatch(l -> l.contains("[tool:java-too-deep]"));
    }

    @Test
    void aTimeLimitOutOfRangeIsAConfigurationError() throws IOException {
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        m.timeLimit = 0;
        assertThatThrownBy(m::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining("timeLimit must be a whole number of seconds from 1 to 86400, not 0");
    }

    @Test
    void skipDoesNothing() throws Exception {
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        m.skip = true;
        m.execute();
        assertThat(log.lines).containsExactly("[INFO] pg-advisory-lint: skipped (pgAdvisoryLint.skip)");
        assertThat(dir.resolve("target")).doesNotExist();
    }

    @Test
    void badParameterValuesAreConfigurationErrors() {
        CheckMojo m = mojo();
        m.failOnSeverity = "fatal";
        assertThatThrownBy(m::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage("pg-advisory-lint: failOnSeverity must be error, warning, note or none, not 'fatal'");
        CheckMojo m2 = mojo();
        m2.formats = List.of("sarif", "pdf");
        assertThatThrownBy(m2::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage(
                        "pg-advisory-lint: formats must be among text, sarif, json, github, checkstyle, markdown, html,"
                                + " not 'pdf'");
        CheckMojo m3 = mojo();
        m3.excludes = List.of("src/{a");
        assertThatThrownBy(m3::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageStartingWith("pg-advisory-lint: excludes pattern 'src/{a' is not a valid glob");
    }

    @Test
    void reportFileNames() throws MojoExecutionException {
        assertThat(AbstractLintMojo.reportFormats(List.of("SARIF", "json", "sarif", "text")))
                .containsExactly(ReportFormat.SARIF, ReportFormat.JSON, ReportFormat.TEXT);
        assertThat(AbstractLintMojo.reportFileName(ReportFormat.TEXT)).isEqualTo("pg-advisory-lint.txt");
        assertThat(AbstractLintMojo.reportFileName(ReportFormat.SARIF)).isEqualTo("pg-advisory-lint.sarif");
        assertThat(new File(AbstractLintMojo.reportFileName(ReportFormat.JSON)).getName())
                .isEqualTo("pg-advisory-lint.json");
    }

    @Test
    void configurationFileSwitchesRulesAndParametersWinOverIt() throws Exception {
        write("src/main/resources/db/migration/V2__claim.sql", LIMIT_QUERY);
        write(".git/HEAD", "ref: refs/heads/main\n");
        write(".pg-advisory-lint.yml", "rules:\n  lock-in-limit-query: note\nincludeTests: true\n");
        CheckMojo m = mojo();
        m.execute();
        assertThat(log.lines)
                .anyMatch(l -> l.startsWith(
                        "[INFO] src/main/resources/db/migration/V2__claim.sql:1:50" + " [lock-in-limit-query]"));
        assertThat(m.includeTests()).as("from the file").isTrue();
        CheckMojo explicit = mojo();
        explicit.includeTests = false;
        explicit.execute();
        assertThat(explicit.includeTests()).as("the parameter wins").isFalse();
    }

    @Test
    void badConfigurationIsAnExecutionErrorNamingFileAndLine() throws Exception {
        write("cfg/lint.yml", "pooling: sometimes\n");
        CheckMojo m = mojo();
        m.configFile = dir.resolve("cfg/lint.yml").toFile();
        assertThatThrownBy(m::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage("pg-advisory-lint: " + dir.resolve("cfg/lint.yml") + ":1:10: pooling: 'sometimes' is not"
                        + " allowed (allowed: auto, transaction, statement, session, none)");
        CheckMojo missing = mojo();
        missing.configFile = dir.resolve("cfg/none.yml").toFile();
        assertThatThrownBy(missing::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageStartingWith("pg-advisory-lint: no such configuration file: ");
    }

    @Test
    void baselineIsWrittenThenAppliedAndNewFindingsStillFail() throws Exception {
        write("src/main/resources/db/migration/V2__claim.sql", LIMIT_QUERY);
        File baseline = dir.resolve("pg-advisory-lint-baseline.json").toFile();
        CheckMojo missing = mojo();
        missing.baseline = baseline;
        assertThatThrownBy(missing::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining("no such baseline file");

        CheckMojo record = mojo();
        record.baseline = baseline;
        record.updateBaseline = true;
        record.execute();
        assertThat(Files.readString(baseline.toPath())).contains("\"ruleId\": \"lock-in-limit-query\"");

        write("src/main/resources/db/migration/V2__claim.sql", "-- a comment first\n\n\n" + LIMIT_QUERY);
        CheckMojo moved = mojo();
        moved.baseline = baseline;
        moved.execute();
        assertThat(log.lines).anyMatch(l -> l.contains("1 suppressed"));

        write("src/main/resources/db/migration/V3__claim.sql", LIMIT_QUERY);
        CheckMojo added = mojo();
        added.baseline = baseline;
        assertThatThrownBy(added::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessageStartingWith("pg-advisory-lint found 1 finding");
    }

    @Test
    void newFormatsAreWrittenAsFiles() throws Exception {
        write("src/main/resources/db/migration/V2__claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        m.formats = List.of("checkstyle,markdown,github");
        m.failOnSeverity = "none";
        m.execute();
        assertThat(Files.readString(dir.resolve("target/pg-advisory-lint-checkstyle.xml")))
                .contains("<checkstyle");
        assertThat(Files.readString(dir.resolve("target/pg-advisory-lint.md"))).startsWith("## pg-advisory-lint");
        assertThat(Files.readString(dir.resolve("target/pg-advisory-lint-github.txt")))
                .startsWith("::error file=");
    }

    @Test
    void aReportPathCommittedAsALinkNeverWritesOutsideTheProject(@TempDir Path outside) throws Exception {
        // issue 19: a repository that commits target/pg-advisory-lint.sarif as a symbolic link must not
        // make the build overwrite (or, dangling, create) a file elsewhere
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        Path victim = Files.writeString(outside.resolve("victim.txt"), "precious\n");
        Files.createDirectories(dir.resolve("target"));
        Files.createSymbolicLink(dir.resolve("target/pg-advisory-lint.sarif"), victim);
        Files.createSymbolicLink(dir.resolve("target/pg-advisory-lint.txt"), outside.resolve("planted.txt"));
        CheckMojo m = mojo();
        m.formats = List.of("sarif,text");
        m.failOnSeverity = "none";
        m.execute();
        assertThat(Files.readString(victim)).isEqualTo("precious\n");
        assertThat(outside.resolve("planted.txt")).doesNotExist();
        assertThat(Files.isSymbolicLink(dir.resolve("target/pg-advisory-lint.sarif")))
                .isFalse();
        assertThat(Files.readString(dir.resolve("target/pg-advisory-lint.sarif")))
                .contains("lock-in-limit-query");
        assertThat(log.lines)
                .anyMatch(l -> l.startsWith("[WARNING] pg-advisory-lint: ")
                        && l.contains("pg-advisory-lint.sarif was a symbolic link leading out of"));
    }

    @Test
    void aCacheFolderCommittedAsALinkNeverMakesTheBuildWriteOutside(@TempDir Path outside) throws Exception {
        // issue 27: a committed link at target/pg-advisory-lint made check write cache.json outside the project
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        Files.createDirectories(dir.resolve("target"));
        Files.createSymbolicLink(dir.resolve("target/pg-advisory-lint"), outside);
        Files.createSymbolicLink(dir.resolve("target/reports"), outside);
        CheckMojo m = mojo();
        m.useCache = true;
        m.cacheFile = dir.resolve("target/pg-advisory-lint/cache.json").toFile();
        m.outputDirectory = dir.resolve("target/reports").toFile();
        m.failOnSeverity = "none";
        m.execute();
        assertThat(outside).isEmptyDirectory();
        assertThat(Files.isSymbolicLink(dir.resolve("target/pg-advisory-lint"))).isFalse();
        assertThat(dir.resolve("target/pg-advisory-lint/cache.json")).isRegularFile();
        assertThat(dir.resolve("target/reports/pg-advisory-lint.sarif")).isRegularFile();
        // paths as the plugin shows them: relative to where the build started, absolute in this test
        String target = m.display(dir.resolve("target"));
        assertThat(log.lines)
                .filteredOn(l -> l.startsWith("[WARNING] pg-advisory-lint:"))
                .containsExactly(
                        "[WARNING] pg-advisory-lint: " + m.display(dir.resolve("target/pg-advisory-lint"))
                                + " was a symbolic link leading out of " + target + "; the link was replaced by an"
                                + " empty folder, nothing outside was read or written",
                        "[WARNING] pg-advisory-lint: " + m.display(dir.resolve("target/reports"))
                                + " was a symbolic link leading out of " + target + "; the link was replaced by an"
                                + " empty folder, nothing outside was read or written");
    }

    @Test
    void aThreadCountBeyondTheMachineIsCappedWithAWarning() throws Exception {
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo();
        m.failOnSeverity = "none";
        m.threads = 150_000;
        assertThat(m.threadCount()).isEqualTo(Analyzer.maxThreads());
        m.execute();
        assertThat(log.lines)
                .anyMatch(l -> l.equals("[WARNING] pg-advisory-lint: threads 150000 is more than this"
                        + " machine can use; using " + Analyzer.maxThreads()
                        + " (4 per processor)"));
        m.threads = 0;
        assertThatThrownBy(m::threadCount)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining("threads must be at least 1");
    }

    @Test
    void theConfigurationUsedIsLoggedAndNamedInTheReports() throws Exception {
        write("src/main/resources/db/claim.sql", LIMIT_QUERY);
        write(".pg-advisory-lint.yml", "rules:\n  lock-in-limit-query: note\n");
        CheckMojo m = mojo();
        m.formats = List.of("sarif,text");
        m.execute();
        assertThat(log.lines)
                .contains("[INFO] pg-advisory-lint: configuration " + dir.resolve(".pg-advisory-lint.yml"));
        assertThat(Files.readString(dir.resolve("target/pg-advisory-lint.sarif")))
                .contains("\"configurationFile\": \".pg-advisory-lint.yml\"");
        assertThat(Files.readString(dir.resolve("target/pg-advisory-lint.txt")))
                .contains("Configuration: .pg-advisory-lint.yml");
    }

    @Test
    void aModuleReportsPathsFromTheGitRootUnlessPathBaseSaysOtherwise() throws Exception {
        write(".git/HEAD", "ref: refs/heads/main\n");
        write("billing/src/main/resources/db/claim.sql", LIMIT_QUERY);
        CheckMojo m = mojo(dir.resolve("billing"));
        m.failOnSeverity = "none";
        m.execute();
        String sarif = Files.readString(dir.resolve("billing/target/pg-advisory-lint.sarif"));
        assertThat(sarif)
                .contains("\"uri\": \"billing/src/main/resources/db/claim.sql\",\n")
                .contains("\"uriBaseId\": \"%SRCROOT%\"");
        assertThat(log.lines)
                .anyMatch(l -> l.startsWith("[WARNING] billing/src/main/resources/db/claim.sql:1:50 error"));
        CheckMojo chosen = mojo(dir.resolve("billing"));
        chosen.failOnSeverity = "none";
        chosen.pathBase = dir.resolve("billing").toFile();
        chosen.execute();
        assertThat(Files.readString(dir.resolve("billing/target/pg-advisory-lint.sarif")))
                .contains("\"uri\": \"src/main/resources/db/claim.sql\",\n");
        CheckMojo outside = mojo(dir.resolve("billing"));
        outside.pathBase = dir.resolve("billing/src").toFile();
        assertThatThrownBy(outside::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining("pathBase: path base")
                .hasMessageContaining("does not contain the scanned directory");
    }

    @Test
    void aBaselineThatMatchesNothingIsAWarningInTheLog() throws Exception {
        write(".git/HEAD", "ref: refs/heads/main\n");
        write("billing/src/main/resources/db/claim.sql", LIMIT_QUERY);
        Path baseline = dir.resolve("baseline.json");
        CheckMojo writer = mojo(dir.resolve("billing"));
        // written with the module as base, as before issue 17: its paths lack the billing/ prefix
        writer.pathBase = dir.resolve("billing").toFile();
        writer.baseline = baseline.toFile();
        writer.updateBaseline = true;
        writer.execute();
        CheckMojo m = mojo(dir.resolve("billing"));
        m.baseline = baseline.toFile();
        assertThatThrownBy(m::execute).isInstanceOf(MojoFailureException.class);
        assertThat(log.lines)
                .anyMatch(l -> l.startsWith("[WARNING] pg-advisory-lint: baseline ")
                        && l.contains("baseline.json has 1 entry but none matches a finding of this scan"));
    }
}
