package io.github.pgadvisorylint.maven;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.analysis.FactsCache;
import io.github.pgadvisorylint.core.analysis.Notification;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.report.AtomicFiles;
import io.github.pgadvisorylint.core.baseline.Baseline;
import io.github.pgadvisorylint.core.baseline.BaselineException;
import io.github.pgadvisorylint.core.config.ConfigException;
import io.github.pgadvisorylint.core.config.LintConfig;
import io.github.pgadvisorylint.core.config.LintConfigLoader;
import io.github.pgadvisorylint.core.discovery.FileDiscovery;
import io.github.pgadvisorylint.core.report.ReportFormat;
import io.github.pgadvisorylint.core.report.ReportOptions;
import io.github.pgadvisorylint.core.report.Reporter;
import io.github.pgadvisorylint.core.report.TextReporter;
import io.github.pgadvisorylint.core.report.ToolInfo;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.core.rule.Severity;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
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
 * What {@code check} and {@code aggregate} share: the parameters, the analysis with the rules on the
 * plugin's own class path, the report files, the log output and the failure decision. Subclasses say
 * which modules are scanned and which directory is the scan root.
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
     * Also analyses the test source roots and test resource directories. Unset: the configuration
     * file's {@code includeTests}, else {@code false}.
     */
    @Parameter(property = "pgAdvisoryLint.includeTests")
    Boolean includeTests;

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
     * findings are the same as without it. An unreadable cache is ignored with a warning.
     */
    @Parameter(property = "pgAdvisoryLint.cacheFile", defaultValue = "${project.build.directory}/pg-advisory-lint/cache.json")
    File cacheFile;

    /** Whether to use {@link #cacheFile}. */
    @Parameter(property = "pgAdvisoryLint.useCache", defaultValue = "true")
    boolean useCache;

    /** Directory the report files are written to; created when missing. */
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
     * A baseline file (the CLI's {@code --baseline}): findings it holds are not reported and do not
     * fail the build. Entries are keyed by fingerprint; paths are relative to the scan root, so use
     * the file with the goal that wrote it.
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

    /** The configuration read by {@link #execute()}, before {@link #scope()} is asked. */
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
    record Scope(Path root, List<SourceSelection.Module> modules) {
    }

    /**
     * @return the scan root (reported paths are relative to it) and the modules to scan
     * @throws MojoExecutionException when the scope cannot be determined
     */
    abstract Scope scope() throws MojoExecutionException;

    /** @return true when this execution has nothing to do (besides {@code skip}), after logging why */
    boolean notThisProject() {
        return false;
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
            throw new MojoExecutionException(ToolInfo.NAME + ": maxAllowedViolations must be 0 or more, not "
                    + maxAllowedViolations);
        }
        List<ReportFormat> reportFormats = reportFormats(formats);
        Scan scan = scan();
        if (scan == null) {
            return;
        }
        AnalysisResult result = scan.result();
        String configUsed = scan.configUsed();
        List<String> notes = new ArrayList<>(scan.notes());

        Map<ReportFormat, Path> written = writeReports(result, reportFormats, configUsed);
        LogReport.print(result, getLog(), printFindings);
        written.forEach((format, file) -> notes.add(format.displayName() + " written to " + display(file)));
        getLog().info(ToolInfo.NAME + ": " + new TextReporter(notes).summary(result));

        if (threshold != null && result.hasFindingsAtOrAbove(threshold)) {
            long failing = failing(result, threshold);
            if (failing > maxAllowedViolations) {
                throw new MojoFailureException(failureMessage(result, threshold, written.get(ReportFormat.SARIF)));
            }
            getLog().info(ToolInfo.NAME + ": " + plural(failing, "finding") + " at or above failOnSeverity="
                    + threshold.sarifLevel() + ", not more than maxAllowedViolations=" + maxAllowedViolations
                    + "; the build goes on");
        }
    }

    /**
     * What one scan gave.
     *
     * @param result     the findings after in-source suppressions and the baseline
     * @param configUsed the configuration file used, relative to the scan root, or null for none
     * @param notes      lines for the summary: the configuration file, the baseline written
     */
    record Scan(AnalysisResult result, String configUsed, List<String> notes) {
    }

    /**
     * The scan every goal shares ({@code check}, {@code aggregate}, and {@code report} through a
     * {@link CheckMojo} it configures): reads the rules and the configuration file, selects the files of
     * {@link #scope()}, analyses them, writes the baseline when {@code updateBaseline} and applies it.
     * Writes no report and decides nothing about the build.
     *
     * @return the scan, or null when there is nothing to scan (logged)
     * @throws MojoExecutionException for a configuration error or an internal failure of the analysis
     */
    Scan scan() throws MojoExecutionException {
        List<Rule> rules = loadRules();
        config = loadConfig(rules);
        io.github.pgadvisorylint.core.config.PoolingSetting poolingSetting;
        try {
            poolingSetting = config.effectivePooling(pooling == null || pooling.isBlank() ? null
                    : io.github.pgadvisorylint.core.config.PoolingSetting.parse(pooling));
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": pooling: " + e.getMessage());
        }
        if (baselineRecordAll && !updateBaseline) {
            throw new MojoExecutionException(ToolInfo.NAME + ": baselineRecordAll needs updateBaseline=true");
        }
        if (updateBaseline && baseline == null) {
            throw new MojoExecutionException(ToolInfo.NAME + ": updateBaseline needs the baseline parameter (the file to write)");
        }
        Baseline accepted = readBaseline();
        SourceSelection selection;
        try {
            selection = new SourceSelection(nonNull(includes), nonNull(excludes));
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": " + e.getMessage(), e);
        }
        Scope scope = scope();
        SourceSelection.Result chosen = selection.select(scope.modules());
        for (Path skipped : chosen.skippedRoots()) {
            getLog().debug(ToolInfo.NAME + ": not scanning generated sources in " + skipped);
        }
        getLog().debug(ToolInfo.NAME + ": scanning " + chosen.roots() + " (" + chosen.files().size()
                + " files) relative to " + scope.root());
        if (chosen.files().isEmpty() && chosen.notifications().isEmpty() && !updateBaseline) {
            getLog().info(ToolInfo.NAME + ": nothing to scan in " + display(scope.root())
                    + " (no Java, SQL or configuration file under its source roots); no report written");
            return null;
        }

        AnalysisResult analysed = analyze(scope.root(), chosen, poolingSetting, rules);
        List<String> notes = new ArrayList<>();
        AnalysisResult result = analysed;
        if (updateBaseline) {
            accepted = accepted == null ? Baseline.of(analysed.findings())
                    : accepted.update(analysed.findings(), baselineRecordAll);
            try {
                accepted.write(baseline.toPath());
            } catch (IOException | RuntimeException e) {
                throw new MojoExecutionException(ToolInfo.NAME + ": cannot write the baseline " + baseline + ": " + e, e);
            }
            notes.add("Baseline written to " + display(baseline.toPath()) + " (" + accepted.entries().size()
                    + (accepted.entries().size() == 1 ? " entry)" : " entries)"));
        }
        if (accepted != null) {
            Path abs = baseline.toPath().toAbsolutePath().normalize();
            Path root = scope.root().toAbsolutePath().normalize();
            result = accepted.apply(analysed, abs.startsWith(root) ? FileDiscovery.relative(root, abs)
                    : abs.getFileName().toString());
        }

        String configUsed = config.file() == null ? null
                : FileDiscovery.relative(scope.root().toAbsolutePath().normalize(), config.file());
        if (configUsed != null) {
            notes.add(0, "Configuration: " + configUsed);
        }
        return new Scan(result, configUsed, notes);
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
        List<MojoDescriptor> goals = goal.getPluginDescriptor() != null && goal.getPluginDescriptor().getMojos() != null
                ? goal.getPluginDescriptor().getMojos() : List.of(goal);
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
            String guess = known.stream().filter(k -> k.substring(k.indexOf('.') + 1).equalsIgnoreCase(rest))
                    .findFirst().orElse(null);
            warnings.add("unknown property " + name + " is ignored; "
                    + (guess != null ? "did you mean " + guess + "?" : "the known ones are " + String.join(", ", known)));
        }
        return warnings;
    }

    private static boolean hasPluginPrefix(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return PROPERTY_PREFIXES.stream().anyMatch(lower::startsWith);
    }

    private static long failing(AnalysisResult result, Severity threshold) {
        return result.findings().stream().filter(f -> f.severity().compareTo(threshold) >= 0).count();
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
        } catch (RuntimeException | java.util.ServiceConfigurationError e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": cannot load the rules: " + e, e);
        }
        if (rules.isEmpty()) {
            throw new MojoExecutionException(ToolInfo.NAME + ": no rules found on the plugin's class path");
        }
        return rules;
    }

    /** {@code configFile}, else the file found above the project's base directory, else none. */
    private LintConfig loadConfig(List<Rule> rules) throws MojoExecutionException {
        Path file;
        if (configFile != null) {
            file = configFile.toPath().toAbsolutePath().normalize();
            if (!java.nio.file.Files.isRegularFile(file)) {
                throw new MojoExecutionException(ToolInfo.NAME + ": no such configuration file: " + configFile);
            }
        } else {
            Path start = project != null && project.getBasedir() != null ? project.getBasedir().toPath()
                    : Path.of(System.getProperty("user.dir"));
            String top = session == null ? null : session.getExecutionRootDirectory();
            file = LintConfigLoader.find(start, top == null ? null : Path.of(top)).orElse(null);
        }
        if (file == null) {
            return LintConfig.none();
        }
        java.util.Set<String> known = new java.util.TreeSet<>();
        rules.forEach(r -> known.add(r.descriptor().id()));
        try {
            LintConfig c = LintConfigLoader.load(file, known);
            getLog().info(ToolInfo.NAME + ": configuration " + display(file));
            return c;
        } catch (ConfigException e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": " + e.getMessage(), e);
        }
    }

    private Baseline readBaseline() throws MojoExecutionException {
        if (baseline == null) {
            return null;
        }
        if (!java.nio.file.Files.isRegularFile(baseline.toPath())) {
            if (updateBaseline) {
                return null;
            }
            throw new MojoExecutionException(ToolInfo.NAME + ": no such baseline file: " + baseline
                    + " (create it with -DpgAdvisoryLint.updateBaseline=true or the CLI's --write-baseline)");
        }
        try {
            return Baseline.read(baseline.toPath());
        } catch (BaselineException e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": " + e.getMessage(), e);
        }
    }

    private AnalysisResult analyze(Path root, SourceSelection.Result chosen,
                                   io.github.pgadvisorylint.core.config.PoolingSetting poolingSetting, List<Rule> rules)
            throws MojoExecutionException {
        if (chosen.files().isEmpty()) {
            List<RuleDescriptor> descriptors = rules.stream().map(Rule::descriptor)
                    .filter(config::runs)
                    .sorted(Comparator.comparing(RuleDescriptor::id)).toList();
            return new AnalysisResult(root, descriptors, List.of(), sorted(chosen.notifications()),
                    new LockModel(List.of(), List.of()), 0, 0, 0);
        }
        FactsCache cache = null;
        if (useCache && cacheFile != null) {
            cache = FactsCache.load(cacheFile.toPath().toAbsolutePath().normalize());
            cache.problem().ifPresent(p -> getLog().warn(ToolInfo.NAME + ": " + p));
        }
        AnalysisResult r;
        try {
            r = Analyzer.builder().rules(rules).threads(threadCount()).pooling(poolingSetting).cache(cache)
                    .disabledRules(config.disabledRules())
                    .enabledRules(config.enabledRules())
                    .severityOverrides(config.severityOverrides())
                    .fileFilter(config.fileFilter(root, false))
                    .extraLockHelpers(config.lockHelpers())
                    .extraPooledApiTypes(config.pooledApiTypes())
                    .build().analyze(root, chosen.files());
        } catch (RuntimeException e) {
            throw new MojoExecutionException(ToolInfo.NAME + ": internal error: " + e + ". This is a bug; please"
                    + " report it at " + ToolInfo.INFORMATION_URI + "/issues", e);
        }
        if (cache != null) {
            try {
                cache.save();
                FactsCache.Stats stats = cache.stats();
                getLog().info(ToolInfo.NAME + ": cache " + display(cache.file()) + ": " + stats.filesReused()
                        + " files reused, " + stats.filesAnalysed() + " analysed");
            } catch (IOException | RuntimeException e) {
                // the findings stand; only the next build is slower
                getLog().warn(ToolInfo.NAME + ": cannot write the cache " + cache.file() + ": " + e);
            }
        }
        if (chosen.notifications().isEmpty()) {
            return r;
        }
        List<Notification> all = new ArrayList<>(r.notifications());
        all.addAll(chosen.notifications());
        return r.withNotifications(sorted(all));
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

    private Map<ReportFormat, Path> writeReports(AnalysisResult result, List<ReportFormat> reportFormats,
                                                 String configUsed)
            throws MojoExecutionException {
        Map<ReportFormat, Path> written = new LinkedHashMap<>();
        Path dir = outputDirectory.toPath().toAbsolutePath().normalize();
        for (ReportFormat format : reportFormats) {
            Path file = dir.resolve(reportFileName(format));
            Reporter reporter = format.reporter(new ReportOptions(showSuppressed, false,
                    configUsed == null ? List.of() : List.of("Configuration: " + configUsed), configUsed));
            try {
                if (AtomicFiles.write(file, out -> reporter.write(result, out)) == AtomicFiles.Outcome.REPLACED_LINK) {
                    getLog().warn(ToolInfo.NAME + ": " + display(file) + " was a symbolic link leading out of " + display(dir)
                            + "; the link was replaced by the report, nothing outside was written");
                }
            } catch (IOException | RuntimeException e) {
                throw new MojoExecutionException(ToolInfo.NAME + ": cannot write " + file + ": " + e, e);
            }
            written.put(format, file);
        }
        return written;
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
        long failing = failing(result, threshold);
        return ToolInfo.NAME + " found " + failing + (failing == 1 ? " finding" : " findings")
                + " at or above failOnSeverity=" + threshold.sarifLevel()
                + (maxAllowedViolations > 0 ? ", more than maxAllowedViolations=" + maxAllowedViolations : "") + " ("
                + plural(result.count(Severity.ERROR), "error") + ", "
                + plural(result.count(Severity.WARNING), "warning") + ", "
                + plural(result.count(Severity.NOTE), "note") + "). "
                + (sarif != null ? "SARIF report: " + display(sarif)
                        : "No SARIF report was written (formats does not include sarif).");
    }

    /** @return the path relative to the directory Maven was started in when inside it, else absolute */
    String display(Path file) {
        String start = session == null ? null : session.getExecutionRootDirectory();
        Path base = Path.of(start != null ? start : System.getProperty("user.dir")).toAbsolutePath().normalize();
        Path abs = file.toAbsolutePath().normalize();
        return (abs.startsWith(base) && !abs.equals(base) ? base.relativize(abs) : abs).toString();
    }

    /**
     * @param p       a Maven project
     * @param include whether test roots and test resources are included
     * @return the project's compile source roots and resource directories (then the test ones), as a module
     */
    static SourceSelection.Module module(MavenProject p, boolean include) {
        List<Path> roots = new ArrayList<>();
        p.getCompileSourceRoots().forEach(r -> roots.add(Path.of(r)));
        for (Resource r : p.getResources()) {
            roots.add(Path.of(r.getDirectory()));
        }
        if (include) {
            p.getTestCompileSourceRoots().forEach(r -> roots.add(Path.of(r)));
            for (Resource r : p.getTestResources()) {
                roots.add(Path.of(r.getDirectory()));
            }
        }
        Path basedir = p.getBasedir().toPath();
        return new SourceSelection.Module(basedir, Path.of(p.getBuild().getDirectory()), roots);
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
            throw new MojoExecutionException(ToolInfo.NAME + ": failOnSeverity must be error, warning, note or"
                    + " none, not '" + word + "'");
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

    private static List<Notification> sorted(List<Notification> notes) {
        List<Notification> copy = new ArrayList<>(notes);
        copy.sort(Comparator.naturalOrder());
        return copy;
    }

    private static List<String> nonNull(List<String> list) {
        return list == null ? List.of() : list;
    }

    private static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
