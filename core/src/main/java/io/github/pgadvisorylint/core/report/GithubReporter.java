package io.github.pgadvisorylint.core.report;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.io.Writer;

/**
 * GitHub Actions workflow commands that turn findings into annotations on the pull request's
 * changed lines, without code scanning (GitHub docs, "Workflow commands for GitHub Actions":
 * {@code error}, {@code warning}, {@code notice}). One line per finding, sorted like the text format:
 * <pre>
 * ::error file=src/Job.java,line=41,col=17,endLine=41,endColumn=39,title=pg-advisory-lint [lock-in-limit-query]::pg_try_advisory_lock(id) is evaluated ...
 * </pre>
 * Severities map to {@code error}, {@code warning} and {@code notice}. {@code col} and
 * {@code endColumn} (the last column, inclusive) are written only for a region on one line that is
 * not a whole line, since annotations support columns on one line only. Related locations are
 * appended to the message as {@code Related: path:line (message)}. Tool notifications follow with
 * the title {@code pg-advisory-lint [tool:kind]}. Every message, path and title goes through
 * {@link WorkflowCommandText}: in the message {@code %}, {@code \r}, {@code \n} become {@code %25},
 * {@code %0D}, {@code %0A}; in property values {@code :} and {@code ,} also become {@code %3A} and
 * {@code %2C}; other control characters are shown as visible escapes. Paths are relative
 * to the scan root, which should be the repository root. Suppressed findings are never written.
 */
public final class GithubReporter implements Reporter {

    @Override
    public void write(AnalysisResult result, Writer out) throws IOException {
        for (Finding f : ReportSupport.sortedFindings(result.findings())) {
            StringBuilder message = new StringBuilder(f.message());
            for (int i = 0; i < f.related().size(); i++) {
                RelatedLocation r = f.related().get(i);
                message.append(i == 0 ? " Related: " : "; ")
                        .append(r.region().path())
                        .append(':')
                        .append(r.region().startLine())
                        .append(" (")
                        .append(r.message())
                        .append(')');
            }
            out.write(command(f.severity(), f.region(), ToolInfo.NAME + " [" + f.ruleId() + "]", message.toString()));
        }
        for (Notification n : ReportSupport.sortedNotifications(result.notifications())) {
            out.write(command(n.level(), n.region(), ToolInfo.NAME + " [tool:" + n.kind() + "]", n.message()));
        }
    }

    /**
     * @param severity the severity
     * @param region   the location
     * @param title    the annotation title
     * @param message  the message
     * @return one workflow command line, ending with {@code \n}
     */
    static String command(Severity severity, SourceRegion region, String title, String message) {
        String level = switch (severity) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case NOTE -> "notice";
        };
        StringBuilder sb = new StringBuilder("::")
                .append(level)
                .append(" file=")
                .append(WorkflowCommandText.property(region.path()))
                .append(",line=")
                .append(region.startLine());
        boolean wholeLine = region.startColumn() == 1 && region.endColumn() == 1;
        if (region.startLine() == region.endLine() && !wholeLine) {
            sb.append(",col=")
                    .append(region.startColumn())
                    .append(",endLine=")
                    .append(region.endLine())
                    .append(",endColumn=")
                    .append(Math.max(region.startColumn(), region.endColumn() - 1));
        } else if (region.endLine() != region.startLine()) {
            sb.append(",endLine=").append(region.endLine());
        }
        sb.append(",title=")
                .append(WorkflowCommandText.property(title))
                .append("::")
                .append(WorkflowCommandText.data(message))
                .append('\n');
        return sb.toString();
    }
}
