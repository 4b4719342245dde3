package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.analysis.ProgressListener;
import io.github.pgadvisorylint.core.config.LintConfigLoader;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.flow.LockStateAnalysis;
import io.github.pgadvisorylint.core.io.AtomicFiles;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.report.ReportFormat;
import io.github.pgadvisorylint.core.report.ReportOptions;
import io.github.pgadvisorylint.core.report.TerminalText;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.session.FailPolicy;
import io.github.pgadvisorylint.core.session.ScanException;
import io.github.pgadvisorylint.core.session.ScanMessage;
import io.github.pgadvisorylint.core.session.ScanOutcome;
import io.github.pgadvisorylint.core.session.ScanRequest;
import io.github.pgadvisorylint.core.session.ScanSession;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code scan [PATH...]}: analyses files and directories and writes the reports through the core
 * {@link ScanSession}; this class only maps the options onto a {@link ScanRequest} and renders the
 * outcome. The scan root is the one directory given, or else the working directory; reported paths are
 * relative to the path base ({@code --path-base}, else the git root above the scan root, else the scan root).
 */
@Command(
        name = "scan",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Scans Java, SQL and configuration files for advisory-lock misuse.",
            "The scan root is PATH when exactly one directory is given, else the current directory;"
                    + " reported paths are relative to the git root above it (see --path-base)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:no finding at or above --fail-on",
            "1:findings at or above --fail-on, or with --fail-on-incomplete a file, method or rule left out",
            "2:usage or input error: bad option or value, no such path, unwritable output",
            "3:internal error: a bug, please report it (--debug prints the stack trace); or a file or rule ran"
                    + " past --time-limit"
        },
        footer = {
            "%nExamples:",
            "  pg-advisory-lint scan .",
            "  pg-advisory-lint scan --format sarif --output out.sarif --format text src",
            "  pg-advisory-lint scan --format json --fail-on error",
            "  pg-advisory-lint scan --write-baseline baseline.json",
            "  pg-advisory-lint scan --baseline baseline.json --format github"
        })
final class ScanCommand implements Callable<Integer> {

    /** The {@code --fail-on} levels. */
    enum FailOn {
        ERROR(Severity.ERROR),
        WARNING(Severity.WARNING),
        NOTE(Severity.NOTE),
        NONE(null);

        private final Severity threshold;

        FailOn(Severity threshold) {
            this.threshold = threshold;
        }

        /** @return the lowest severity that fails the scan, or null for {@code none} */
        Severity threshold() {
            return threshold;
        }
    }

    /** Converts {@code error|warning|note|none}, any case. */
    static final class FailOnConverter implements ITypeConverter<FailOn> {
        @Override
        public FailOn convert(String value) {
            for (FailOn f : FailOn.values()) {
                if (f.name().equalsIgnoreCase(value.trim())) {
                    return f;
                }
            }
            throw new TypeConversionException("'" + value + "' is not one of error, warning, note, none");
        }
    }

    /** Converts {@code text|sarif|json|github|checkstyle|markdown|html}, any case. */
    static final class FormatConverter implements ITypeConverter<ReportFormat> {
        @Override
        public ReportFormat convert(String value) {
            try {
                return ReportFormat.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not one of " + ReportFormat.ALLOWED);
            }
        }
    }

    /** The {@code --color} choices. */
    enum ColorMode {
        /** Colour when standard output is a terminal and {@code NO_COLOR} is unset or empty. */
        AUTO,
        /** Always colour the text format on standard output. */
        ALWAYS,
        /** Never colour. */
        NEVER
    }

    /** Converts {@code auto|always|never}, any case. */
    static final class ColorConverter implements ITypeConverter<ColorMode> {
        @Override
        public ColorMode convert(String value) {
            for (ColorMode m : ColorMode.values()) {
                if (m.name().equalsIgnoreCase(value.trim())) {
                    return m;
                }
            }
            throw new TypeConversionException("'" + value + "' is not one of auto, always, never");
        }
    }

    private final Environment env;

    @Spec
    private CommandSpec spec;

    @Parameters(
            paramLabel = "PATH",
            arity = "0..*",
            description = "Files or directories to scan (default: the current directory).")
    private List<String> paths = new ArrayList<>();

    @Option(
            names = {"-f", "--format"},
            paramLabel = "FORMAT",
            converter = FormatConverter.class,
            description = "Report format: text, sarif, json, github (Actions workflow commands), checkstyle (XML),"
                    + " markdown or html (default: text). Repeat for several reports.")
    private List<ReportFormat> formats = new ArrayList<>();

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = {
                "Where the report of the --format at the same position goes: the first --output"
                        + " belongs to the first --format, and so on. A format without one (or with '-')"
                        + " goes to standard output; at most one may. Files are replaced atomically."
            })
    private List<String> outputs = new ArrayList<>();

    @Option(
            names = "--fail-on",
            paramLabel = "LEVEL",
            converter = FailOnConverter.class,
            defaultValue = "warning",
            description = "Exit with 1 when a finding is at or above LEVEL: error, warning, note or none"
                    + " (default: ${DEFAULT-VALUE}).")
    private FailOn failOn;

    @Option(
            names = "--fail-on-incomplete",
            negatable = true,
            description = {
                "Also exit with 1 when a file, method or rule was left out of the analysis (a method-budget,"
                        + " file-too-large, java-too-deep, internal-error, rule-failure, java-parse-error, binary-file,"
                        + " special-file, unreadable-file or unreadable-path notification), so a gate never passes on a partial analysis (default: the configuration"
                        + " file's failOnIncomplete, else not; the Maven plugin: on)."
            })
    private Boolean failOnIncomplete;

    @Option(
            names = "--time-limit",
            paramLabel = "SECONDS",
            description =
                    "Wall-clock safety limit: when one file (in one phase), the lock paths or one rule runs longer, the scan"
                            + " stops with exit code 3 and no report, so that no verdict depends on the machine's speed"
                            + " (default: the configuration file's timeLimit, else 300).")
    private Long timeLimitSeconds;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Parsing threads (default: one per processor; at most " + Analyzer.MAX_THREADS_PER_PROCESSOR
                    + " per processor, more is capped with a note). Findings never depend on it.")
    private Integer threads;

    @Option(
            names = "--pooling",
            paramLabel = "MODE",
            converter = PoolingConverter.class,
            description = "How connections reach PostgreSQL: auto (read the project's configuration), transaction,"
                    + " statement, session or none (default: the configuration file's pooling, else auto).")
    private PoolingSetting pooling;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Configuration file (default: the first " + LintConfigLoader.FILE_NAME + " found in the scan"
                    + " root or a directory above it, up to the repository root; outside a repository only in the scan"
                    + " root). The file used is named in the summary. Command-line options win over it.")
    private String configFile;

    @Option(
            names = "--path-base",
            paramLabel = "DIR",
            // picocli reads descriptions as format strings: %% shows one %
            description = {
                "Directory every reported path (and baseline entry) is relative to: SARIF's %%SRCROOT%%."
                        + " Default: the git root above the scan root (the nearest directory holding .git), else the"
                        + " scan root. It must contain the scan root."
            })
    private String pathBase;

    @Option(
            names = "--include-tests",
            negatable = true,
            description = {
                "Also analyse test sources: files under src/test/, src/it/, src/integrationTest/ or"
                        + " src/testFixtures/ (default: the configuration file's includeTests, else not, as the Maven"
                        + " plugin)."
            })
    private Boolean includeTests;

    @Option(
            names = "--baseline",
            paramLabel = "FILE",
            description = "Report only findings that are not in this baseline file.")
    private String baselineFile;

    @Option(
            names = "--write-baseline",
            paramLabel = "FILE",
            description = {
                "Write a baseline: a new file records every current finding; an existing baseline"
                        + " (--baseline, else FILE itself) only loses the entries that no longer occur."
                        + " Findings it holds are not reported in this run."
            })
    private String writeBaselineFile;

    @Option(
            names = "--baseline-record-all",
            description = "With --write-baseline: also add current findings the baseline does not hold yet.")
    private boolean baselineRecordAll;

    @Option(
            names = "--show-suppressed",
            description = "Keep suppressed findings (in-source and baseline) in SARIF, with result.suppressions,"
                    + " and in JSON, with a suppression object.")
    private boolean showSuppressed;

    @Option(
            names = "--cache",
            paramLabel = "FILE",
            description = {
                "Incremental analysis: reuse the facts this file holds for unchanged files (by content"
                        + " hash) and write this run's facts back to it. The report is the same as without it. Ignored,"
                        + " with a warning, when unreadable; invalid after a tool upgrade or a change of pooling,"
                        + " lockHelpers or pooledApiTypes."
            })
    private String cacheFile;

    @Option(
            names = "--timings",
            description = "Print the wall time at the end of each analysis phase to standard error (for profiling).")
    private boolean timings;

    @Option(
            names = "--color",
            paramLabel = "WHEN",
            converter = ColorConverter.class,
            defaultValue = "auto",
            description = "Colour the text format on standard output: auto (on a terminal, unless NO_COLOR is set),"
                    + " always or never (default: ${DEFAULT-VALUE}).")
    private ColorMode color;

    /** Parses {@code --pooling} values with the allowed ones in the error message. */
    static final class PoolingConverter implements ITypeConverter<PoolingSetting> {
        @Override
        public PoolingSetting convert(String value) {
            try {
                return PoolingSetting.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** @param env the analysis, the rules and the working directory */
    ScanCommand(Environment env) {
        this.env = env;
    }

    /** One report to write: a format and a file, or standard output when the file is null. */
    private record Target(ReportFormat format, String file) {}

    /**
     * @return {@link Main#EXIT_FINDINGS} when a finding is at or above {@code --fail-on}, else
     *     {@link Main#EXIT_OK}
     * @throws ParameterException for inconsistent options (exit code 2)
     * @throws InputException     for a missing path or an unwritable output (exit code 2)
     */
    @Override
    public Integer call() {
        int threadCount = threads == null ? Math.max(1, Runtime.getRuntime().availableProcessors()) : threads;
        if (threadCount < 1) {
            throw new ParameterException(spec.commandLine(), "--threads must be at least 1, not " + threadCount);
        }
        if (threadCount > Analyzer.maxThreads()) {
            spec.commandLine()
                    .getErr()
                    .println(ToolInfo.NAME + ": note: --threads " + threadCount + " is more than this"
                            + " machine can use; using " + Analyzer.maxThreads() + " ("
                            + Analyzer.MAX_THREADS_PER_PROCESSOR
                            + " per processor)");
            spec.commandLine().getErr().flush();
            threadCount = Analyzer.maxThreads();
        }
        List<Target> targets = planReports();
        Path cwd = env.workingDirectory();
        ScanTargets scan = ScanTargets.resolve(cwd, paths);
        Path root = scan.root();
        List<Path> scanned = scan.targets();
        for (Target t : targets) {
            if (t.file() != null) {
                ScanTargets.checkWritableLocation(cwd.resolve(t.file()).normalize(), t.file());
            }
        }

        if (baselineRecordAll && writeBaselineFile == null) {
            throw new ParameterException(spec.commandLine(), "--baseline-record-all needs --write-baseline FILE");
        }
        List<Rule> rules = env.rules().get();
        Path writeBaseline = writeBaselineFile == null
                ? null
                : cwd.resolve(writeBaselineFile).normalize();
        if (writeBaseline != null) {
            ScanTargets.checkWritableLocation(writeBaseline, writeBaselineFile);
        }
        Path cachePath = null;
        if (cacheFile != null) {
            if (cacheFile.isBlank() || cacheFile.equals("-")) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--cache needs a file name (the cache is never standard" + " input or output)");
            }
            cachePath = cwd.resolve(cacheFile).normalize();
            List<String> others = new ArrayList<>();
            targets.stream().map(Target::file).filter(Objects::nonNull).forEach(others::add);
            Stream.of(baselineFile, writeBaselineFile, configFile)
                    .filter(Objects::nonNull)
                    .forEach(others::add);
            for (String other : others) {
                if (cwd.resolve(other).normalize().equals(cachePath)) {
                    throw new ParameterException(
                            spec.commandLine(),
                            "--cache " + cacheFile + " is also given as " + other
                                    + " for another purpose; the cache needs a file of its own");
                }
            }
            ScanTargets.checkWritableLocation(cachePath, cacheFile);
            if (Files.exists(cachePath) && !Files.isRegularFile(cachePath)) {
                throw new InputException(
                        "--cache " + cacheFile + ": not a regular file (a cache is a JSON file the scan replaces)");
            }
        }
        // files are named in messages as the user gave them, else relative to the working directory
        Map<Path, String> given = new HashMap<>();
        Stream.concat(
                        targets.stream().map(Target::file),
                        Stream.of(baselineFile, writeBaselineFile, configFile, cacheFile))
                .filter(Objects::nonNull)
                .forEach(f -> given.putIfAbsent(cwd.resolve(f).normalize(), f));
        Function<Path, String> display =
                f -> given.getOrDefault(f.toAbsolutePath().normalize(), display(cwd, f));
        List<ScanRequest.ReportTarget> reports = targets.stream()
                .filter(t -> t.file() != null)
                .map(t -> new ScanRequest.ReportTarget(
                        t.format(), cwd.resolve(t.file()).normalize()))
                .toList();

        boolean progress = env.terminal().interactive() && env.terminal().getenv("CI") == null;
        ProgressLine line =
                progress ? new ProgressLine(spec.commandLine().getErr(), () -> System.nanoTime() / 1_000_000) : null;
        ScanRequest request = ScanRequest.builder(root, rules)
                .targets(List.copyOf(scanned))
                .threads(threadCount)
                .pathBase(pathBase == null ? null : cwd.resolve(pathBase).normalize())
                .configFile(configFile == null ? null : cwd.resolve(configFile).normalize())
                .pooling(pooling)
                .includeTests(includeTests)
                .cacheFile(cachePath)
                .baselineFile(
                        baselineFile == null ? null : cwd.resolve(baselineFile).normalize())
                .writeBaseline(writeBaseline, baselineRecordAll)
                .showSuppressed(showSuppressed)
                .reports(reports)
                .failPolicy(FailPolicy.atOrAbove(failOn.threshold()))
                .failOnIncomplete(failOnIncomplete)
                .timeLimit(timeLimit())
                .display(display)
                .progress(line != null || timings ? progress(line) : ProgressListener.NONE)
                .build();
        ScanOutcome outcome;
        try {
            outcome = new ScanSession(env.engine()::analyze).run(request);
        } catch (ScanException e) {
            throw new InputException(
                    e.file() == null
                            ? e.getMessage()
                            : e.getMessage().replace(e.file().toString(), display.apply(e.file())),
                    e);
        } finally {
            if (line != null) {
                line.clear();
            }
        }

        AnalysisResult result = outcome.result();
        for (ScanOutcome.WrittenReport w : outcome.reports()) {
            if (w.replacedLink()) {
                ModelCommand.warnIfLinkReplaced(spec, AtomicFiles.Outcome.REPLACED_LINK, display.apply(w.file()));
            }
        }
        boolean colour = color == ColorMode.ALWAYS
                || (color == ColorMode.AUTO
                        && env.terminal().interactive()
                        && (env.terminal().getenv("NO_COLOR") == null
                                || env.terminal().getenv("NO_COLOR").isEmpty()));
        Target toStdout =
                targets.stream().filter(t -> t.file() == null).findFirst().orElse(null);
        PrintWriter out = spec.commandLine().getOut();
        if (toStdout != null) {
            try {
                toStdout.format()
                        .reporter(
                                new ReportOptions(showSuppressed, colour, outcome.summaryNotes(), outcome.configUsed()))
                        .write(result, out);
            } catch (IOException e) {
                throw new InputException("cannot write to standard output: " + describe(e), e);
            }
            out.flush();
            if (out.checkError()) {
                throw new InputException("cannot write to standard output (closed pipe or full device)");
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        for (ScanMessage m : outcome.messages()) {
            boolean shown = switch (m.kind()) {
                // Machine-readable output stays clean: the summary goes to standard error.
                case SUMMARY -> toStdout == null || toStdout.format() != ReportFormat.TEXT;
                case BASELINE, CACHE -> true;
                // the configuration is named in the summary; replaced links are reported above
                case CONFIGURATION, REPORT -> false;
            };
            if (shown) {
                // the summary is escaped by TextReporter; the other messages quote paths
                err.println(
                        m.kind() == ScanMessage.Kind.SUMMARY
                                ? m.text()
                                : ToolInfo.NAME + ": " + (m.level() == ScanMessage.Level.WARNING ? "warning: " : "")
                                        + TerminalText.escape(m.text()));
            }
        }
        if (outcome.incompleteFails()) {
            err.println(ToolInfo.NAME + ": " + outcome.leftOut().size()
                    + (outcome.leftOut().size() == 1 ? " part" : " parts")
                    + " of the input left out of the analysis (see the notifications); failing as"
                    + " --fail-on-incomplete asks");
        }
        err.flush();
        return outcome.failed() ? Main.EXIT_FINDINGS : Main.EXIT_OK;
    }

    /** @return the {@code --time-limit} as a duration, or null when not given */
    private Duration timeLimit() {
        if (timeLimitSeconds == null) {
            return null;
        }
        if (timeLimitSeconds < 1 || timeLimitSeconds > 86_400) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--time-limit must be a whole number of seconds from 1 to 86400, not " + timeLimitSeconds);
        }
        return Duration.ofSeconds(timeLimitSeconds);
    }

    /** @return the progress line and the {@code --timings} figures as one listener */
    private ProgressListener progress(ProgressLine line) {
        return new ProgressListener() {
            @Override
            public void progress(int done, int total) {
                if (line != null) {
                    line.progress(done, total);
                }
            }

            @Override
            public void phaseDone(String phase, long elapsedMillis) {
                timing("timing: %-16s %7d ms%n", phase, elapsedMillis);
            }

            @Override
            public void parsed(int outlines, int parses, int repeated, int reused) {
                timing(
                        "timing: parsed %d outlines, %d whole files (%d again for helper rounds), %d extractions"
                                + " from the cache%n",
                        outlines, parses, repeated, reused);
            }

            @Override
            public void paths(LockStateAnalysis.Bounds b) {
                timing(
                        "timing: paths over %d methods (%d copies for calling contexts), %d run to a fixpoint in %d"
                                + " rounds, %d left out%n",
                        b.methods(), b.copies(), b.analysed(), b.rounds(), b.leftOut());
            }

            /** One {@code --timings} line on standard error, after clearing the progress line. */
            private void timing(String format, Object... args) {
                if (timings) {
                    if (line != null) {
                        line.clear();
                    }
                    spec.commandLine().getErr().printf(format, args);
                    spec.commandLine().getErr().flush();
                }
            }
        };
    }

    private List<Target> planReports() {
        List<ReportFormat> fmts = formats.isEmpty() ? List.of(ReportFormat.TEXT) : formats;
        if (outputs.size() > fmts.size()) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--output is given " + outputs.size()
                            + " times but --format only " + fmts.size() + " time" + (fmts.size() == 1 ? "" : "s")
                            + "; each --output belongs to the --format at the same position");
        }
        List<Target> plan = new ArrayList<>();
        Set<Path> files = new HashSet<>();
        int toStdout = 0;
        for (int i = 0; i < fmts.size(); i++) {
            String file = i < outputs.size() && !outputs.get(i).equals("-") ? outputs.get(i) : null;
            if (file == null) {
                toStdout++;
            } else if (file.isBlank()) {
                throw new ParameterException(spec.commandLine(), "--output needs a file name");
            } else if (!files.add(env.workingDirectory().resolve(file).normalize())) {
                throw new ParameterException(spec.commandLine(), "two reports would be written to " + file);
            }
            plan.add(new Target(fmts.get(i), file));
        }
        if (toStdout > 1) {
            throw new ParameterException(
                    spec.commandLine(),
                    "only one report can go to standard output, but " + toStdout + " formats have no --output file");
        }
        return plan;
    }

    /** @return the path relative to the working directory when inside it, else absolute */
    private static String display(Path cwd, Path file) {
        return file.startsWith(cwd) && !file.equals(cwd) ? cwd.relativize(file).toString() : file.toString();
    }

    private static String describe(Exception e) {
        return ScanTargets.describe(e);
    }
}
