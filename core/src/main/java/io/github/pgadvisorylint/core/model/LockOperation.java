package io.github.pgadvisorylint.core.model;

/**
 * What an advisory-lock function does (PostgreSQL docs, "Advisory Lock Functions", table 9.105).
 */
public enum LockOperation {
    /** Waits until the lock is granted; returns {@code void}. */
    ACQUIRE,
    /** Returns {@code true} when granted, {@code false} at once otherwise. */
    TRY_ACQUIRE,
    /** Releases one hold of one key; returns {@code boolean}. */
    RELEASE,
    /** Releases every session-level advisory lock of the current session (RULES.md F5). */
    RELEASE_ALL;

    /** @return true for {@link #ACQUIRE} and {@link #TRY_ACQUIRE} */
    public boolean isAcquisition() {
        return this == ACQUIRE || this == TRY_ACQUIRE;
    }

    /** @return true for {@link #RELEASE} and {@link #RELEASE_ALL} */
    public boolean isRelease() {
        return this == RELEASE || this == RELEASE_ALL;
    }
}
