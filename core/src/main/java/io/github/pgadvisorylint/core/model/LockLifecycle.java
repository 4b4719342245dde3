package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * An acquisition paired with the release the tool found for it, and how that release is guaranteed.
 *
 * @param acquisition    the acquiring lock site
 * @param guarantee      how the release is guaranteed
 * @param releaseRegion  the release that was paired (the unlock call, or the call of a method that
 *                       unlocks), or null when there is none
 * @param note           a short human explanation of what was found, e.g. {@code unlock at line 40 is
 *                       not in a finally block}; may be empty, never null
 */
public record LockLifecycle(LockSite acquisition, ReleaseGuarantee guarantee, SourceRegion releaseRegion, String note) {

    /** Checks that the required fields are present. */
    public LockLifecycle {
        Objects.requireNonNull(acquisition, "acquisition");
        Objects.requireNonNull(guarantee, "guarantee");
        Objects.requireNonNull(note, "note");
    }
}
