package io.github.pgadvisorylint.core.analysis;

import java.time.Duration;

/**
 * The analysis stopped because one file (in one phase: read, parse, extract), the whole-program lock paths or one rule ran longer than
 * the wall-clock safety limit ({@link Analyzer.Builder#timeLimit}). Every bound that decides what is
 * reported counts work, never time, so the same input gives the same report on any machine and load; the
 * time limit only guards against a hang, and a run that hits it fails as a whole instead of reporting
 * less. The CLI exits with code 3, the Maven plugin fails the build.
 */
public final class TimeLimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What ran too long: a path relative to the path base, or {@code rule ID}. */
    private final String subject;

    /** The limit it exceeded. */
    private final Duration limit;

    /**
     * @param subject what ran too long: a path relative to the path base, or {@code rule ID}
     * @param limit   the limit it exceeded
     */
    public TimeLimitExceededException(String subject, Duration limit) {
        super("the analysis of " + subject + " took longer than the time limit of "
                + AnalysisRun.describe(limit.toNanos())
                + "; the scan stopped without a report, so that no verdict depends on the machine's speed."
                + " Raise the limit (--time-limit, Maven: timeLimit, configuration: timeLimit), or report the"
                + " input as a performance bug");
        this.subject = subject;
        this.limit = limit;
    }

    /** @return what ran too long: a path relative to the path base, or {@code rule ID} */
    public String subject() {
        return subject;
    }

    /** @return the limit it exceeded */
    public Duration limit() {
        return limit;
    }
}
