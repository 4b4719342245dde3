package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Comparator;
import java.util.Objects;

/**
 * One place in a configuration file that says (or suggests) how connections are pooled.
 *
 * @param mode        the pooling mode it shows; always {@link PoolingMode#TRANSACTION} when inferred
 * @param strength    {@link EvidenceStrength#DECLARED} when the file names the mode, {@link EvidenceStrength#INFERRED}
 *                    when it is guessed from a URL or a driver setting
 * @param region      the value that says so: the {@code transaction} of {@code pool_mode = transaction}, the
 *                    {@code 6432} of a URL's port, the host name, or {@code prepareThreshold=0}
 * @param description one short sentence for a related location, e.g. {@code pool_mode = transaction in
 *                    [pgbouncer]} or {@code JDBC URL on port 6432, PgBouncer's default port}
 */
public record PoolingEvidence(PoolingMode mode, EvidenceStrength strength, SourceRegion region, String description)
        implements Comparable<PoolingEvidence> {

    private static final Comparator<PoolingEvidence> ORDER = Comparator.comparing(PoolingEvidence::region)
            .thenComparing(PoolingEvidence::strength)
            .thenComparing(PoolingEvidence::mode)
            .thenComparing(PoolingEvidence::description);

    /** Checks that every field is present; throws {@link NullPointerException} otherwise. */
    public PoolingEvidence {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(strength, "strength");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(description, "description");
    }

    /** Orders by region (path, line, column), then strength, mode and description. */
    @Override
    public int compareTo(PoolingEvidence o) {
        return ORDER.compare(this, o);
    }
}
