package io.github.pgadvisorylint.core.report;

import java.util.List;

/**
 * How reports are written, shared by the CLI and the Maven plugin.
 *
 * @param showSuppressed include suppressed findings (in-source suppressions and baseline entries)
 *                       in SARIF, with {@code result.suppressions} (SARIF 2.1.0 §3.27.23, §3.35),
 *                       and in JSON, with a non-null {@code suppression}; other formats never list them
 * @param color          colour the text format with ANSI escapes (only for a terminal)
 * @param summaryNotes   sentences appended to the text summary, e.g. {@code SARIF written to out.sarif}
 */
public record ReportOptions(boolean showSuppressed, boolean color, List<String> summaryNotes) {

    /** Copies the notes. */
    public ReportOptions {
        summaryNotes = List.copyOf(summaryNotes);
    }

    /** @return no suppressed findings, no colour, no notes */
    public static ReportOptions defaults() {
        return new ReportOptions(false, false, List.of());
    }
}
