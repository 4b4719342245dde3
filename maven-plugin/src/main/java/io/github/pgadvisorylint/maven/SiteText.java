package io.github.pgadvisorylint.maven;

import io.github.pgadvisorylint.core.report.TerminalText;
import org.apache.maven.doxia.sink.Sink;

/**
 * The one way the site page writes text that a scanned repository controls (paths, messages quoting code):
 * as plain text through {@link Sink#text(String)}, which the HTML sinks escape ({@code < > & "} become
 * entities; Doxia's {@code HtmlTools.escapeHTML}), with control characters first made visible by
 * {@link TerminalText} (HTML cannot show them and XHTML may not hold them).
 *
 * <p>Never through {@code AbstractMavenReportRenderer.tableCell(String)} or {@code tableRow(String[])}: those
 * read {@code {text, url}} in the text as a link ({@code linkPatternedText}), so a message quoting
 * {@code {Details, javascript:alert(1)}} from a Java string became a clickable {@code javascript:} link.
 */
final class SiteText {

    private SiteText() {}

    /**
     * Writes one table cell holding the text, inert.
     *
     * @param sink where
     * @param text any text
     */
    static void cell(Sink sink, String text) {
        sink.tableCell();
        sink.text(TerminalText.escape(text));
        sink.tableCell_();
    }
}
