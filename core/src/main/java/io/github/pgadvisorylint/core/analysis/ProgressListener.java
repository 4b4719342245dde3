package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.flow.LockStateAnalysis;

/**
 * Receives progress of a running analysis, for a terminal's progress line. Called from worker
 * threads, possibly concurrently, with non-decreasing {@code done} per thread; implementations must
 * be thread-safe and cheap. Progress never reaches a report.
 */
@FunctionalInterface
public interface ProgressListener {

    /** A listener that ignores everything. */
    ProgressListener NONE = (done, total) -> {};

    /**
     * @param done  work units finished so far, {@code 0..total}
     * @param total work units in all: two per discovered file (read and prefiltered; analysed)
     */
    void progress(int done, int total);

    /**
     * Called on the analysis thread when a phase ends (for {@code scan --timings} and the benchmarks).
     * Phases, in order: {@code discover}, {@code read}, then for Java analysis {@code outlines}
     * and one {@code helpers-round-N} per round of lock-helper discovery, then {@code extract},
     * {@code paths}, {@code rules}.
     *
     * @param phase         the phase's name
     * @param elapsedMillis wall time from the start of the analysis to the end of the phase (ms)
     */
    default void phaseDone(String phase, long elapsedMillis) {}

    /**
     * Called once on the analysis thread after the Java part, with what it parsed (for
     * {@code scan --timings} and the benchmarks).
     *
     * @param outlines files parsed as outlines (declarations only) for the constant index
     * @param parses   whole-file parses
     * @param repeated of those, parses of a file parsed whole before in this analysis (a later helper round)
     * @param reused   extractions taken from the cache instead of a parse (the file and what it reads unchanged)
     */
    default void parsed(int outlines, int parses, int repeated, int reused) {}

    /**
     * Called once on the analysis thread after the lock-state analysis, with its size and what it left out
     * (for {@code scan --timings} and the benchmarks).
     *
     * @param bounds the method graphs, the copies made for calling contexts, the methods run to a fixpoint
     *               and those given up over a budget
     */
    default void paths(LockStateAnalysis.Bounds bounds) {}
}
