package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.analysis.ProgressListener;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * A progress line on standard error for long scans on a terminal:
 * {@code pg-advisory-lint: 45% of 5000 files}, rewritten in place with {@code \r}. Nothing is printed
 * during the first {@value #DELAY_MILLIS} ms (short scans stay silent), then at most every
 * {@value #INTERVAL_MILLIS} ms; {@link #clear()} erases the line (ANSI {@code EL}) before the report.
 * Only created when standard error is a terminal and {@code CI} is unset, so pipes and CI logs never
 * see it.
 */
final class ProgressLine implements ProgressListener {

    /** Silence at the start, in milliseconds. */
    static final long DELAY_MILLIS = 1000;
    /** Minimum time between two updates, in milliseconds. */
    static final long INTERVAL_MILLIS = 100;

    private final PrintWriter err;
    private final LongSupplier clock;
    private final long start;
    private long last;
    private boolean shown;

    /**
     * @param err   standard error
     * @param clock milliseconds, monotonic
     */
    ProgressLine(PrintWriter err, LongSupplier clock) {
        this.err = err;
        this.clock = clock;
        this.start = clock.getAsLong();
        this.last = start;
    }

    @Override
    public synchronized void progress(int done, int total) {
        long now = clock.getAsLong();
        if (total <= 0 || now - start < DELAY_MILLIS || (shown && now - last < INTERVAL_MILLIS)) {
            return;
        }
        last = now;
        shown = true;
        int percent = (int) Math.min(100, 100L * done / total);
        err.print("\r" + ToolInfo.NAME + ": " + percent + "% of " + (total / 2) + " files");
        err.flush();
    }

    /** Erases the progress line, if one was shown. */
    synchronized void clear() {
        if (shown) {
            err.print("\r\u001b[K");
            err.flush();
            shown = false;
        }
    }
}
