package io.github.pgadvisorylint.core.source;

import io.github.pgadvisorylint.core.model.LockSite;

/**
 * Test-only class for {@code ArchitectureRulesFailTest}: a {@code core.source} class that depends on
 * {@code core.model}, closing a cycle with {@code model -> source} ({@code LockSite} holds a
 * {@code SourceRegion}). Never imported by {@code ArchitectureTest}, which reads main classes only.
 */
final class CycleProbe {

    private CycleProbe() {}

    /**
     * @param site any site
     * @return its region, read through the model
     */
    static SourceRegion regionOf(LockSite site) {
        return site.region();
    }
}
