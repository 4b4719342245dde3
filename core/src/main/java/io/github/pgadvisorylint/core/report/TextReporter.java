package io.github.pgadvisorylint.core.report;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.OtherLanguage;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;

/**
 * Compiler-style text, one line per finding, that editors and terminals turn into links:
 * <pre>
 * src/Job.java:41:17: error [session-lock-under-transaction-pooling] pg_try_advisory_lock(9001) takes ...
 *     src/main/resources/application.yml:7:1: related pool_mode = transaction
 * src/broken.sql:3:1: warning [tool:sql-parse-fallback] analysed lexically only
 * 3 errors, 2 warnings, 0 notes in 412 files (0.9 s)
 * </pre>
 * Findings come first, sorted by path, line, column and rule id; each related location follows on
 * its own line indented by four spaces; then the tool notifications with the pseudo rule id
 * {@code tool:<kind>}; then the summary (counts of findings, files scanned, elapsed seconds with one
 * decimal, and any notes the caller adds such as {@code SARIF written to out.sarif}). Columns are
 * 1-based UTF-16 code units, as in the model. With colour on (only for a terminal: the CLI checks
 * {@code System.console()}, {@code NO_COLOR} and {@code --color}), the severity word is bold red,
 * yellow or cyan and the rule id dim (ANSI SGR escapes); without it the output is plain text.
 * Suppressed findings are never listed; the summary counts them. Paths, messages and notes pass
 * through {@link TerminalText#escape}: a file name holding an escape sequence or a newline is shown,
 * never obeyed, and cannot forge a line.
 */
public final class TextReporter implements Reporter {

    private static final String RESET = "\u001b[0m";

    private final List<String> summaryNotes;
    private final boolean color;

    /** A reporter whose summary line has no extra notes. */
    public TextReporter() {
        this(List.of());
    }

    /**
     * @param summaryNotes sentences appended to the summary line; copied
     * @param color        true to colour severities and rule ids with ANSI escapes
     */
    public TextReporter(List<String> summaryNotes, boolean color) {
        this.summaryNotes = List.copyOf(summaryNotes);
        this.color = color;
    }

    /**
     * @param summaryNotes sentences appended to the summary line after {@code ". "}, e.g.
     *                     {@code SARIF written to out.sarif}; copied
     */
    public TextReporter(List<String> summaryNotes) {
        this(summaryNotes, false);
    }

    @Override
    public void write(AnalysisResult result, Writer out) throws IOException {
        for (Finding f : ReportSupport.sortedFindings(result.findings())) {
            out.write(position(f.region()) + ": " + paint(f.severity()) + " " + dim("[" + f.ruleId() + "]") + " "
                    + TerminalText.escape(f.message()) + "\n");
            for (RelatedLocation r : f.related()) {
                out.write("    " + position(r.region()) + ": related " + TerminalText.escape(r.message()) + "\n");
            }
        }
        for (Notification n : ReportSupport.sortedNotifications(result.notifications())) {
            out.write(position(n.region()) + ": " + paint(n.level()) + " " + dim("[tool:" + n.kind() + "]") + " "
                    + TerminalText.escape(n.message()) + "\n");
        }
        out.write(summary(result) + "\n");
    }

    /**
     * @param result an analysis result
     * @return the summary line without a line end, e.g.
     *     {@code 1 error, 2 warnings, 0 notes in 1 file (0.9 s). SARIF written to out.sarif}; with files in
     *     a language the tool does not read, {@code ...; 3 Kotlin files were not analysed (the tool reads
     *     Java and SQL)} before the notes
     */
    public String summary(AnalysisResult result) {
        StringBuilder sb = new StringBuilder()
                .append(ReportSupport.plural(result.count(Severity.ERROR), "error"))
                .append(", ")
                .append(ReportSupport.plural(result.count(Severity.WARNING), "warning"))
                .append(", ")
                .append(ReportSupport.plural(result.count(Severity.NOTE), "note"))
                .append(" in ")
                .append(ReportSupport.plural(result.filesScanned(), "file"))
                .append(String.format(Locale.ROOT, " (%.1f s)", result.elapsedMillis() / 1000.0));
        if (!result.suppressed().isEmpty()) {
            sb.append("; ").append(result.suppressed().size()).append(" suppressed");
        }
        if (!result.notifications().isEmpty()) {
            sb.append("; ")
                    .append(ReportSupport.plural(result.notifications().size(), "tool notification"))
                    .append(" (files or statements not fully analysed)");
        }
        if (!result.unanalysed().isEmpty()) {
            sb.append("; ").append(OtherLanguage.sentence(result.unanalysed()));
        }
        for (String note : summaryNotes) {
            sb.append(". ").append(TerminalText.escape(note));
        }
        return sb.toString();
    }

    private String paint(Severity s) {
        if (!color) {
            return s.sarifLevel();
        }
        String code = switch (s) {
            case ERROR -> "\u001b[1;31m";
            case WARNING -> "\u001b[1;33m";
            case NOTE -> "\u001b[1;36m";
        };
        return code + s.sarifLevel() + RESET;
    }

    private String dim(String text) {
        return color ? "\u001b[2m" + text + RESET : text;
    }

    private static String position(SourceRegion r) {
        return TerminalText.escape(r.path()) + ":" + r.startLine() + ":" + r.startColumn();
    }
}
