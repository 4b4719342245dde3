package io.github.pgadvisorylint.core.config;

import java.nio.file.Path;

/**
 * A configuration file that cannot be used: unreadable, not YAML, an unknown key, a bad value. The
 * message is complete and names the file, the 1-based line and column, and the allowed keys or
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
        super(file + (line > 0 ? ":" + line + (column > 0 ? ":" + column : "") : "") + ": " + problem, cause);
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
