package io.github.pgadvisorylint.maven;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.analysis.TimeLimitExceededException;
import io.github.pgadvisorylint.core.config.LintConfig;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.report.ReportFormat;
import io.github.pgadvisorylint.core.report.TerminalText;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.core.session.FailPolicy;
import io.github.pgadvisorylint.core.session.PathBase;
import io.github.pgadvisorylint.core.session.ScanException;
import io.github.pgadvisorylint.core.session.ScanMessage;
import io.github.pgadvisorylint.core.session.ScanOutcome;
import io.github.pgadvisorylint.core.session.ScanRequest;
import io.github.pgadvisorylint.core.session.ScanSession;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceConfigurationError;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.WeakHashMap;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Resource;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.MojoDescriptor;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.configuration.PlexusConfiguration;

/**
 * What {@code check} and {@code aggregate} share: the parameters, mapped onto a core
 * {@link ScanRequest} (the rules on the plugin's own class path, the modules' source roots), the
 * rendering of the {@link ScanSession}'s outcome through the Maven log, and the build failure. The
 * session does the rest, as for the CLI. Subclasses say which modules are scanned and which directory
 * is the scan root.
 */
public abstract class AbstractLintMojo extends AbstractMojo {

    /** Base name of every report file: {@code pg-advisory-lint.sarif}, {@code .json}, {@code .txt}. */
    public static final String REPORT_BASE_NAME = "pg-advisory-lint";

    /** Skips the analysis entirely: no report is written and the build never fails because of this plugin. */
    @Parameter(property = "pgAdvisoryLint.skip", defaultValue = "false")
    boolean skip;

    /**
     * The lowest finding severity that fails the build: {@code error}, {@code warning}, {@code note},
     * or {@code none} to report without ever failing. Unreadable or unparsable files never fail the build.
     */
    @Parameter(property = "pgAdvisoryLint.failOnSeverity", defaultValue = "warning")
    String failOnSeverity;

    /**
     * Whether findings at or above {@code failOnSeverity} fail the build, as PMD and Checkstyle name
     * it: {@code false} reports them without failing, like {@code failOnSeverity=none}.
     */
    @Parameter(property = "pgAdvisoryLint.failOnViolation", defaultValue = "true")
    boolean failOnViolation = true;

    /**
     * How many findings at or above {@code failOnSeverity} the build tolerates, as PMD names it: the
     * build fails only when there are more. Suppressed and baselined findings are not counted.
     */
    @Parameter(property = "pgAdvisoryLint.maxAllowedViolations", defaultValue = "0")
    int maxAllowedViolations;

    /**
     * Also analyses test sources: the test source roots and test resource directories, and files under
     * {@code src/test/} and the like ({@link io.github.pgadvisorylint.core.discovery.TestSources}, the same
     * definition as the CLI's {@code --include-tests}). Unset: the configuration file's
     * {@code includeTests}, else {@code false}.
     */
    @Parameter(property = "pgAdvisoryLint.includeTests")
    Boolean includeTests;

    /**
     * Whether the build fails when a file, method or rule was left out of the analysis over a bound (a
     * {@code method-budget}, {@code file-too-large}, {@code java-too-deep}, {@code internal-error} or
     * {@code rule-failure} notification), so a gate never passes on a partial analysis. Unset: the
     * configuration file's {@code failOnIncomplete}, else {@code true}.
     */
    @Parameter(property = "pgAdvisoryLint.failOnIncomplete")
    Boolean failOnIncomplete;

    /**
     * The wall-clock safety limit in seconds: when one file (in one phase), the whole-program lock paths or one rule runs longer, the
     * build fails with no report, so that no verdict depends on the machine's speed. Unset: the
     * configuration file's {@code timeLimit}, else 300.
     */
    @Parameter(property = "pgAdvisoryLint.timeLimit")
    Integer timeLimit;

    /**
     * Globs of files to analyse, relative to each module's base directory, e.g.
     * {@code src/main/resources/db/**}; empty means every Java, SQL and configuration file under the
     * source roots and resource directories. Syntax: java.nio glob ({@code *}, {@code ?},
     * {@code **}, {@code {a,b}}); a leading {@code **}{@code /} also matches no directory.
     */
    @Parameter(property = "pgAdvisoryLint.includes")
    List<String> includes;

    /** Globs of files not to analyse, relative to each module's base directory; same syntax as {@code includes}. */
    @Parameter(property = "pgAdvisoryLint.excludes")
    List<String> excludes;

    /**
     * Report files to write into {@code outputDirectory}, any of {@code sarif}
     * ({@code pg-advisory-lint.sarif}, SARIF 2.1.0), {@code json} ({@code pg-advisory-lint.json}),
     * {@code text} ({@code pg-advisory-lint.txt}), {@code checkstyle} ({@code pg-advisory-lint-checkstyle.xml}),
     * {@code markdown} ({@code pg-advisory-lint.md}) and {@code github} ({@code pg-advisory-lint-github.txt},
     * workflow commands to {@code cat} in a later step). Files are replaced atomically.
     */
    @Parameter(property = "pgAdvisoryLint.formats", defaultValue = "sarif")
    List<String> formats;

    /**
     * The incremental-analysis cache: facts of unchanged files (by content hash) are reused from it and
     * this run's facts written back, so a build of an unchanged module only re-runs the rules. The
     * findings are the same as without it. An unreadable cache is ignored with a warning. Below the build
     * directory, a symbolic link on its way (or the file itself) that leads out of the build directory is
     * replaced with a warning: nothing outside is read or written.
     */
    @Parameter(
            property = "pgAdvisoryLint.cacheFile",
            defaultValue = "${project.build.directory}/pg-advisory-lint/cache.json")
    File cacheFile;

    /** Whether to use {@link #cacheFile}. */
    @Parameter(property = "pgAdvisoryLint.useCache", defaultValue = "true")
    boolean useCache;

    /**
     * Directory the report files are written to; created when missing. Below the build directory, a
     * symbolic link on the way to a report that leads out of the build directory is replaced with a
     * warning, as a report that is itself such a link is.
     */
    @Parameter(property = "pgAdvisoryLint.outputDirectory", defaultValue = "${project.build.directory}")
    File outputDirectory;

    /**
     * Prints each finding through the build log ({@code [ERROR] path:line:col [rule-id] message});
     * when false only the summary line (and the failure) is printed.
     */
    @Parameter(property = "pgAdvisoryLint.printFindings", defaultValue = "true")
    boolean printFindings;

    /**
     * How connections reach PostgreSQL: {@code auto} reads the project's configuration (PgBouncer ini,
     * {@code POOL_MODE}, JDBC URLs on port 6432 or 6543); {@code transaction}, {@code statement},
     * {@code session} or {@code none} override it. Unset: the configuration file's {@code pooling},
     * else {@code auto}.
     */
    @Parameter(property = "pgAdvisoryLint.pooling")
    String pooling;

    /**
     * The configuration file. Unset: the first {@code .pg-advisory-lint.yml} in the project's base
     * directory or a directory above it, up to the repository root (the first directory holding
     * {@code .git}, {@code .hg} or {@code .svn}); outside a repository, up to the directory the build
     * started in. The file used is logged and named in the reports. Parameters given in the POM or on
     * the command line win over it.
     */
    @Parameter(property = "pgAdvisoryLint.configFile")
    File configFile;

    /**
     * The directory every reported path is relative to (SARIF {@code %SRCROOT%}, baseline entries,
     * fingerprints); it must contain the scanned directory. Unset: the git root above the module (the
     * nearest directory holding {@code .git}), else the reactor's root directory, else the scanned
     * directory, so a module's findings carry repository-relative paths GitHub code scanning can place.
     */
    @Parameter(property = "pgAdvisoryLint.pathBase")
    File pathBase;

    /**
     * A baseline file (the CLI's {@code --baseline}): findings it holds are not reported and do not
     * fail the build. Entries are keyed by fingerprint; paths are relative to the path base (by default
     * the repository root), so the CLI and the goals of every module share one baseline. A baseline
     * none of whose entries matches is reported with a warning.
     */
    @Parameter(property = "pgAdvisoryLint.baseline")
    File baseline;

    /**
     * Writes {@code baseline}: when it does not exist, it records every current finding; when it
     * exists, it only loses the entries that no longer occur (add {@code baselineRecordAll} to
     * accept the new findings too). Findings it then holds do not fail the build.
     */
    @Parameter(property = "pgAdvisoryLint.updateBaseline", defaultValue = "false")
    boolean updateBaseline;

    /** With {@code updateBaseline}: also add current findings the baseline does not hold yet. */
    @Parameter(property = "pgAdvisoryLint.baselineRecordAll", defaultValue = "false")
    boolean baselineRecordAll;

    /**
     * Keeps suppressed findings (in-source suppressions and baseline entries) in the SARIF report,
     * with {@code result.suppressions} (SARIF 2.1.0 §3.27.23), and in the JSON report. GitHub code
     * scanning ignores {@code suppressions}, so leave this off for uploads.
     */
    @Parameter(property = "pgAdvisoryLint.showSuppressed", defaultValue = "false")
    boolean showSuppressed;

    /**
     * Parsing threads. Unset: one per available processor. At most 4 per processor: a larger value is
     * capped with a warning. Findings never depend on it.
     */
    @Parameter(property = "pgAdvisoryLint.threads")
    Integer threads;

    /** The configuration the last {@link #execute()} used ({@link LintConfig#none()} before). */
    private LintConfig config = LintConfig.none();

    /** The project the goal runs on. */
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    /** The build session (the reactor's projects, the directory Maven was started in). */
    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    /** This goal's execution: its plugin descriptor lists every goal's user properties. */
    @Parameter(defaultValue = "${mojoExecution}", readonly = true)
    MojoExecution mojoExecution;

    /** The requests (one per build) whose unknown properties were already warned about. */
    private static final Map<Object, Boolean> WARNED = Collections.synchronizedMap(new WeakHashMap<>());

    /** How the plugin's user properties start; {@code pg-advisory-lint.} is the guess to catch. */
    static final List<String> PROPERTY_PREFIXES = List.of("pgadvisorylint.", "pg-advisory-lint.");

    /** What one goal scans. */
    record Scope(Path root, List<SourceSelection.Module> modules) {}

    /**
     * @return the scan root (the configuration's globs and test directories are judged below it) and the
     *     modules to scan
     * @throws MojoExecutionException when the scope cannot be determined
     */
    abstract Scope scope() throws MojoExecutionException;

    /** @return true when this execution has nothing to do (besides {@code skip}), after logging why */
    boolean notThisProject() {
        return false;
    }

    /** @return words after "found N findings" that say what was scanned when it is not this module; empty here */
    String scopeWords() {
        return "";
    }

    /**
     * @return the project whose directories hold this goal's outputs, cache and configuration search:
     *     {@link #project}, except for a goal that runs for the whole reactor in one of its modules
     */
    MavenProject home() {
        return project;
    }

    /**
     * A path parameter as the POM meant it: when this goal runs in a module for another project
     * ({@link #home()}), a path inside the module's base directory (as {@code ${project.basedir}} or
     * {@code ${project.build.directory}} gave it there) is moved to the same place in the home
     * project's; any other path is kept.
     *
     * @param file the parameter's value, or null
     * @return the absolute, normalized path, or null for null
     */
    Path rebased(File file) {
        if (file == null) {
            return null;
        }
        Path path = file.toPath().toAbsolutePath().normalize();
        MavenProject home = home();
        if (home == project || project == null || project.getBasedir() == null || home.getBasedir() == null) {
            return path;
        }
        Path module = project.getBasedir().toPath().toAbsolutePath().normalize();
        Path target = home.getBasedir().toPath().toAbsolutePath().normalize();
        if (!path.startsWith(module) || module.equals(target)) {
            return path;
        }
        Path moved = target.resolve(module.relativize(path));
        getLog().debug(ToolInfo.NAME + ": " + path + " is read as " + moved + " (the parameter's place in "
                + home.getArtifactId() + ")");
        return moved;
    }

    /**
     * Runs the analysis, writes the reports, prints the findings and decides the build's fate.
     *
     * @throws MojoExecutionException for a configuration error (a bad parameter value), an
     *                                unwritable report or an internal failure of the analysis
     * @throws MojoFailureException   when more than {@code maxAllowedViolations} findings are at or
     *                                above {@code failOnSeverity} (and {@code failOnViolation}); the
     *                                message names the counts and the SARIF file
     */
    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        warnUnknownProperties();
        if (skip) {
            getLog().info(ToolInfo.NAME + ": skipped (pgAdvisoryLint.skip)");
            return;
        }
        if (notThisProject()) {
            return;
        }
        Severity threshold = threshold(failOnSeverity);
        if (!failOnViolation) {
            threshold = null;
        }
        if (maxAllowedViolations < 0) {
            throw new MojoExecutionException(
                    ToolInfo.NAME + ": maxAllowedViolations must be 0 or more, not " + maxAllowedViolations);
        }
        ScanOutcome outcome = scan(reportFormats(formats), new FailPolicy(threshold, maxAllowedViolations));
        if (outcome == null) {
            return;
        }
        AnalysisResult result = outcome.result();
        LogReport.print(result, getLog(), printFindings, threshold);
        outcome.messages(ScanMessage.Kind.SUMMARY).forEach(this::log);

        if (outcome.failed()) {
            throw new MojoFailureException(
                    outcome.incompleteFails() && outcome.failing() <= maxAllowedViolations
                            ? incompleteMessage(outcome)
                            : failureMessage(result, threshold, outcome.report(ReportFormat.SARIF)));
        }
        if (outcome.failing() > 0) {
            getLog().info(ToolInfo.NAME + ": " + plural(outcome.failing(), "finding") + " at or above failOnSeverity="
                    + threshold.sarifLevel() + ", not more than maxAllowedViolations=" + maxAllowedViolations
                    + "; the build goes on");
        }
    }

    /**
     * What one scan gave.
     *
     * @param result     the findings after in-source suppressions and the baseline
     * @param configUsed the configuration file used, relative to the path base, or null for none
     * @param notes      lines for the summary: the configuration file, the baseline written
     */
    record Scan(AnalysisResult result, String configUsed, List<String> notes) {}

    /**
     * The scan every goal shares ({@code check}, {@code aggregate}, and {@code report} through a
     * {@link CheckMojo} it configures), without report files and without a failure decision.
     *
     * @return the scan, or null when there is nothing to scan (logged)
     * @throws MojoExecutionException for a configuration error or an internal failure of the analysis
     */
    Scan scan() throws MojoExecutionException {
        ScanOutcome outcome = scan(List.of(), FailPolicy.NEVER);
        return outcome == null ? null : new Scan(outcome.result(), outcome.configUsed(), outcome.summaryNotes());
    }

    /**
     * Maps the parameters onto a {@link ScanRequest}, runs the {@link ScanSession} (rules, configuration,
     * files of {@link #scope()}, path base, cache, baseline, report files into {@code outputDirectory})
     * and logs its messages but the summary.
     *
     * @param reportFormats the report files to write
     * @param policy        when the scan fails
     * @return the outcome, or null when there is nothing to scan (logged)
     * @throws MojoExecutionException for a configuration error, an unwritable file or an internal failure
     */
    ScanOutcome scan(List<ReportFormat> reportFormats, FailPolicy policy) throws MojoExecutionException {
        List<Rule> rules = loadRules();
        PoolingSetting poolingSetting;
        try {
            poolingSetting = pooling == null || pooling.isBlank() ? null : PoolingSetting.parse(pooling);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": pooling: " + e.getMessage());
        }
        if (baselineRecordAll && !updateBaseline) {
            throw new MojoExecutionException(ToolInfo.NAME + ": baselineRecordAll needs updateBaseline=true");
        }
        if (updateBaseline && baseline == null) {
            throw new MojoExecutionException(
                    ToolInfo.NAME + ": updateBaseline needs the baseline parameter (the file to write)");
        }
        SourceSelection selection;
        try {
            selection = new SourceSelection(nonNull(includes), nonNull(excludes));
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": " + e.getMessage(), e);
        }
        int threadCount = threadCount();
        Scope scope = scope();
        PathBase.Choice base;
        try {
            base = PathBase.choose(pathBase == null ? null : pathBase.toPath(), scope.root(), reactorRoot());
        } catch (ScanException e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": pathBase: " + e.getMessage(), e);
        }
        SourceSelection.Result chosen = selection.select(scope.modules(), base.directory());
        for (Path skipped : chosen.skippedRoots()) {
            getLog().debug(ToolInfo.NAME + ": not scanning generated sources in " + skipped);
        }
        getLog().debug(ToolInfo.NAME + ": scanning " + chosen.roots() + " ("
                + chosen.files().size()
                + " files) of " + scope.root() + ", paths relative to " + base.directory()
                + " (" + base.origin() + ")");

        Path dir = rebased(outputDirectory);
        Path baselinePath = rebased(baseline);
        List<Path> testRoots = new ArrayList<>();
        scope.modules().forEach(m -> testRoots.addAll(m.testRoots()));
        ScanRequest request = ScanRequest.builder(scope.root(), rules)
                .targets(chosen.files())
                .extraNotifications(chosen.notifications())
                .threads(threadCount)
                .pathBase(base.directory())
                .configFile(rebased(configFile))
                .configSearch(configSearchStart(), executionRoot())
                .pooling(poolingSetting)
                .includeTests(includeTests)
                .testRoots(testRoots)
                .cacheFile(useCache ? rebased(cacheFile) : null)
                .outputRoot(buildDirectory())
                .baselineFile(baselinePath)
                .writeBaseline(updateBaseline ? baselinePath : null, baselineRecordAll)
                .showSuppressed(showSuppressed)
                .reports(reportFormats.stream()
                        .map(f -> new ScanRequest.ReportTarget(f, dir.resolve(reportFileName(f))))
                        .toList())
                .failPolicy(policy)
                .failOnIncomplete(failOnIncomplete)
                .failOnIncompleteByDefault(true)
                .timeLimit(timeLimit())
                .skipWhenEmpty(true)
                .display(this::display)
                .build();
        ScanOutcome outcome;
        try {
            outcome = new ScanSession().run(request);
        } catch (ScanException e) {
            String hint = e.problem() == ScanException.Problem.NO_BASELINE_FILE
                    ? " (create it with" + " -DpgAdvisoryLint.updateBaseline=true or the CLI's --write-baseline)"
                    : "";
            throw new MojoExecutionException(ToolInfo.NAME + ": " + e.getMessage() + hint, e);
        } catch (TimeLimitExceededException e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new MojoExecutionException(
                    ToolInfo.NAME + ": internal error: " + e + ". This is a bug; please" + " report it at "
                            + ToolInfo.INFORMATION_URI + "/issues",
                    e);
        }
        config = outcome.config();
        for (ScanMessage m : outcome.messages()) {
            if (m.kind() != ScanMessage.Kind.SUMMARY) {
                log(m);
            }
        }
        if (!outcome.scanned()) {
            getLog().info(ToolInfo.NAME + ": nothing to scan in " + display(scope.root())
                    + " (no Java, SQL or configuration file under its source roots); no report written");
            return null;
        }
        return outcome;
    }

    private void log(ScanMessage m) {
        if (m.level() == ScanMessage.Level.WARNING) {
            getLog().warn(ToolInfo.NAME + ": " + TerminalText.escape(m.text()));
        } else {
            getLog().info(ToolInfo.NAME + ": " + TerminalText.escape(m.text()));
        }
    }

    /**
     * The directory the cache and the report files below it must not leave: a symbolic link committed
     * under it (at {@code target/pg-advisory-lint}, say) that leads out is replaced with a warning, as
     * the CLI replaces a report that is such a link ({@code ScanRequest#outputRoot}).
     *
     * @return the project's build directory ({@code target}), absolute, or null when there is none
     */
    Path buildDirectory() {
        MavenProject home = home();
        if (home == null || home.getBuild() == null || home.getBuild().getDirectory() == null) {
            return null;
        }
        return Path.of(home.getBuild().getDirectory()).toAbsolutePath().normalize();
    }

    /** @return the Maven reactor's root directory (the top-level project's), or null outside a build */
    Path reactorRoot() {
        MavenProject top = session == null ? null : session.getTopLevelProject();
        if (top != null && top.getBasedir() != null) {
            return top.getBasedir().toPath().toAbsolutePath().normalize();
        }
        return null;
    }

    private Path configSearchStart() {
        MavenProject home = home();
        return home != null && home.getBasedir() != null
                ? home.getBasedir().toPath()
                : Path.of(System.getProperty("user.dir"));
    }

    private Path executionRoot() {
        String top = session == null ? null : session.getExecutionRootDirectory();
        return top == null ? null : Path.of(top);
    }

    /** Warns, once per build, about each {@code pgAdvisoryLint.*}-like property no goal of this plugin reads. */
    private void warnUnknownProperties() {
        if (mojoExecution == null || mojoExecution.getMojoDescriptor() == null) {
            return;
        }
        Object build = session != null && session.getRequest() != null ? session.getRequest() : null;
        if (build != null && WARNED.putIfAbsent(build, Boolean.TRUE) != null) {
            return;
        }
        Properties given = new Properties();
        if (session != null) {
            given.putAll(session.getSystemProperties());
            given.putAll(session.getUserProperties());
        } else {
            given.putAll(System.getProperties());
        }
        for (String warning : unknownProperties(knownProperties(mojoExecution.getMojoDescriptor()), given)) {
            getLog().warn(ToolInfo.NAME + ": " + warning);
        }
    }

    /**
     * @param goal a goal of this plugin
     * @return the user properties of every goal of its plugin (the {@code ${...}} expressions of their
     *     parameters' configuration), sorted
     */
    static SortedSet<String> knownProperties(MojoDescriptor goal) {
        List<MojoDescriptor> goals =
                goal.getPluginDescriptor() != null && goal.getPluginDescriptor().getMojos() != null
                        ? goal.getPluginDescriptor().getMojos()
                        : List.of(goal);
        SortedSet<String> known = new TreeSet<>();
        for (MojoDescriptor g : goals) {
            PlexusConfiguration conf = g.getMojoConfiguration();
            for (PlexusConfiguration parameter : conf == null ? new PlexusConfiguration[0] : conf.getChildren()) {
                String expression = parameter.getValue(null);
                if (expression != null && expression.startsWith("${") && expression.endsWith("}")) {
                    String name = expression.substring(2, expression.length() - 1);
                    if (hasPluginPrefix(name)) {
                        known.add(name);
                    }
                }
            }
        }
        return known;
    }

    /**
     * @param known the plugin's user properties
     * @param given the build's user and system properties
     * @return one warning per given property that looks like the plugin's ({@code pgAdvisoryLint.*},
     *     {@code pg-advisory-lint.*}, any case) but is none of them, with the known one it resembles
     *     (same name after the prefix, any case) or the list of known ones, sorted by property
     */
    static List<String> unknownProperties(SortedSet<String> known, Properties given) {
        List<String> warnings = new ArrayList<>();
        for (String name : new TreeSet<>(given.stringPropertyNames())) {
            if (!hasPluginPrefix(name) || known.contains(name)) {
                continue;
            }
            String rest = name.substring(name.indexOf('.') + 1);
            String guess = known.stream()
                    .filter(k -> k.substring(k.indexOf('.') + 1).equalsIgnoreCase(rest))
                    .findFirst()
                    .orElse(null);
            warnings.add("unknown property " + name + " is ignored; "
                    + (guess != null
                            ? "did you mean " + guess + "?"
                            : "the known ones are " + String.join(", ", known)));
        }
        return warnings;
    }

    private static boolean hasPluginPrefix(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return PROPERTY_PREFIXES.stream().anyMatch(lower::startsWith);
    }

    /** @return the effective {@code includeTests}: the parameter, else the configuration file's, else false */
    boolean includeTests() {
        return includeTests != null ? includeTests : Boolean.TRUE.equals(config.includeTests());
    }

    private List<Rule> loadRules() throws MojoExecutionException {
        List<Rule> rules;
        try {
            // The plugin's own class realm holds the rules module; the thread context loader may not.
            rules = RuleRegistry.load(AbstractLintMojo.class.getClassLoader());
        } catch (RuntimeException | ServiceConfigurationError e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": cannot load the rules: " + e, e);
        }
        if (rules.isEmpty()) {
            throw new MojoExecutionException(ToolInfo.NAME + ": no rules found on the plugin's class path");
        }
        return rules;
    }

    /**
     * @return {@link #threads}, capped to {@link Analyzer#maxThreads()} with a warning, or one per processor
     * @throws MojoExecutionException for a value below 1
     */
    int threadCount() throws MojoExecutionException {
        if (threads == null) {
            return Math.max(1, Runtime.getRuntime().availableProcessors());
        }
        if (threads < 1) {
            throw new MojoExecutionException(ToolInfo.NAME + ": threads must be at least 1, not " + threads);
        }
        if (threads > Analyzer.maxThreads()) {
            getLog().warn(ToolInfo.NAME + ": threads " + threads + " is more than this machine can use; using "
                    + Analyzer.maxThreads() + " (" + Analyzer.MAX_THREADS_PER_PROCESSOR + " per processor)");
            return Analyzer.maxThreads();
        }
        return threads;
    }

    /**
     * @param format a report format
     * @return its file name in the output directory: {@code pg-advisory-lint.sarif}, {@code .json},
     *     {@code .txt}, {@code .md}, {@code pg-advisory-lint-checkstyle.xml} or {@code pg-advisory-lint-github.txt}
     */
    public static String reportFileName(ReportFormat format) {
        return switch (format) {
            case TEXT -> REPORT_BASE_NAME + ".txt";
            case MARKDOWN -> REPORT_BASE_NAME + ".md";
            case HTML -> REPORT_BASE_NAME + ".html";
            case CHECKSTYLE -> REPORT_BASE_NAME + "-checkstyle.xml";
            case GITHUB -> REPORT_BASE_NAME + "-github.txt";
            default -> REPORT_BASE_NAME + "." + format.id();
        };
    }

    /**
     * @param result    the analysis result
     * @param threshold the lowest failing severity
     * @param sarif     the SARIF file written, or null when {@code formats} has no {@code sarif}
     * @return e.g. {@code pg-advisory-lint found 2 findings at or above failOnSeverity=warning (1 error,
     *     1 warning, 0 notes). SARIF report: target/pg-advisory-lint.sarif}
     */
    String failureMessage(AnalysisResult result, Severity threshold, Path sarif) {
        long failing = new FailPolicy(threshold, maxAllowedViolations).failing(result);
        return ToolInfo.NAME + " found " + failing + (failing == 1 ? " finding" : " findings") + scopeWords()
                + " at or above failOnSeverity=" + threshold.sarifLevel()
                + (maxAllowedViolations > 0 ? ", more than maxAllowedViolations=" + maxAllowedViolations : "") + " ("
                + plural(result.count(Severity.ERROR), "error") + ", "
                + plural(result.count(Severity.WARNING), "warning") + ", "
                + plural(result.count(Severity.NOTE), "note") + "). "
                + (sarif != null
                        ? "SARIF report: " + display(sarif)
                        : "No SARIF report was written (formats does not include sarif).");
    }

    /**
     * @param outcome a scan that left parts of the input out
     * @return e.g. {@code pg-advisory-lint left 1 part of the input out of the analysis (method-budget at
     *     src/main/java/Job.java:12); failOnIncomplete is on}
     */
    static String incompleteMessage(ScanOutcome outcome) {
        List<String> where = outcome.leftOut().stream()
                .limit(5)
                .map(n ->
                        n.kind() + " at " + n.region().path() + ":" + n.region().startLine())
                .toList();
        int n = outcome.leftOut().size();
        return ToolInfo.NAME + " left " + plural(n, "part") + " of the input out of the analysis ("
                + String.join(", ", where) + (n > where.size() ? ", ..." : "")
                + "); failOnIncomplete is on (set it to false, or raise the bound the notification names)";
    }

    /** @return the {@code timeLimit} parameter as a duration, or null when unset */
    private Duration timeLimit() throws MojoExecutionException {
        if (timeLimit == null) {
            return null;
        }
        if (timeLimit < 1 || timeLimit > 86_400) {
            throw new MojoExecutionException(
                    ToolInfo.NAME + ": timeLimit must be a whole number of seconds from 1 to 86400, not " + timeLimit);
        }
        return Duration.ofSeconds(timeLimit);
    }

    /** @return the path relative to the directory Maven was started in when inside it, else absolute */
    String display(Path file) {
        String start = session == null ? null : session.getExecutionRootDirectory();
        Path base = Path.of(start != null ? start : System.getProperty("user.dir"))
                .toAbsolutePath()
                .normalize();
        Path abs = file.toAbsolutePath().normalize();
        return (abs.startsWith(base) && !abs.equals(base) ? base.relativize(abs) : abs).toString();
    }

    /**
     * @param p a Maven project
     * @return the project's compile source roots and resource directories, then its test compile source
     *     roots and test resource directories (the module's test roots), as a module; whether the test
     *     sources are analysed is the session's decision ({@code includeTests})
     */
    static SourceSelection.Module module(MavenProject p) {
        List<Path> roots = new ArrayList<>();
        p.getCompileSourceRoots().forEach(r -> roots.add(Path.of(r)));
        for (Resource r : p.getResources()) {
            roots.add(Path.of(r.getDirectory()));
        }
        List<Path> tests = new ArrayList<>();
        p.getTestCompileSourceRoots().forEach(r -> tests.add(Path.of(r)));
        for (Resource r : p.getTestResources()) {
            tests.add(Path.of(r.getDirectory()));
        }
        roots.addAll(tests);
        Path basedir = p.getBasedir().toPath();
        return new SourceSelection.Module(basedir, Path.of(p.getBuild().getDirectory()), roots, tests);
    }

    /**
     * @param word {@code error}, {@code warning}, {@code note} or {@code none}, any case; null means {@code warning}
     * @return the lowest failing severity, or null for {@code none}
     * @throws MojoExecutionException for any other word
     */
    static Severity threshold(String word) throws MojoExecutionException {
        if (word == null) {
            return Severity.WARNING;
        }
        if (word.trim().equalsIgnoreCase("none")) {
            return null;
        }
        try {
            return Severity.parse(word);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(
                    ToolInfo.NAME + ": failOnSeverity must be error, warning, note or" + " none, not '" + word + "'");
        }
    }

    /**
     * @param words format names, any case; null means the default, {@code sarif}
     * @return the formats, each once, in the order given
     * @throws MojoExecutionException for an unknown name
     */
    static List<ReportFormat> reportFormats(List<String> words) throws MojoExecutionException {
        if (words == null) {
            return List.of(ReportFormat.SARIF);
        }
        List<ReportFormat> out = new ArrayList<>();
        for (String w : words) {
            for (String part : w == null ? new String[0] : w.split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                ReportFormat f;
                try {
                    f = ReportFormat.parse(part);
                } catch (IllegalArgumentException e) {
                    throw new MojoExecutionException(ToolInfo.NAME + ": formats must be among " + ReportFormat.ALLOWED
                            + ", not '" + part.trim() + "'");
                }
                if (!out.contains(f)) {
                    out.add(f);
                }
            }
        }
        return List.copyOf(out);
    }

    private static List<String> nonNull(List<String> list) {
        return list == null ? List.of() : list;
    }

    private static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
