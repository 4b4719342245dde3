package io.github.pgadvisorylint.core.session;

import java.nio.file.Path;

/**
 * A scan that cannot run or finish because of its input: a missing or malformed configuration or
 * baseline file, a report or baseline that cannot be written, a path base that does not fit. Front
 * ends turn it into their own error (the CLI's exit code 2, a Maven execution error), wording it from
 * {@link #problem()} and {@link #file()} where they name files their own way. A failure of the
 * analysis itself (a bug) is never wrapped in this exception.
 */
public final class ScanException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Problem {
        /** The configuration file given does not exist. */
        NO_CONFIG_FILE,
        /** The configuration file cannot be read or is invalid; the message names file, line and column. */
        BAD_CONFIG,
        /** The baseline file given does not exist (and is not the one to write). */
        NO_BASELINE_FILE,
        /** The baseline file cannot be read or is invalid. */
        BAD_BASELINE,
        /** The baseline cannot be written. */
        UNWRITABLE_BASELINE,
        /** A report file cannot be written. */
        UNWRITABLE_REPORT,
        /** The path base is no directory or does not hold the scanned directory. */
        BAD_PATH_BASE
    }

    private final Problem problem;
    private final transient Path file;

    /**
     * @param problem what went wrong
     * @param file    the file concerned, absolute
     * @param message a complete sentence without the tool's name
     * @param cause   the underlying exception, or null
     */
    public ScanException(Problem problem, Path file, String message, Throwable cause) {
        super(message, cause);
        this.problem = problem;
        this.file = file;
    }

    /** @return what went wrong */
    public Problem problem() {
        return problem;
    }

    /** @return the file concerned, absolute */
    public Path file() {
        return file;
    }
}
