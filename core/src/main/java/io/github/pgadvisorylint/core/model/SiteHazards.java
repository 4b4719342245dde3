package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * What the code around one lock site does that defeats the lock although the lock call itself is
 * right: a session-level release that runs while the transaction holding the protected writes is
 * still open, or an acquisition whose failure is caught and swallowed before the guarded work runs
 * anyway. Computed once per Java file by {@code core.java.LockHazardAnalyzer}; read through
 * {@link LockModel#hazards(LockSite)}. Immutable.
 *
 * @param uncommittedRelease for a release site: the open transaction it runs in (RULES.md
 *                           session-unlock-before-commit, fact F19), else null
 * @param swallowedFailure   for an acquisition site: the handler that swallows its failure while
 *                           the work goes on (RULES.md lock-failure-ignored), else null
 */
public record SiteHazards(UncommittedRelease uncommittedRelease, SwallowedFailure swallowedFailure) {

    /** Nothing found. */
    public static final SiteHazards NONE = new SiteHazards(null, null);

    /**
     * A session-level unlock that runs before the transaction doing the locked work commits. A
     * session-level unlock takes effect at once, even inside an open transaction (F19): another
     * session takes the key and reads the state before the writes are visible.
     *
     * @param acquisition the session-level acquisition this unlock releases (same method, before it)
     * @param boundary    where the open transaction begins: the {@code @Transactional} annotation, the
     *                    {@code TransactionTemplate.execute} (or similar) call, or {@code setAutoCommit(false)}
     * @param kind        which of the three it is
     * @param evidence    a short phrase for messages, e.g. {@code @Transactional on method settle}
     * @param commit      for {@link Kind#MANUAL_COMMIT}, the {@code commit()} that runs after the unlock; else null
     */
    public record UncommittedRelease(
            SourceRegion acquisition, SourceRegion boundary, Kind kind, String evidence, SourceRegion commit) {

        /** Where the transaction comes from. */
        public enum Kind {
            /** A Spring, Jakarta or Micronaut {@code @Transactional} method (or class) that creates or joins one. */
            TRANSACTIONAL_METHOD,
            /** A callback run inside a transaction: {@code TransactionTemplate.execute}, jOOQ {@code transaction}, JDBI {@code inTransaction}. */
            TRANSACTION_CALLBACK,
            /** A JDBC connection with {@code setAutoCommit(false)} whose {@code commit()} comes after the unlock. */
            MANUAL_COMMIT
        }

        /** Checks that the required fields are present. */
        public UncommittedRelease {
            Objects.requireNonNull(acquisition, "acquisition");
            Objects.requireNonNull(boundary, "boundary");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(evidence, "evidence");
        }
    }

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
