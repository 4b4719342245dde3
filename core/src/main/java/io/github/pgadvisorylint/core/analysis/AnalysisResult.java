package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.rule.Severity;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything one analysis produced, in deterministic order.
 *
 * @param root           the scan root; every path in findings and notifications is relative to it
 * @param rules          descriptors of the rules that ran, sorted by id
 * @param findings       findings sorted by path, line, column, rule id, message
 * @param notifications  tool notifications sorted by location
 * @param model          the lock model the rules read
 * @param filesScanned   files discovered (Java, SQL and configuration files)
 * @param filesAnalyzed  files that passed the prefilter and were parsed
 * @param elapsedMillis  wall time of the analysis in milliseconds (never part of a report's
 *                       deterministic content except the text summary)
 */
public record AnalysisResult(Path root, List<RuleDescriptor> rules, List<Finding> findings,
                             List<Notification> notifications, LockModel model, int filesScanned,
                             int filesAnalyzed, long elapsedMillis) {

    /** Copies the lists. */
    public AnalysisResult {
        rules = List.copyOf(rules);
        findings = List.copyOf(findings);
        notifications = List.copyOf(notifications);
    }

    /**
     * @param severity a severity
     * @return how many findings have exactly that severity
     */
    public long count(Severity severity) {
        return findings.stream().filter(f -> f.severity() == severity).count();
    }

    /**
     * @param threshold the lowest severity that counts
     * @return true when some finding is at or above the threshold
     */
    public boolean hasFindingsAtOrAbove(Severity threshold) {
        return findings.stream().anyMatch(f -> f.severity().compareTo(threshold) >= 0);
    }

    /** @return true when some file could not be analysed (an {@code ERROR} notification) */
    public boolean hasErrors() {
        return notifications.stream().anyMatch(n -> n.level() == Severity.ERROR);
    }
}
