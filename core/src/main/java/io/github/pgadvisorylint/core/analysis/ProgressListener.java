package io.github.pgadvisorylint.core.analysis;

/**
 * Receives progress of a running analysis, for a terminal's progress line. Called from worker
 * threads, possibly concurrently, with non-decreasing {@code done} per thread; implementations must
 * be thread-safe and cheap. Progress never reaches a report.
 */
@FunctionalInterface
public interface ProgressListener {

    /** A listener that ignores everything. */
    ProgressListener NONE = (done, total) -> { };

    /**
     * @param done  work units finished so far, {@code 0..total}
     * @param total work units in all: two per discovered file (read and prefiltered; analysed)
     */
    void progress(int done, int total);
}
