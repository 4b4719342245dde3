package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Notification;
import io.github.pgadvisorylint.core.report.AtomicFiles;
import io.github.pgadvisorylint.core.report.LockOrderGraph;
import io.github.pgadvisorylint.core.rule.Severity;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code graph [PATH...]}: the project's lock order (which key is taken while which is held, and
 * where) as Graphviz DOT or Mermaid, with possible deadlock cycles in red. Runs no rule; exits 0
 * unless the command line or the input is wrong (2).
 */
@Command(name = "graph", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Draws the lock-order graph: one node per key (constant, value, or expression when not"
                + " known statically), an edge A -> B when B is taken while A is held, labelled with the methods"
                + " that do it. Dashed: the second lock is a try-lock (it never waits). Red: the edge is on a cycle"
                + " of waiting acquisitions, a possible deadlock.",
            "The scan root is PATH when exactly one directory is given, else the current directory."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the graph was written",
            "2:usage or input error: bad option or value, no such path, unwritable output",
            "3:internal error: a bug, please report it (--debug prints the stack trace)"},
        footer = {"%nExamples:",
            "  pg-advisory-lint graph . | dot -Tsvg > lock-order.svg",
            "  pg-advisory-lint graph --format mermaid --output lock-order.mmd src"})
final class GraphCommand implements Callable<Integer> {

    /** Converts {@code dot|mermaid}, any case. */
    static final class FormatConverter implements ITypeConverter<LockOrderGraph.Format> {
        @Override
        public LockOrderGraph.Format convert(String value) {
            try {
                return LockOrderGraph.Format.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not one of dot, mermaid");
            }
        }
    }

    private final Environment env;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "PATH", arity = "0..*",
            description = "Files or directories to read (default: the current directory).")
    private List<String> paths = new ArrayList<>();

    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", converter = FormatConverter.class, defaultValue = "dot",
            description = "Output format: dot or mermaid (default: ${DEFAULT-VALUE}).")
    private LockOrderGraph.Format format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the graph to FILE (replaced atomically) instead of standard output; '-' is standard output.")
    private String output;

    @Option(names = "--threads", paramLabel = "N",
            description = "Parsing threads (default: one per processor). The graph never depends on it.")
    private Integer threads;

    /** @param env the analysis and the working directory */
    GraphCommand(Environment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        int threadCount = threads == null ? Math.max(1, Runtime.getRuntime().availableProcessors()) : threads;
        if (threadCount < 1) {
            throw new ParameterException(spec.commandLine(), "--threads must be at least 1, not " + threadCount);
        }
        String file = output == null || output.equals("-") ? null : output;
        if (file != null && file.isBlank()) {
            throw new ParameterException(spec.commandLine(), "--output needs a file name");
        }
        Path cwd = env.workingDirectory();
        ScanTargets scan = ScanTargets.resolve(cwd, paths);
        if (file != null) {
            ScanTargets.checkWritableLocation(cwd.resolve(file).normalize(), file);
        }
        AnalysisResult result = env.engine().analyze(scan.root(), scan.targets(), threadCount, List.of());
        LockOrderGraph graph = LockOrderGraph.of(result.model());
        PrintWriter err = spec.commandLine().getErr();
        for (Notification n : result.notifications()) {
            if (n.level() == Severity.ERROR) {
                err.println(n.region() + ": " + n.level().sarifLevel() + ": " + n.message());
            }
        }
        err.flush();
        if (file != null) {
            try {
                AtomicFiles.write(cwd.resolve(file), out -> graph.write(format, out));
            } catch (IOException | RuntimeException e) {
                throw new InputException("cannot write " + file + ": " + ScanTargets.describe(e), e);
            }
        } else {
            PrintWriter out = spec.commandLine().getOut();
            try {
                graph.write(format, out);
            } catch (IOException e) {
                throw new InputException("cannot write to standard output: " + ScanTargets.describe(e), e);
            }
            out.flush();
        }
        return Main.EXIT_OK;
    }
}
