package io.github.pgadvisorylint.core.model;

import java.util.List;
import java.util.Objects;

/**
 * A release that cannot release what its method (or, for a method that only releases, its class) holds, found by
 * comparing the key, key space, mode and level of the release with those of the acquisitions written there
 * ({@code core.keys.ReleaseMatching}). Path facts about releases (a release on a path where the try-lock failed,
 * on another connection, stacked holds on a path) are {@link PathFinding}s; these are the facts of the written
 * keys themselves, which hold on every path.
 *
 * @param kind              what does not match (RULES.md F2, F4, F5, F6, F7)
 * @param release           the release concerned, where the finding goes
 * @param holds             the acquisitions it is compared with, in source order (related locations), never empty
 * @param scope             whether they are the method's own acquisitions or its class's
 * @param releaseComputation for {@link Kind#KEY_COMPUTED_DIFFERENTLY}, how the release computes its key part
 *                          ({@code lockId from 1 input}); else null
 * @param holdComputation   for {@link Kind#KEY_COMPUTED_DIFFERENTLY}, how the hold computes it; else null
 * @param releases          for {@link Kind#EXTRA_UNLOCK} and {@link Kind#STACKED_UNRELEASED}, how many unlocks of
 *                          the key the method writes; else 0
 */
public record ReleaseMismatch(
        Kind kind,
        LockSite release,
        List<LockSite> holds,
        Scope scope,
        String releaseComputation,
        String holdComputation,
        int releases) {

    /** Copies the holds and checks the required fields. */
    public ReleaseMismatch {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(release, "release");
        Objects.requireNonNull(scope, "scope");
        holds = List.copyOf(holds);
        if (holds.isEmpty()) {
            throw new IllegalArgumentException("a release mismatch names at least one acquisition");
        }
    }

    /** Whose acquisitions a release is compared with. */
    public enum Scope {
        /** The acquisitions of the release's own method (or script). */
        METHOD,
        /** The acquisitions of the release's class: the method only releases (a lock class's {@code unlock()}). */
        CLASS
    }

    /** What does not match. */
    public enum Kind {
        /**
         * The key is computed by the same function as every lock's it could release, from other inputs
         * ({@code lockId(db)} against {@code lockId(db, schema)}): whenever the inputs differ, nothing is released.
         */
        KEY_COMPUTED_DIFFERENTLY,
        /** {@code pg_advisory_unlock*} of a key only locked at transaction level: no early release (F2). */
        TRANSACTION_LEVEL,
        /** An exclusive unlock of a key locked shared, or the reverse: returns false with a WARNING (F7). */
        OTHER_MODE,
        /** {@code lock(k)} against {@code unlock(0, k)}: the two key spaces never overlap (F6). */
        OTHER_KEY_SPACE,
        /** A known key the method (class) never locks, while every key it locks is known and another. */
        OTHER_KEY,
        /** More unlocks of a key than locks, in straight-line code: the extra one returns false (F4). */
        EXTRA_UNLOCK,
        /** A key locked twice or more and unlocked fewer times, in straight-line code: still held (F4). */
        STACKED_UNRELEASED,
        /** {@code pg_advisory_unlock_all()} as the only release of the one key a method locks (F5). */
        UNLOCK_ALL_ONLY_RELEASE,
        /**
         * {@code pg_advisory_unlock_all()} through an API that borrows a pooled connection per call, outside a
         * transaction, in a class that takes no session-level lock while the project does (F5).
         */
        UNLOCK_ALL_POOLED,
        /** {@code pg_advisory_unlock_all()} on a connection just borrowed, in a class that locks elsewhere (F5). */
        UNLOCK_ALL_FRESH_CONNECTION
    }
}
