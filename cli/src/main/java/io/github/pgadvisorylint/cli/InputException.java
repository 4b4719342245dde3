package io.github.pgadvisorylint.cli;

/**
 * A problem with what the user asked for that is found while running rather than while parsing
 * options: a path that does not exist, an output that cannot be written, an unknown rule id.
 * Reported as one line on standard error with exit code {@link Main#EXIT_USAGE}.
 */
final class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming the offending input */
    InputException(String message) {
        super(message);
    }

    /**
     * @param message one line naming the offending input
     * @param cause   the underlying error
     */
    InputException(String message, Throwable cause) {
        super(message, cause);
    }
}
