package io.github.pgadvisorylint.core.rule;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one in-source suppression did in an analysis, for rules of phase
 * {@link Rule.Phase#AFTER_FINDINGS} (the {@code unused-suppression} rule): core collects the facts,
 * the rule words the findings.
 *
 * @param location   where the suppression is written: the {@code pg-advisory-lint:ignore} marker of
 *                   a comment, or the string value of a {@code @SuppressWarnings} annotation
 * @param form       comment or annotation
 * @param ruleIds    the rule ids it names, sorted; empty for "every rule"
 * @param unknownIds named ids that are no rule of the catalog, sorted
 * @param unusedIds  named ids of rules that ran and reported nothing it covers, sorted; rules that
 *                   are switched off by configuration never appear here
 * @param silenced   how many findings it covered (a finding covered by two suppressions counts for both)
 */
public record SuppressionUse(
        SourceRegion location,
        Form form,
        Set<String> ruleIds,
        Set<String> unknownIds,
        Set<String> unusedIds,
        int silenced) {

    /** How a suppression is written. */
    public enum Form {
        /** {@code // pg-advisory-lint:ignore rule-id -- reason} (also {@code --} and {@code #} comments). */
        COMMENT,
        /** {@code @SuppressWarnings("pg-advisory-lint:rule-id")} on a Java declaration. */
        ANNOTATION
    }

    /** Copies the sets (sorted) and checks the fields. */
    public SuppressionUse {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(form, "form");
        ruleIds = Collections.unmodifiableSortedSet(new TreeSet<>(ruleIds));
        unknownIds = Collections.unmodifiableSortedSet(new TreeSet<>(unknownIds));
        unusedIds = Collections.unmodifiableSortedSet(new TreeSet<>(unusedIds));
    }

    /** @return true when it names no rule (silences every rule) */
    public boolean coversEveryRule() {
        return ruleIds.isEmpty();
    }
}
