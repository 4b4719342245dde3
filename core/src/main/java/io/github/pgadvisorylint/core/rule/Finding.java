package io.github.pgadvisorylint.core.rule;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.List;
import java.util.Objects;

/**
 * One result of one rule.
 *
 * @param ruleId      the rule's stable kebab-case id
 * @param severity    the effective severity
 * @param message     plain-text message; related locations are cited in it as {@code [text](1)}
 *                    style references only by reporters, never here
 * @param region      the primary location
 * @param related     related locations, in the order the message refers to them; immutable
 * @param fingerprint stable identity without line numbers: rule, file, code shape (the lock
 *                    function and key, the enclosing method) and occurrence index; hex SHA-256 prefix
 * @param suppression why the finding is suppressed (an in-source suppression or a baseline entry),
 *                    or null for an active finding; suppressed findings are kept apart in
 *                    {@code AnalysisResult.suppressed()} and reported only on request
 * @param path        the program path that shows the bug, step by step in execution order (the lock,
 *                    the work, the release), written to SARIF as a {@code codeFlow}; empty when the
 *                    finding is not a path's
 */
public record Finding(
        String ruleId,
        Severity severity,
        String message,
        SourceRegion region,
        List<RelatedLocation> related,
        String fingerprint,
        FindingSuppression suppression,
        List<RelatedLocation> path) {

    /** Copies the lists and checks required fields. */
    public Finding {
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(region, "region");
        related = List.copyOf(related);
        Objects.requireNonNull(fingerprint, "fingerprint");
        path = List.copyOf(path);
    }

    /**
     * A finding with no path.
     *
     * @param ruleId      the rule's id
     * @param severity    the effective severity
     * @param message     plain-text message
     * @param region      the primary location
     * @param related     related locations
     * @param fingerprint the line-independent fingerprint
     * @param suppression why it is suppressed, or null
     */
    public Finding(
            String ruleId,
            Severity severity,
            String message,
            SourceRegion region,
            List<RelatedLocation> related,
            String fingerprint,
            FindingSuppression suppression) {
        this(ruleId, severity, message, region, related, fingerprint, suppression, List.of());
    }

    /**
     * An active (not suppressed) finding; the constructor every rule-facing caller used before
     * suppressions were recorded.
     *
     * @param ruleId      the rule's id
     * @param severity    the effective severity
     * @param message     plain-text message
     * @param region      the primary location
     * @param related     related locations
     * @param fingerprint the line-independent fingerprint
     */
    public Finding(
            String ruleId,
            Severity severity,
            String message,
            SourceRegion region,
            List<RelatedLocation> related,
            String fingerprint) {
        this(ruleId, severity, message, region, related, fingerprint, null);
    }

    /** @return true when a suppression or a baseline entry covers this finding */
    public boolean isSuppressed() {
        return suppression != null;
    }

    /**
     * @param why the suppression, or null to make the finding active
     * @return a copy with that suppression
     */
    public Finding withSuppression(FindingSuppression why) {
        return new Finding(ruleId, severity, message, region, related, fingerprint, why, path);
    }
}
