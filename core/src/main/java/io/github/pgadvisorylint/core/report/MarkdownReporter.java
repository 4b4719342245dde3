package io.github.pgadvisorylint.core.report;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;

/**
 * A GitHub-flavoured Markdown summary for {@code $GITHUB_STEP_SUMMARY} and pull-request comments:
 * <pre>
 * ## pg-advisory-lint
 *
 * **1 error, 1 warning, 0 notes** in 12 files.
 *
 * | Rule | Errors | Warnings | Notes |
 * |---|---:|---:|---:|
 * | `lock-in-limit-query` | 1 | 0 | 0 |
 *
 * ### Findings
 *
 * | Severity | Location | Rule | Message |
 * |---|---|---|---|
 * | error | `src/Job.java:41:17` | `lock-in-limit-query` | pg_try_advisory_lock(id) is ... |
 * </pre>
 * The table counts findings per rule that has any, sorted by id; the list is sorted like the text
 * format and stops after {@value #MAX_ROWS} rows with a line saying how many more there are (the
 * step summary holds at most 1 MiB). Counts of suppressed findings and tool notifications follow
 * when non-zero. Every text from the scan (paths, messages) goes through {@link MarkdownText}: a file
 * name or a message cannot break the table or add a heading, link, image or HTML. No elapsed time: the
 * output is deterministic.
 */
public final class MarkdownReporter implements Reporter {

    /** At most this many findings are listed. */
    public static final int MAX_ROWS = 500;

    @Override
    public void write(AnalysisResult result, Writer out) throws IOException {
        out.write("## " + ToolInfo.NAME + "\n\n");
        long e = result.count(Severity.ERROR);
        long w = result.count(Severity.WARNING);
        long n = result.count(Severity.NOTE);
        if (result.findings().isEmpty()) {
            out.write("**No findings** in " + ReportSupport.plural(result.filesScanned(), "file") + ".\n");
        } else {
            out.write("**" + ReportSupport.plural(e, "error") + ", " + ReportSupport.plural(w, "warning") + ", "
                    + ReportSupport.plural(n, "note") + "** in " + ReportSupport.plural(result.filesScanned(), "file")
                    + ".\n\n");
            Map<String, long[]> perRule = ReportSupport.countsPerRule(result.findings());
            out.write("| Rule | Errors | Warnings | Notes |\n|---|---:|---:|---:|\n");
            for (Map.Entry<String, long[]> r : perRule.entrySet()) {
                long[] c = r.getValue();
                out.write("| " + code(r.getKey()) + " | " + c[0] + " | " + c[1] + " | " + c[2] + " |\n");
            }
            out.write("\n### Findings\n\n| Severity | Location | Rule | Message |\n|---|---|---|---|\n");
            List<Finding> sorted = ReportSupport.sortedFindings(result.findings());
            for (int i = 0; i < Math.min(sorted.size(), MAX_ROWS); i++) {
                Finding f = sorted.get(i);
                out.write("| " + f.severity().sarifLevel() + " | "
                        + code(f.region().path() + ":" + f.region().startLine() + ":"
                                + f.region().startColumn())
                        + " | " + code(f.ruleId()) + " | " + MarkdownText.text(f.message()) + " |\n");
            }
            if (sorted.size() > MAX_ROWS) {
                out.write("\n… and " + (sorted.size() - MAX_ROWS) + " more; see the full report.\n");
            }
        }
        if (!result.suppressed().isEmpty()) {
            out.write("\n" + ReportSupport.plural(result.suppressed().size(), "finding")
                    + " suppressed (in source or by the baseline).\n");
        }
        List<Notification> notes = result.notifications();
        if (!notes.isEmpty()) {
            out.write("\n" + ReportSupport.plural(notes.size(), "tool notification")
                    + " (files or statements not fully analysed);" + " see the text or SARIF report.\n");
        }
    }

    private static String code(String s) {
        return MarkdownText.code(s);
    }
}
