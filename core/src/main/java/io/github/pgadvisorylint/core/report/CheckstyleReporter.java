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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Checkstyle XML, the de-facto interchange format read by reviewdog ({@code -f=checkstyle}), the
 * Jenkins Warnings plugin and GitLab Code Quality converters:
 * <pre>
 * &lt;?xml version="1.0" encoding="UTF-8"?&gt;
 * &lt;checkstyle version="0.1.0"&gt;
 *   &lt;file name="src/Job.java"&gt;
 *     &lt;error line="41" column="17" severity="error" message="..." source="pg-advisory-lint.lock-in-limit-query"/&gt;
 *   &lt;/file&gt;
 * &lt;/checkstyle&gt;
 * </pre>
 * {@code version} is the tool's version. One {@code file} per path, sorted by path; its
 * {@code error}s sorted by line, column, rule. Severities: {@code error}, {@code warning}, and
 * {@code info} for notes. {@code source} is {@code pg-advisory-lint.<rule-id>}, or
 * {@code pg-advisory-lint.tool.<kind>} for a tool notification. Related locations are appended to
 * the message. Written with the JDK's {@link XMLStreamWriter}, which escapes {@code & < > "};
 * characters XML 1.0 cannot hold (control characters) become U+FFFD and line breaks in messages
 * become spaces. Suppressed findings are never written.
 */
public final class CheckstyleReporter implements Reporter {

    /** One {@code error} element before sorting. */
    private record Row(SourceRegion region, String severity, String message, String source) {}

    @Override
    public void write(AnalysisResult result, Writer out) throws IOException {
        Map<String, List<Row>> byFile = new TreeMap<>();
        for (Finding f : result.findings()) {
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
            byFile.computeIfAbsent(f.region().path(), k -> new ArrayList<>())
                    .add(new Row(
                            f.region(), severity(f.severity()), message.toString(), ToolInfo.NAME + "." + f.ruleId()));
        }
        for (Notification n : result.notifications()) {
            byFile.computeIfAbsent(n.region().path(), k -> new ArrayList<>())
                    .add(new Row(n.region(), severity(n.level()), n.message(), ToolInfo.NAME + ".tool." + n.kind()));
        }
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("checkstyle");
            xml.writeAttribute("version", ToolInfo.version());
            for (Map.Entry<String, List<Row>> file : byFile.entrySet()) {
                xml.writeCharacters("\n  ");
                xml.writeStartElement("file");
                xml.writeAttribute("name", ReportSupport.xmlText(file.getKey()));
                List<Row> rows = new ArrayList<>(file.getValue());
                rows.sort(Comparator.comparing(Row::region)
                        .thenComparing(Row::source)
                        .thenComparing(Row::message));
                for (Row r : rows) {
                    xml.writeCharacters("\n    ");
                    xml.writeEmptyElement("error");
                    xml.writeAttribute("line", Integer.toString(r.region().startLine()));
                    xml.writeAttribute("column", Integer.toString(r.region().startColumn()));
                    xml.writeAttribute("severity", r.severity());
                    xml.writeAttribute("message", ReportSupport.xmlText(r.message()));
                    xml.writeAttribute("source", ReportSupport.xmlText(r.source()));
                }
                xml.writeCharacters("\n  ");
                xml.writeEndElement();
            }
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeEndDocument();
            xml.flush();
            out.write("\n");
        } catch (XMLStreamException e) {
            throw new IOException("cannot write Checkstyle XML: " + e.getMessage(), e);
        }
    }

    private static String severity(Severity s) {
        return s == Severity.NOTE ? "info" : s.sarifLevel();
    }
}
