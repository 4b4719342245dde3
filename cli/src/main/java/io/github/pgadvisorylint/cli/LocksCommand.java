package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.keys.KeyInventory;
import io.github.pgadvisorylint.core.report.TerminalText;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.PrintWriter;
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
 * {@code locks [--url URL] [PATH...]} ({@link ConnectionTarget}: a JDBC URL, a connection URI or libpq's variables): the advisory locks held and awaited now on a PostgreSQL database
 * ({@code pg_locks} joined with {@code pg_stat_activity} and {@code pg_blocking_pids}, read in one read-only
 * transaction), each key decoded into its key space and value (fact F6) and matched to the code sites of the key
 * inventory of PATH ({@link KeyInventory}, the {@code keys} command's). Without PATH the keys are not matched.
 */
@Command(
        name = "locks",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Lists the advisory locks held and awaited now on the database of --url: each key's key space"
                    + " and value, the sessions holding and awaiting it (pid, application, client address, connected"
                    + " since, state and since when, last query, which pid blocks which), the wait chains, and the code sites of PATH that take the key (file:line and"
                    + " method), or 'unknown to the code'. Reads only, in a read-only transaction.",
            "Password: ?password= in the URL, else the PGPASSWORD environment variable, else ~/.pgpass (or the file"
                    + " PGPASSFILE names), read by the PostgreSQL JDBC driver. It is never printed: wherever the URL is"
                    + " shown, passwords in it read ****.",
            "Every wait on the server is bounded by --timeout: connecting, logging in, each query"
                    + " (statement_timeout); a server that does not answer in time is exit code 4.",
            "The scan root is PATH when exactly one directory is given, else the current directory; code sites'"
                    + " paths are relative to --path-base. Without PATH, no code is read and the keys are not matched."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the locks were written",
            "2:usage or input error: bad option or value, no such path, unwritable output",
            "3:internal error: a bug, please report it (--debug prints the stack trace)",
            "4:the server cannot be reached (refused, unknown host, no answer within --timeout, too many connections)"
                    + " or the read failed",
            "5:the server refused the login (wrong password, no password, unknown role or database, no CONNECT"
                    + " privilege, pg_hba.conf)",
            "6:the locks were written, but the role cannot see other roles' sessions (it is no superuser and lacks"
                    + " pg_read_all_stats): their state and times are missing"
        },
        footer = {
            "%nExamples:",
            "  pg-advisory-lint locks --url 'jdbc:postgresql://db:5432/app?user=ops' .",
            "  PGHOST=db PGUSER=ops PGDATABASE=app pg-advisory-lint locks .",
            "  pg-advisory-lint locks --url 'postgresql://ops@db/app?sslmode=require' src",
            "  PGPASSWORD=... pg-advisory-lint locks --format json --url 'postgresql://ops@db/app'"
        })
final class LocksCommand implements Callable<Integer> {

    /** The longest --timeout, seconds: an hour (PostgreSQL's statement_timeout and the driver's take milliseconds). */
    static final int MAX_TIMEOUT_SECONDS = 3600;

    /** Exit code: the server could not be reached. */
    static final int EXIT_UNREACHABLE = 4;
    /** Exit code: the server refused the login. */
    static final int EXIT_LOGIN_REFUSED = 5;
    /** Exit code: written, but other roles' sessions hid their activity from the connected role. */
    static final int EXIT_INCOMPLETE = 6;

    /** Converts {@code text|json|markdown}, any case. */
    static final class FormatConverter implements ITypeConverter<LocksReport.Format> {
        @Override
        public LocksReport.Format convert(String value) {
            try {
                return LocksReport.Format.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not one of text, json, markdown");
            }
        }
    }

    private final Environment env;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "The database: a JDBC URL, jdbc:postgresql://HOST[:PORT]/DATABASE[?user=ROLE&...], or a"
                    + " connection URI, postgresql://[ROLE[:PASSWORD]@]HOST[:PORT]/DATABASE[?...]. Default: libpq's"
                    + " PGHOST, PGPORT, PGUSER, PGDATABASE and PGSSLMODE (localhost, 5432, the system user, a database"
                    + " named as the role).")
    private String url;

    @Parameters(
            paramLabel = "PATH",
            arity = "0..*",
            description = "Files or directories whose code the keys are matched to (default: none).")
    private List<String> paths = new ArrayList<>();

    @Option(
            names = {"-f", "--format"},
            paramLabel = "FORMAT",
            converter = FormatConverter.class,
            defaultValue = "text",
            description = "Output format: text, json or markdown (default: ${DEFAULT-VALUE}).")
    private LocksReport.Format format;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write to FILE (replaced atomically) instead of standard output; '-' is standard output.")
    private String output;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            defaultValue = "" + LiveLocks.DEFAULT_TIMEOUT_SECONDS,
            description = "The longest wait for the server at each step: connecting, logging in, each query"
                    + " (default: ${DEFAULT-VALUE}). A read from the socket waits "
                    + LiveLocks.SOCKET_MARGIN_SECONDS + " s more, for the server to report its own statement timeout.")
    private int timeoutSeconds;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Parsing threads (default: one per processor). The output never depends on it.")
    private Integer threads;

    @Option(
            names = "--path-base",
            paramLabel = "DIR",
            description = "Directory the code sites' paths are relative to, as in scan. Default: the git root"
                    + " above the scan root (the nearest directory holding .git), else the scan root.")
    private String pathBase;

    /** @param env the analysis, the working directory and the environment variables ({@code PGPASSWORD}) */
    LocksCommand(Environment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        String jdbcUrl = ConnectionTarget.jdbcUrl(url, env.terminal()::getenv, System.getProperty("user.name"));
        if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--timeout must be from 1 to " + MAX_TIMEOUT_SECONDS + " seconds, not " + timeoutSeconds);
        }
        String file = output == null || output.equals("-") ? null : output;
        if (file != null && file.isBlank()) {
            throw new ParameterException(spec.commandLine(), "--output needs a file name");
        }
        if (file != null) {
            ScanTargets.checkWritableLocation(
                    env.workingDirectory().resolve(file).normalize(), file);
        }
        if (!paths.isEmpty()) {
            ScanTargets.resolve(env.workingDirectory(), paths); // a wrong PATH fails before the server is asked
        }
        LiveLocks.Snapshot snapshot = LiveLocks.read(jdbcUrl, env.terminal().getenv("PGPASSWORD"), timeoutSeconds);
        LocksReport[] report = new LocksReport[1];
        if (paths.isEmpty()) {
            report[0] = new LocksReport(snapshot, null);
            ModelCommand.write(spec, env.workingDirectory(), file, out -> report[0].write(format, out));
        } else {
            ModelCommand.run(spec, env, paths, threads, output, pathBase, result -> {
                report[0] = new LocksReport(snapshot, KeyInventory.of(result.model()));
                return out -> report[0].write(format, out);
            });
        }
        if (snapshot.hiddenSessions() > 0) {
            PrintWriter err = spec.commandLine().getErr();
            err.println(ToolInfo.NAME + ": " + report[0].hiddenNote(TerminalText::escape));
            err.flush();
            return EXIT_INCOMPLETE;
        }
        return Main.EXIT_OK;
    }
}
