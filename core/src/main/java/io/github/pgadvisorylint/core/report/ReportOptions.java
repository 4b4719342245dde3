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
 * @param configFile     the configuration file the scan used, relative to the scan root ({@code ../}
 *                       when above it), or null for none; SARIF names it in
 *                       {@code invocations[0].properties.configurationFile}
 */
public record ReportOptions(boolean showSuppressed, boolean color, List<String> summaryNotes, String configFile) {

    /** Copies the notes. */
    public ReportOptions {
        summaryNotes = List.copyOf(summaryNotes);
    }

    /**
     * Options without a configuration file.
     *
     * @param showSuppressed include suppressed findings in SARIF and JSON
     * @param color          colour the text format
     * @param summaryNotes   sentences appended to the text summary
     */
    public ReportOptions(boolean showSuppressed, boolean color, List<String> summaryNotes) {
        this(showSuppressed, color, summaryNotes, null);
    }

    /** @return no suppressed findings, no colour, no notes */
    public static ReportOptions defaults() {
        return new ReportOptions(false, false, List.of());
    }
}
