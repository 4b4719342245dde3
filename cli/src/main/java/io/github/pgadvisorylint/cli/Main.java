package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.analysis.TimeLimitExceededException;
import io.github.pgadvisorylint.core.config.ConfigException;
import io.github.pgadvisorylint.core.report.TerminalText;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code pg-advisory-lint} command: {@code scan}, {@code keys}, {@code graph}, {@code locks},
 * {@code list-rules}, {@code explain}, {@code help}. {@link #main} is the only place that calls {@link System#exit}; everything else
 * returns exit codes through picocli:
 * {@link #EXIT_OK 0}, {@link #EXIT_FINDINGS 1}, {@link #EXIT_USAGE 2}, {@link #EXIT_INTERNAL 3}.
 */
@Command(
        name = "pg-advisory-lint",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Finds PostgreSQL advisory-lock misuse in Java code and SQL files.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:no finding at or above --fail-on",
            "1:findings at or above --fail-on (scan; default: warning)",
            "2:usage or input error: bad option or value, no such path, unwritable output, unknown rule",
            "3:internal error: a bug, please report it (--debug prints the stack trace)",
            "4:locks only: the server cannot be reached",
            "5:locks only: the server refused the login",
            "6:locks only: written, but other roles' sessions are hidden from the role"
        },
        footer = "%nRun 'pg-advisory-lint help COMMAND' for a command's options. Documentation: "
                + ToolInfo.INFORMATION_URI)
public final class Main implements Runnable {

    /** Exit code: nothing at or above the {@code --fail-on} level (or a command without findings). */
    public static final int EXIT_OK = 0;
    /** Exit code: {@code scan} found something at or above the {@code --fail-on} level. */
    public static final int EXIT_FINDINGS = 1;
    /** Exit code: a usage or input error (bad option or value, no such path, unwritable output). */
    public static final int EXIT_USAGE = 2;
    /** Exit code: an internal error, i.e. a bug in the tool. */
    public static final int EXIT_INTERNAL = 3;

    @Spec
    private CommandSpec spec;

    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "On an internal error, print the stack trace.")
    @SuppressWarnings("UnusedVariable") // declares the option; the handler reads it from the parse result
    private boolean debug;

    /** Only {@link #commandLine(Environment)} creates the command. */
    private Main() {}

    /**
     * Runs the command line and exits the JVM with its exit code. Standard output is UTF-8.
     *
     * @param args the command-line arguments
     */
    public static void main(String[] args) {
        CommandLine cli = commandLine(Environment.standard());
        cli.setOut(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true));
        int code;
        try {
            code = cli.execute(args);
        } catch (OutOfMemoryError e) {
            // where the heap ran out says nothing of the cause: name the limit, blame nothing
            System.err.println(outOfMemory(Runtime.getRuntime().maxMemory()));
            code = EXIT_INTERNAL;
        } catch (Throwable t) {
            // an Error escapes picocli's handlers: still a tool failure, never "findings"
            System.err.println(ToolInfo.NAME + ": internal error: " + t + ". This is a bug; please report it at "
                    + ToolInfo.INFORMATION_URI + "/issues");
            code = EXIT_INTERNAL;
        }
        if (System.out.checkError()) {
            System.err.println(ToolInfo.NAME + ": cannot write to standard output (closed pipe or full device)");
            code = Math.max(code, EXIT_USAGE);
        }
        System.exit(code);
    }

    /**
     * The heap may run out anywhere (the analysis, a report being written, a baseline), so the message
     * names the limit and how to raise it, and guesses no cause: never the input.
     *
     * @param maxHeapBytes the JVM's heap limit ({@link Runtime#maxMemory()}, bytes)
     * @return what to tell the user when the run ran out of memory: the limit and how to raise it
     */
    static String outOfMemory(long maxHeapBytes) {
        String raised = "-Xmx" + Math.max(1, 2 * ((maxHeapBytes >> 30) + 1)) + "g";
        return ToolInfo.NAME + ": out of memory: the Java heap limit is " + (maxHeapBytes >> 20) + " MB, too small"
                + " for this run. Raise it, e.g. JAVA_OPTS=" + raised + " (read by bin/pg-advisory-lint; with java"
                + " -jar, give " + raised
                + " to java). If a much larger heap does not help either, please report it at "
                + ToolInfo.INFORMATION_URI + "/issues.";
    }

    /**
     * @param env the rules, the analysis and the working directory to use
     * @return the configured command line, with exit-code mapping and error handlers installed
     */
    static CommandLine commandLine(Environment env) {
        CommandLine cli = new CommandLine(new Main());
        cli.addSubcommand(new ScanCommand(env));
        cli.addSubcommand(new KeysCommand(env));
        cli.addSubcommand(new GraphCommand(env));
        cli.addSubcommand(new LocksCommand(env));
        cli.addSubcommand(new ListRulesCommand(env));
        cli.addSubcommand(new ExplainCommand(env));
        cli.addSubcommand(new CommandLine.HelpCommand());
        cli.setParameterExceptionHandler(Main::handleParameterException);
        cli.setExecutionExceptionHandler(Main::handleExecutionException);
        return cli;
    }

    /** Without a subcommand there is nothing to do: a usage error. */
    @Override
    public void run() {
        throw new ParameterException(
                spec.commandLine(), "missing command: scan, keys, graph, locks, list-rules, explain or help");
    }

    private static int handleParameterException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(ToolInfo.NAME + ": " + TerminalText.escape(UrlMask.maskIn(ex.getMessage())));
        if (!UnmatchedArgumentException.printSuggestions(ex, err)) {
            err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
        }
        err.flush();
        return EXIT_USAGE;
    }

    private static final Pattern NEWLINE = Pattern.compile("\n");

    private static boolean hasCause(Throwable ex, Class<? extends Throwable> type) {
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        if (ex instanceof InputException) {
            // one line per problem of a configuration file with several mistakes (ConfigException.several joins
            // them with \n and escapes every other line break); any other message is one line, escaped whole
            List<String> lines = hasCause(ex, ConfigException.class)
                    ? List.of(NEWLINE.split(ex.getMessage(), -1))
                    : List.of(ex.getMessage());
            lines.forEach(l -> err.println(ToolInfo.NAME + ": " + TerminalText.escape(UrlMask.maskIn(l))));
            err.flush();
            return EXIT_USAGE;
        }
        if (ex instanceof LiveLocks.Failure f) {
            // the server is unreachable or refused the login: the user's to fix, one line
            err.println(ToolInfo.NAME + ": " + TerminalText.escape(UrlMask.maskIn(ex.getMessage())));
            err.flush();
            return f.exitCode();
        }
        if (ex instanceof TimeLimitExceededException) {
            // a hang guard, not a verdict: the run reports nothing rather than less (exit 3, as a bug)
            err.println(ToolInfo.NAME + ": " + TerminalText.escape(ex.getMessage()));
            err.flush();
            return EXIT_INTERNAL;
        }
        boolean debug = debugRequested(parseResult);
        err.println(ToolInfo.NAME + ": internal error: " + TerminalText.escape(UrlMask.maskIn(String.valueOf(ex)))
                + ". This is a bug; please report it at " + ToolInfo.INFORMATION_URI + "/issues"
                + (debug ? "" : " (add --debug for the stack trace)"));
        if (debug) {
            ex.printStackTrace(err);
        }
        err.flush();
        return EXIT_INTERNAL;
    }

    private static boolean debugRequested(ParseResult parseResult) {
        for (ParseResult pr = parseResult; pr != null; pr = pr.subcommand()) {
            if (pr.hasMatchedOption("--debug")) {
                return true;
            }
        }
        return false;
    }
}
