package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.LoopContext;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One result per loop for the loop rules: the lock sites a rule flags, grouped by the loop that takes them
 * ({@link LoopContext#region()}), so the rule reports the first and names the others of the iteration.
 */
final class LoopResults {

    private final Map<SourceRegion, List<LockSite>> byLoop = new LinkedHashMap<>();
    private final LockModel model;

    /** @param model the model whose {@link LockModel#usage} gives each site's loop */
    LoopResults(LockModel model) {
        this.model = model;
    }

    /** Adds a flagged site to its loop's group (its own group when the model gives it no loop). */
    void add(LockSite site) {
        LoopContext loop = model.usage(site).loop();
        byLoop.computeIfAbsent(loop == null ? site.region() : loop.region(), r -> new ArrayList<>())
                .add(site);
    }

    /** @return the groups, in the order their first sites were added; each non-empty */
    List<List<LockSite>> groups() {
        return List.copyOf(byLoop.values());
    }

    /** @return a related location for each site of the group but the first, the one reported */
    static List<RelatedLocation> othersOf(List<LockSite> group) {
        List<RelatedLocation> related = new ArrayList<>();
        for (LockSite other : group.subList(1, group.size())) {
            related.add(new RelatedLocation(other.region(), "another lock taken in each iteration and kept"));
        }
        return related;
    }
}
