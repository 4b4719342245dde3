package io.github.pgadvisorylint.core.rule;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * A location that tells the other half of a finding's story (SARIF 2.1.0 {@code relatedLocations},
 * section 3.27.22): the unlock outside {@code finally}, the pooler configuration line, the other site
 * of a duplicate key.
 *
 * @param region  where
 * @param message what is there, plain text, one sentence
 */
public record RelatedLocation(SourceRegion region, String message) {
    /** Checks that both fields are present. */
    public RelatedLocation {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(message, "message");
    }
}
