package io.github.pgadvisorylint.core.session;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Severity;

/**
 * When a scan fails: more than {@code maxAllowed} active findings at or above {@code threshold}.
 * Suppressed and baselined findings never count. The CLI's {@code --fail-on} is a threshold with
 * {@code maxAllowed} 0; the Maven plugin adds {@code failOnViolation} (false: no threshold) and
 * {@code maxAllowedViolations}, as PMD and Checkstyle name them.
 *
 * @param threshold  the lowest failing severity, or null to never fail
 * @param maxAllowed how many failing findings are tolerated, 0 or more
 */
public record FailPolicy(Severity threshold, int maxAllowed) {

    /** Checks {@code maxAllowed}. */
    public FailPolicy {
        if (maxAllowed < 0) {
            throw new IllegalArgumentException("maxAllowed must be 0 or more, not " + maxAllowed);
        }
    }

    /** A policy that never fails. */
    public static final FailPolicy NEVER = new FailPolicy(null, 0);

    /**
     * @param threshold the lowest failing severity, or null to never fail
     * @return a policy failing on the first finding at or above it
     */
    public static FailPolicy atOrAbove(Severity threshold) {
        return new FailPolicy(threshold, 0);
    }

    /**
     * @param result an analysis result, baseline applied
     * @return how many active findings are at or above the threshold (0 without one)
     */
    public long failing(AnalysisResult result) {
        if (threshold == null) {
            return 0;
        }
        return result.findings().stream()
                .filter(f -> f.severity().compareTo(threshold) >= 0)
                .count();
    }

    /**
     * @param result an analysis result, baseline applied
     * @return true when more than {@link #maxAllowed} findings are at or above the threshold
     */
    public boolean fails(AnalysisResult result) {
        return threshold != null && failing(result) > maxAllowed;
    }
}
