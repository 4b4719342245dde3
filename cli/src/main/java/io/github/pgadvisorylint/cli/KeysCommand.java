package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Notification;
import io.github.pgadvisorylint.core.keys.KeyInventory;
import io.github.pgadvisorylint.core.report.AtomicFiles;
import io.github.pgadvisorylint.core.report.KeyInventoryWriter;
import io.github.pgadvisorylint.core.report.KeyInventoryWriter.Format;
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
 * {@code keys [PATH...]}: the inventory of every advisory-lock key in the scanned files, with the
 * {@code pg_locks} columns each one shows as, where its value was written, the functions using it and
 * every site. Runs no rule; exits 0 unless the command line or the input is wrong (2).
 */
@Command(name = "keys", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Lists every advisory-lock key: key space, value, the pg_locks classid/objid/objsubid it"
                + " shows as, its origin (constant or literal), the functions, levels and modes using it, and"
                + " every site. Keys not known statically are listed with their expression.",
            "The scan root is PATH when exactly one directory is given, else the current directory;"
                    + " paths are relative to it."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the inventory was written",
            "2:usage or input error: bad option or value, no such path, unwritable output",
            "3:internal error: a bug, please report it (--debug prints the stack trace)"},
        footer = {"%nExamples:",
            "  pg-advisory-lint keys .",
            "  pg-advisory-lint keys --format csv --output keys.csv src"})
final class KeysCommand implements Callable<Integer> {

    /** Converts {@code text|json|csv|markdown}, any case. */
    static final class FormatConverter implements ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            try {
                return Format.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not one of text, json, csv, markdown");
            }
        }
    }

    private final Environment env;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "PATH", arity = "0..*",
            description = "Files or directories to read (default: the current directory).")
    private List<String> paths = new ArrayList<>();

    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", converter = FormatConverter.class, defaultValue = "text",
            description = "Output format: text, json, csv or markdown (default: ${DEFAULT-VALUE}).")
    private Format format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the inventory to FILE (replaced atomically) instead of standard output; '-' is standard output.")
    private String output;

    @Option(names = "--threads", paramLabel = "N",
            description = "Parsing threads (default: one per processor). The inventory never depends on it.")
    private Integer threads;

    /** @param env the analysis and the working directory */
    KeysCommand(Environment env) {
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
        KeyInventory inventory = KeyInventory.of(result.model());
        PrintWriter err = spec.commandLine().getErr();
        for (Notification n : result.notifications()) {
            if (n.level() == Severity.ERROR) {
                // a file that could not be read or parsed: its keys are missing from the inventory
                err.println(n.region() + ": " + n.level().sarifLevel() + ": " + n.message());
            }
        }
        err.flush();
        if (file != null) {
            try {
                AtomicFiles.write(cwd.resolve(file), out -> KeyInventoryWriter.write(inventory, format, out));
            } catch (IOException | RuntimeException e) {
                throw new InputException("cannot write " + file + ": " + ScanTargets.describe(e), e);
            }
        } else {
            PrintWriter out = spec.commandLine().getOut();
            try {
                KeyInventoryWriter.write(inventory, format, out);
            } catch (IOException e) {
                throw new InputException("cannot write to standard output: " + ScanTargets.describe(e), e);
            }
            out.flush();
        }
        return Main.EXIT_OK;
    }
}
