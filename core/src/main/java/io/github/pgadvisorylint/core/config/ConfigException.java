package io.github.pgadvisorylint.core.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A configuration file that cannot be used: unreadable, not YAML, an unknown key, a bad value. The
 * message (one line per problem when the file has several) is complete and names the file, the 1-based line and column, and the allowed keys or
 * values, e.g. {@code .pg-advisory-lint.yml:3:10: pooling: 'transactional' is not allowed (allowed:
 * auto, transaction, statement, session, none)}. The CLI exits with 2; the Maven plugin throws
 * {@code MojoExecutionException}.
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The file, as it was given or found. */
    private final transient Path file;

    private final int line;

    /**
     * @param file    the configuration file
     * @param line    1-based line of the problem, or 0 when it concerns the whole file
     * @param column  1-based column, or 0 when unknown
     * @param problem what is wrong and what is allowed, without the location
     * @param cause   the underlying exception, or null
     */
    public ConfigException(Path file, int line, int column, String problem, Throwable cause) {
        // one line: a value quoted in the problem may hold line breaks, shown escaped
        super(
                file + (line > 0 ? ":" + line + (column > 0 ? ":" + column : "") : "") + ": "
                        + problem.replace("\r", "\\r").replace("\n", "\\n"),
                cause);
        this.file = file;
        this.line = line;
    }

    /**
     * Several problems of one file, reported together.
     *
     * @param problems at least two problems of the same file, in file order
     * @return one exception whose message holds each problem's message on a line of its own, the first
     *     problem's line as its {@link #line()}
     */
    public static ConfigException several(List<ConfigException> problems) {
        List<String> lines = new ArrayList<>();
        for (ConfigException p : problems) {
            lines.add(p.getMessage());
        }
        ConfigException first = problems.get(0);
        return new ConfigException(first.file, first.line, String.join("\n", lines), first);
    }

    private ConfigException(Path file, int line, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
        this.line = line;
    }

    /** @return the configuration file */
    public Path file() {
        return file;
    }

    /** @return the 1-based line of the problem, or 0 for the whole file */
    public int line() {
        return line;
    }
}
