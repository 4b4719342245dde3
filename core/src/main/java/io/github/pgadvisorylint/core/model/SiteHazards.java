package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * What the code around one acquisition does that defeats the lock although the lock call itself is
 * right: its failure is caught and swallowed inside its own method before the guarded work runs anyway
 * (RULES.md lock-failure-ignored). Computed once per Java file by {@code core.java.LockHazardAnalyzer}
 * from the handler's syntax; read through {@link LockModel#hazards(LockSite)}. Immutable. (A release
 * inside an open transaction is a path fact now: {@link PathFinding.Kind#RELEASE_BEFORE_COMMIT}.)
 *
 * @param swallowedFailure the handler that swallows the acquisition's failure while the work goes on, or null
 */
public record SiteHazards(SwallowedFailure swallowedFailure) {

    /** Nothing found. */
    public static final SiteHazards NONE = new SiteHazards(null);

    /**
     * An acquisition whose exception is caught by a handler that only logs, does nothing or assigns a
     * default (it neither rethrows, returns, nor sets a flag the later code checks), after which the
     * guarded work runs as if the lock were held. A blocking acquisition fails with
     * {@code lock_timeout} (F12, SQLSTATE 55P03), {@code deadlock detected} (F9), a statement timeout or
     * a broken connection; a try-lock's {@code false} can be turned into an exception by the code.
     *
     * @param catchClause the catch clause that swallows the failure
     * @param handling    what the handler does, for messages, e.g. {@code only logs}
     * @param work        the first statement of the work that runs anyway (in a caller for a lock
     *                    method that swallows and returns normally)
     * @param workNote    a short phrase naming it, e.g. {@code rebuildIndex(...) runs next}
     * @param falseThrown true when the failure caught is the exception the code throws for a
     *                    try-lock's {@code false}, not the acquisition's own error
     */
    public record SwallowedFailure(
            SourceRegion catchClause, String handling, SourceRegion work, String workNote, boolean falseThrown) {

        /** Checks that the required fields are present. */
        public SwallowedFailure {
            Objects.requireNonNull(catchClause, "catchClause");
            Objects.requireNonNull(handling, "handling");
            Objects.requireNonNull(work, "work");
            Objects.requireNonNull(workNote, "workNote");
        }
    }
}
