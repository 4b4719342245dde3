package io.github.pgadvisorylint.core.rule;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;

/** What a rule sees while it runs: the lock model, and where to put its findings. */
public interface RuleContext {

    /** @return the model of every scanned file */
    LockModel model();

    /**
     * Reports a finding whose primary location is a lock site. The fingerprint is derived from the
     * rule, the file, the site's function and key, and its enclosing method: never from line numbers.
     *
     * @param severity the finding's severity
     * @param site     the primary site
     * @param message  plain-text message
     * @param related  related locations, possibly empty
     */
    void report(Severity severity, LockSite site, String message, List<RelatedLocation> related);

    /**
     * Reports a finding at an arbitrary region.
     *
     * @param severity the finding's severity
     * @param region   the primary location
     * @param shape    a line-independent description of the code that fingerprints the finding,
     *                 e.g. {@code unlock:pg_advisory_unlock(42)}
     * @param message  plain-text message
     * @param related  related locations, possibly empty
     */
    void report(Severity severity, SourceRegion region, String shape, String message, List<RelatedLocation> related);

    /**
     * Reports a finding with the program path that shows it: as {@link #report(Severity, LockSite, String,
     * List)} or, when {@code region} is not the site's, as {@link #report(Severity, SourceRegion, String,
     * String, List)} with {@code shape}.
     *
     * @param severity the finding's severity
     * @param site     the site the finding is about (its fingerprint)
     * @param region   the primary location: the site's region, or another (a call of the site's helper)
     * @param shape    the fingerprint's shape when {@code region} is not the site's
     * @param message  plain-text message
     * @param related  related locations, possibly empty
     * @param path     the path's steps in execution order, possibly empty; this default drops them
     */
    default void reportPath(
            Severity severity,
            LockSite site,
            SourceRegion region,
            String shape,
            String message,
            List<RelatedLocation> related,
            List<RelatedLocation> path) {
        if (site.region().equals(region)) {
            report(severity, site, message, related);
        } else {
            report(severity, region, shape, message, related);
        }
    }

    /**
     * @return for a rule of phase {@link Rule.Phase#AFTER_FINDINGS}: every in-source suppression of
     *     the analysed files with what it silenced, sorted by location; empty for {@link Rule.Phase#MODEL}
     *     rules, which run before findings exist
     */
    default List<SuppressionUse> suppressionUses() {
        return List.of();
    }

    /** @return the ids of every rule installed (also those switched off by configuration), sorted */
    default SortedSet<String> knownRuleIds() {
        return Collections.emptySortedSet();
    }
}
