package io.github.pgadvisorylint.core.session;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.config.LintConfig;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.report.ReportFormat;
import java.nio.file.Path;
import java.util.List;

/**
 * What one scan produced: the findings (baseline applied), the report files written, the messages for
 * the user, and whether the scan fails. Front ends render it; nothing here has been printed.
 *
 * @param scanned      false when the request asked to skip an empty scan and there was nothing to
 *                     analyse: no report was written and {@code result} is null
 * @param result       the analysis result with the baseline applied; paths relative to {@code pathBase}
 * @param pathBase     the directory every reported path is relative to, and why
 * @param config       the configuration used ({@link LintConfig#none()} without a file)
 * @param includeTests whether test sources were analysed
 * @param configUsed   the configuration file relative to the path base, or null for none
 * @param summaryNotes the sentences the summary line ends with ({@code Configuration: ...},
 *                     {@code Baseline written to ...}, {@code SARIF written to ...}), in order
 * @param reports      the report files written, in request order
 * @param messages     what to tell the user, in order
 * @param failing      active findings at or above the fail policy's threshold (0 without one)
 * @param failed       true when the scan fails: the fail policy fails it, or {@code incompleteFails}
 * @param leftOut      the notifications that say part of the input was left out of the analysis
 *                     ({@link Notification#leavesOut()}), in order
 * @param incompleteFails true when the scan fails because something was left out and fail-on-incomplete
 *                     is on
 */
public record ScanOutcome(
        boolean scanned,
        AnalysisResult result,
        PathBase.Choice pathBase,
        LintConfig config,
        boolean includeTests,
        String configUsed,
        List<String> summaryNotes,
        List<WrittenReport> reports,
        List<ScanMessage> messages,
        long failing,
        boolean failed,
        List<Notification> leftOut,
        boolean incompleteFails) {

    /**
     * One report file written.
     *
     * @param format       its format
     * @param file         the file, absolute
     * @param replacedLink true when the file was a symbolic link leading out of its directory, which the
     *                     report replaced (nothing outside was written)
     */
    public record WrittenReport(ReportFormat format, Path file, boolean replacedLink) {}

    /** Copies the lists. */
    public ScanOutcome {
        summaryNotes = List.copyOf(summaryNotes);
        reports = List.copyOf(reports);
        messages = List.copyOf(messages);
        leftOut = List.copyOf(leftOut);
    }

    /**
     * @param format a report format
     * @return the file written in that format, or null
     */
    public Path report(ReportFormat format) {
        return reports.stream()
                .filter(r -> r.format() == format)
                .map(WrittenReport::file)
                .findFirst()
                .orElse(null);
    }

    /**
     * @param kind a kind of message
     * @return the messages of that kind, in order
     */
    public List<ScanMessage> messages(ScanMessage.Kind kind) {
        return messages.stream().filter(m -> m.kind() == kind).toList();
    }
}
