package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.io.AtomicFiles;
import io.github.pgadvisorylint.core.report.TerminalText;
import io.github.pgadvisorylint.core.session.PathBase;
import io.github.pgadvisorylint.core.session.ScanException;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * What {@code keys} and {@code graph} share: analyse the paths without running rules, report files
 * that could not be analysed on standard error, and write one document derived from the lock model
 * to a file (atomically) or to standard output.
 */
final class ModelCommand {

    /** The options {@code keys} and {@code graph} share: what to read, where to write, how many threads. */
    static final class Options {
        @CommandLine.Parameters(
                paramLabel = "PATH",
                arity = "0..*",
                description = "Files or directories to read (default: the current directory).")
        List<String> paths = new ArrayList<>();

        @CommandLine.Option(
                names = {"-o", "--output"},
                paramLabel = "FILE",
                description = "Write to FILE (replaced atomically) instead of standard output; '-' is standard output.")
        String output;

        @CommandLine.Option(
                names = "--threads",
                paramLabel = "N",
                description = "Parsing threads (default: one per processor). The output never depends on it.")
        Integer threads;

        @CommandLine.Option(
                names = "--path-base",
                paramLabel = "DIR",
                description = {
                    "Directory every reported path is relative to, as in scan. Default: the git root"
                            + " above the scan root (the nearest directory holding .git), else the scan root."
                })
        String pathBase;
    }

    private ModelCommand() {}

    /**
     * @param spec     the command
     * @param env      the analysis and the working directory
     * @param options  the shared options
     * @param document turns the analysis into the document's writer
     * @return {@link Main#EXIT_OK}
     */
    static int run(
            CommandSpec spec,
            Environment env,
            Options options,
            Function<AnalysisResult, AtomicFiles.Content> document) {
        return run(spec, env, options.paths, options.threads, options.output, options.pathBase, document);
    }

    /**
     * @param spec     the command, for its output streams and usage errors
     * @param env      the analysis and the working directory
     * @param paths    the PATH arguments
     * @param threads  the {@code --threads} value, or null for one per processor
     * @param output   the {@code --output} value, null or {@code -} for standard output
     * @param pathBase the {@code --path-base} value, or null for the git root above the scan root
     * @param document turns the analysis into the document's writer
     * @return {@link Main#EXIT_OK}
     * @throws ParameterException for a bad option value
     * @throws InputException     for a missing path or an unwritable output
     */
    static int run(
            CommandSpec spec,
            Environment env,
            List<String> paths,
            Integer threads,
            String output,
            String pathBase,
            Function<AnalysisResult, AtomicFiles.Content> document) {
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
        // paths relative to the same base as scan's reports (the git root by default), so they can be compared
        Path base =
                choosePathBase(pathBase == null ? null : cwd.resolve(pathBase).normalize(), scan.root());
        AnalysisResult result = env.engine().analyze(base, scan.targets(), threadCount, List.of());
        PrintWriter err = spec.commandLine().getErr();
        for (Notification n : result.notifications()) {
            if (n.level() == Severity.ERROR || n.leavesOut()) {
                // a file that could not be read or parsed: what it holds is missing from the document
                err.println(TerminalText.escape(n.region().toString()) + ": "
                        + n.level().sarifLevel() + ": " + TerminalText.escape(n.message()));
            }
        }
        err.flush();
        write(spec, cwd, file, document.apply(result));
        return Main.EXIT_OK;
    }

    /**
     * Writes a document to a file (atomically) or to standard output.
     *
     * @param spec    the command, for its output stream
     * @param cwd     the working directory, against which {@code file} is resolved
     * @param file    the output file, or null for standard output
     * @param content the document
     * @throws InputException when the file or standard output cannot be written
     */
    /**
     * Says on standard error that an output file given as a symbolic link leading out of its
     * directory was replaced by the report rather than written through ({@link AtomicFiles.Outcome#REPLACED_LINK}).
     *
     * @param spec    the command, for its error stream
     * @param outcome what {@link AtomicFiles#write} did
     * @param file    the output file as the user gave it
     */
    static void warnIfLinkReplaced(CommandSpec spec, AtomicFiles.Outcome outcome, String file) {
        if (outcome == AtomicFiles.Outcome.REPLACED_LINK) {
            PrintWriter err = spec.commandLine().getErr();
            err.println(
                    ToolInfo.NAME + ": warning: " + TerminalText.escape(file) + " was a symbolic link leading out of"
                            + " its directory; the link was replaced by the report, nothing outside was written");
            err.flush();
        }
    }

    static void write(CommandSpec spec, Path cwd, String file, AtomicFiles.Content content) {
        if (file != null) {
            try {
                warnIfLinkReplaced(spec, AtomicFiles.write(cwd.resolve(file), content), file);
            } catch (IOException | RuntimeException e) {
                throw new InputException("cannot write " + file + ": " + ScanTargets.describe(e), e);
            }
        } else {
            PrintWriter out = spec.commandLine().getOut();
            try {
                content.writeTo(out);
            } catch (IOException e) {
                throw new InputException("cannot write to standard output: " + ScanTargets.describe(e), e);
            }
            out.flush();
        }
    }

    private static Path choosePathBase(Path explicit, Path scanRoot) {
        try {
            return PathBase.choose(explicit, scanRoot, null).directory();
        } catch (ScanException e) {
            throw new InputException(e.getMessage(), e);
        }
    }
}
