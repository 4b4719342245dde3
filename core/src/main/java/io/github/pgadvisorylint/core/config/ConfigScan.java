package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import java.util.List;

/**
 * What {@link PoolingEvidenceScanner#scan} found in one configuration file.
 *
 * @param evidence      pooling evidence sorted by region; never null, unmodifiable
 * @param notifications problems with the file itself (kind {@code config-parse-error}, level {@code WARNING}),
 *                      sorted; never null, unmodifiable
 */
public record ConfigScan(List<PoolingEvidence> evidence, List<Notification> notifications) {

    /** Copies both lists (unmodifiable); throws {@link NullPointerException} on a null list or element. */
    public ConfigScan {
        evidence = List.copyOf(evidence);
        notifications = List.copyOf(notifications);
    }

    /** @return a scan with neither evidence nor notifications */
    public static ConfigScan empty() {
        return new ConfigScan(List.of(), List.of());
    }
}
