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
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * One self-contained HTML page, for people without the Maven site or a SARIF viewer (a CI artifact, a
 * file opened in a browser): the counts, a table per rule, then every finding (severity,
 * {@code file:line:column}, the rule linked to its documentation page, the message and its related
 * locations), the files or statements not fully analysed and the number of suppressed findings. No
 * script, no external resource, no elapsed time: the page is deterministic. It is XHTML-compatible
 * HTML5 written with the JDK's {@link XMLStreamWriter}, which escapes every text and attribute;
 * characters XML 1.0 cannot hold become U+FFFD ({@link ReportSupport#xmlText}). Suppressed findings are
 * counted, never listed.
 */
public final class HtmlReporter implements Reporter {

    private static final String STYLE = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
            + "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.3em .6em;"
            + "text-align:left;vertical-align:top}th{background:#f4f4f4}td.n{text-align:right}"
            + "tr.error td.s{color:#b00020;font-weight:bold}tr.warning td.s{color:#9a6700;font-weight:bold}"
            + "ul{margin:.3em 0 0 1.2em;padding:0}code{font-size:90%}";

    @Override
    public void write(AnalysisResult result, Writer out) throws IOException {
        try {
            XMLStreamWriter html = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            html.writeDTD("<!DOCTYPE html>");
            html.writeCharacters("\n");
            html.writeStartElement("html");
            html.writeAttribute("lang", "en");
            html.writeStartElement("head");
            html.writeEmptyElement("meta");
            html.writeAttribute("charset", "utf-8");
            element(html, "title", ToolInfo.NAME + " report");
            element(html, "style", STYLE);
            html.writeEndElement();
            html.writeCharacters("\n");
            html.writeStartElement("body");
            element(html, "h1", ToolInfo.NAME);
            element(html, "p", summary(result));
            if (!result.findings().isEmpty()) {
                rules(html, result);
                findings(html, result);
            }
            notifications(html, result.notifications());
            if (!result.suppressed().isEmpty()) {
                element(
                        html,
                        "p",
                        ReportSupport.plural(result.suppressed().size(), "finding")
                                + " suppressed (in source or by the baseline), not listed.");
            }
            element(html, "p", ToolInfo.NAME + " " + ToolInfo.version() + ".");
            html.writeEndElement();
            html.writeEndElement();
            html.writeCharacters("\n");
            html.flush();
        } catch (XMLStreamException e) {
            throw new IOException("cannot write the HTML report: " + e.getMessage(), e);
        }
    }

    private static String summary(AnalysisResult result) {
        if (result.findings().isEmpty()) {
            return "No findings in " + ReportSupport.plural(result.filesScanned(), "file") + ".";
        }
        return ReportSupport.plural(result.count(Severity.ERROR), "error") + ", "
                + ReportSupport.plural(result.count(Severity.WARNING), "warning")
                + ", " + ReportSupport.plural(result.count(Severity.NOTE), "note") + " in "
                + ReportSupport.plural(result.filesScanned(), "file")
                + ".";
    }

    private static void rules(XMLStreamWriter html, AnalysisResult result) throws XMLStreamException {
        Map<String, long[]> perRule = ReportSupport.countsPerRule(result.findings());
        html.writeStartElement("table");
        header(html, "Rule", "Errors", "Warnings", "Notes");
        for (Map.Entry<String, long[]> r : perRule.entrySet()) {
            html.writeStartElement("tr");
            html.writeStartElement("td");
            ruleLink(html, r.getKey());
            html.writeEndElement();
            for (long count : r.getValue()) {
                html.writeStartElement("td");
                html.writeAttribute("class", "n");
                html.writeCharacters(Long.toString(count));
                html.writeEndElement();
            }
            html.writeEndElement();
        }
        html.writeEndElement();
        html.writeCharacters("\n");
    }

    private static void findings(XMLStreamWriter html, AnalysisResult result) throws XMLStreamException {
        element(html, "h2", "Findings");
        html.writeStartElement("table");
        header(html, "Severity", "Location", "Rule", "Message");
        for (Finding f : ReportSupport.sortedFindings(result.findings())) {
            html.writeStartElement("tr");
            html.writeAttribute("class", f.severity().sarifLevel());
            html.writeStartElement("td");
            html.writeAttribute("class", "s");
            html.writeCharacters(f.severity().sarifLevel());
            html.writeEndElement();
            html.writeStartElement("td");
            element(html, "code", location(f.region(), true));
            html.writeEndElement();
            html.writeStartElement("td");
            ruleLink(html, f.ruleId());
            html.writeEndElement();
            html.writeStartElement("td");
            html.writeCharacters(ReportSupport.xmlText(f.message()));
            if (!f.related().isEmpty()) {
                html.writeStartElement("ul");
                for (RelatedLocation r : f.related()) {
                    html.writeStartElement("li");
                    element(html, "code", location(r.region(), false));
                    html.writeCharacters(" " + ReportSupport.xmlText(r.message()));
                    html.writeEndElement();
                }
                html.writeEndElement();
            }
            html.writeEndElement();
            html.writeEndElement();
            html.writeCharacters("\n");
        }
        html.writeEndElement();
        html.writeCharacters("\n");
    }

    private static void notifications(XMLStreamWriter html, List<Notification> notifications)
            throws XMLStreamException {
        if (notifications.isEmpty()) {
            return;
        }
        element(html, "h2", "Not fully analysed");
        html.writeStartElement("table");
        header(html, "Level", "Location", "Kind", "Message");
        for (Notification n : ReportSupport.sortedNotifications(notifications)) {
            html.writeStartElement("tr");
            element(html, "td", n.level().sarifLevel());
            html.writeStartElement("td");
            element(html, "code", location(n.region(), true));
            html.writeEndElement();
            element(html, "td", n.kind());
            element(html, "td", n.message());
            html.writeEndElement();
            html.writeCharacters("\n");
        }
        html.writeEndElement();
        html.writeCharacters("\n");
    }

    private static void ruleLink(XMLStreamWriter html, String ruleId) throws XMLStreamException {
        html.writeStartElement("a");
        html.writeAttribute("href", ToolInfo.ruleHelpUri(ruleId));
        html.writeCharacters(ruleId);
        html.writeEndElement();
    }

    private static void header(XMLStreamWriter html, String... names) throws XMLStreamException {
        html.writeStartElement("tr");
        for (String name : names) {
            element(html, "th", name);
        }
        html.writeEndElement();
    }

    private static void element(XMLStreamWriter html, String name, String text) throws XMLStreamException {
        html.writeStartElement(name);
        html.writeCharacters(ReportSupport.xmlText(text));
        html.writeEndElement();
    }

    private static String location(SourceRegion region, boolean column) {
        return region.path() + ":" + region.startLine() + (column ? ":" + region.startColumn() : "");
    }
}
