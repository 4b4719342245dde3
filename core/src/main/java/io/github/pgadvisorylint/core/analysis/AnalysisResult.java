package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.OtherLanguage;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

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
 * @param suppressed     findings left out of {@code findings} by an in-source suppression or a
 *                       baseline entry, each with its {@link Finding#suppression()}, sorted like
 *                       {@code findings}; they never count for exit codes or summaries
 * @param unanalysed     files under the scanned roots in a language the tool does not read (Kotlin,
 *                       Scala, Groovy), counted per language; only languages with a file, in
 *                       {@link OtherLanguage} order; the reports say how many were not analysed
 */
public record AnalysisResult(
        Path root,
        List<RuleDescriptor> rules,
        List<Finding> findings,
        List<Notification> notifications,
        LockModel model,
        int filesScanned,
        int filesAnalyzed,
        long elapsedMillis,
        List<Finding> suppressed,
        Map<OtherLanguage, Integer> unanalysed) {

    /**
     * Copies the lists. Notifications never carry the machine's absolute path of the scan root: an
     * absolute location below the root becomes relative to it, and the root's absolute path inside a
     * message (an I/O error naming the file) is cut to the root-relative path, so reports are the same
     * in every checkout.
     */
    public AnalysisResult {
        rules = List.copyOf(rules);
        findings = List.copyOf(findings);
        notifications = relativeTo(root, notifications);
        suppressed = List.copyOf(suppressed);
        EnumMap<OtherLanguage, Integer> counts = new EnumMap<>(OtherLanguage.class);
        unanalysed.forEach((language, n) -> {
            if (n != null && n > 0) {
                counts.put(language, n);
            }
        });
        unanalysed = Collections.unmodifiableMap(counts);
    }

    /**
     * A result with no file in another language; fields as in the canonical constructor.
     *
     * @param root          the scan root
     * @param rules         descriptors of the rules that ran
     * @param findings      active findings
     * @param notifications tool notifications
     * @param model         the lock model
     * @param filesScanned  files discovered
     * @param filesAnalyzed files parsed
     * @param elapsedMillis wall time in milliseconds
     * @param suppressed    suppressed findings
     */
    public AnalysisResult(
            Path root,
            List<RuleDescriptor> rules,
            List<Finding> findings,
            List<Notification> notifications,
            LockModel model,
            int filesScanned,
            int filesAnalyzed,
            long elapsedMillis,
            List<Finding> suppressed) {
        this(
                root,
                rules,
                findings,
                notifications,
                model,
                filesScanned,
                filesAnalyzed,
                elapsedMillis,
                suppressed,
                Map.of());
    }

    /**
     * A result without suppressed findings (the form before suppressions were recorded).
     *
     * @param root          the scan root
     * @param rules         descriptors of the rules that ran
     * @param findings      active findings
     * @param notifications tool notifications
     * @param model         the lock model
     * @param filesScanned  files discovered
     * @param filesAnalyzed files parsed
     * @param elapsedMillis wall time in milliseconds
     */
    public AnalysisResult(
            Path root,
            List<RuleDescriptor> rules,
            List<Finding> findings,
            List<Notification> notifications,
            LockModel model,
            int filesScanned,
            int filesAnalyzed,
            long elapsedMillis) {
        this(root, rules, findings, notifications, model, filesScanned, filesAnalyzed, elapsedMillis, List.of());
    }

    /**
     * @param active     the new active findings
     * @param suppressedFindings the new suppressed findings, each with a suppression
     * @return a copy with those findings, everything else unchanged
     */
    public AnalysisResult withFindings(List<Finding> active, List<Finding> suppressedFindings) {
        return new AnalysisResult(
                root,
                rules,
                active,
                notifications,
                model,
                filesScanned,
                filesAnalyzed,
                elapsedMillis,
                suppressedFindings,
                unanalysed);
    }

    /**
     * @param all the new notifications (sorted by the caller)
     * @return a copy with those notifications, everything else unchanged
     */
    public AnalysisResult withNotifications(List<Notification> all) {
        return new AnalysisResult(
                root, rules, findings, all, model, filesScanned, filesAnalyzed, elapsedMillis, suppressed, unanalysed);
    }

    private static List<Notification> relativeTo(Path root, List<Notification> notifications) {
        if (root == null || !root.isAbsolute()) {
            return List.copyOf(notifications);
        }
        String base = root.normalize().toString();
        String prefix = base.endsWith(root.getFileSystem().getSeparator())
                ? base
                : base + root.getFileSystem().getSeparator();
        List<Notification> out = new ArrayList<>(notifications.size());
        boolean changed = false;
        for (Notification n : notifications) {
            String message = n.message().replace(prefix, "");
            if (message.contains(base)) {
                message = message.replace(base, ".");
            }
            SourceRegion r = n.region();
            // only the platform's own separator becomes '/': a '\\' in a Linux file name stays
            String path = r.path().startsWith(prefix)
                    ? r.path()
                            .substring(prefix.length())
                            .replace(root.getFileSystem().getSeparator(), "/")
                    : r.path().equals(base) ? "." : r.path();
            if (message.equals(n.message()) && path.equals(r.path())) {
                out.add(n);
            } else {
                changed = true;
                out.add(new Notification(
                        n.level(),
                        n.kind(),
                        message,
                        new SourceRegion(path, r.startLine(), r.startColumn(), r.endLine(), r.endColumn())));
            }
        }
        if (changed) {
            out.sort(Comparator.naturalOrder());
        }
        return List.copyOf(out);
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
