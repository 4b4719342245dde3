package io.github.pgadvisorylint.core.baseline;

import java.nio.file.Path;

/**
 * A baseline file that cannot be read or does not follow the format of {@link Baseline}. The message
 * names the file (and the line for JSON syntax errors) and what is wrong; the CLI exits with 2 and
 * the Maven plugin throws {@code MojoExecutionException}.
 */
public final class BaselineException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param file    the baseline file
     * @param line    1-based line, or 0 when the problem concerns the whole file
     * @param problem what is wrong
     * @param cause   the underlying exception, or null
     */
    public BaselineException(Path file, int line, String problem, Throwable cause) {
        super(file + (line > 0 ? ":" + line : "") + ": " + problem, cause);
    }
}
