package io.github.pgadvisorylint.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.discovery.OtherLanguage;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes SARIF 2.1.0 (OASIS standard, {@code https://docs.oasis-open.org/sarif/sarif/v2.1.0/}) for
 * GitHub code scanning and IDE viewers. One {@code run} (section 3.14) holding:
 * <ul>
 *   <li>{@code automationDetails.id} (3.17): {@code pg-advisory-lint/}, the run's category.</li>
 *   <li>{@code tool.driver} (3.19): name, fullName, version, informationUri and one {@code reportingDescriptor}
 *       (3.49) per rule that ran, sorted by id: {@code id}, {@code name} (PascalCase),
 *       {@code shortDescription}, {@code fullDescription}, {@code help} (text = the full
 *       description, markdown = the rule's documentation page), {@code defaultConfiguration.level}
 *       (3.50.3), {@code properties.precision} (GitHub's {@code very-high} to {@code low}) and
 *       {@code properties.tags} (3.8.4), never {@code security}.</li>
 *   <li>{@code originalUriBaseIds} (3.14.14) with {@code %SRCROOT%} carrying only a
 *       {@code description}, <b>no {@code uri}</b>: the path base (by default the git root, see
 *       {@code core.session.PathBase}) that every artifact URI is relative to; an absolute {@code file:} URI
 *       would make the same tree give different bytes in different checkouts, and GitHub resolves
 *       relative URIs against the repository root without it.</li>
 *   <li>{@code invocations[0]} (3.20): {@code executionSuccessful} is false when any notification is
 *       an {@code ERROR}; every notification becomes a {@code toolExecutionNotification} (3.20.21,
 *       3.58) with {@code descriptor.id} = its kind; then one note per language the tool does not read
 *       (Kotlin, Scala, Groovy files under the roots), {@code descriptor.id} {@code unanalysed-language},
 *       with {@code properties.language} and {@code properties.count}.</li>
 *   <li>{@code results} (3.27), sorted by path, line, column, rule id: {@code ruleId},
 *       {@code ruleIndex} (only when the rule is among those that ran), {@code level} (3.27.10),
 *       {@code message.text} (plain text; literal square brackets escaped with a backslash and each
 *       related location cited as an embedded link {@code [path:line](id)}, 3.11.6), one
 *       {@code physicalLocation} (3.29) and the {@code relatedLocations} (3.27.22) with ids 1..n
 *       (3.28.2), for a finding of the lock-state analysis one {@code codeFlows} entry (3.27.18, 3.36)
 *       whose single {@code threadFlow} (3.37) lists the path's steps in execution order as
 *       {@code threadFlowLocation}s (3.38: the lock, the work, the release, each with its message), and
 *       {@code partialFingerprints} (3.27.17) {@code pgAdvisoryLint/v1} = the finding's line-independent
 *       fingerprint.</li>
 *   <li>{@code columnKind} {@code utf16CodeUnits} (3.14.16).</li>
 *   <li>Suppressed findings are left out (GitHub code scanning ignores {@code suppressions}); with
 *       {@link #SarifReporter(boolean) showSuppressed} they are results too, in the same order, each
 *       with {@code suppressions} (3.27.23) holding one {@code suppression} (3.35): {@code kind}
 *       {@code inSource} (an ignore comment or {@code @SuppressWarnings}) or {@code external} (a
 *       baseline entry), {@code status} {@code accepted}, the user's {@code justification} when
 *       there is one, and the {@code location} of the suppression. Active results then carry an
 *       empty {@code suppressions} array, which 3.27.23 defines as "not suppressed".</li>
 * </ul>
 * Artifact URIs (3.4.3) are relative to {@code %SRCROOT%}, use {@code /}, and percent-encode (RFC 3986
 * section 2.1, UTF-8, upper-case hex) every octet outside the unreserved set and {@code /}. A region
 * (3.30) has start and end line and column; a region of column 1 to 1 on one line, which the model
 * uses for "the whole line" ({@link SourceRegion#line}), is written with lines only, which SARIF
 * reads as the whole line.
 * <p>
 * The output has no timestamps, no absolute paths and a fixed key order; the same result gives
 * byte-identical output, ending with one newline. It is written as it goes (a streaming generator),
 * never built in memory first.
 */
public final class SarifReporter implements Reporter {

    /** SARIF {@code $schema} (section 3.13.3). */
    public static final String SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";
    /** SARIF {@code version} (section 3.13.2). */
    public static final String SARIF_VERSION = "2.1.0";
    /** The {@code uriBaseId} every artifact location is relative to (section 3.4.4). */
    public static final String SRCROOT = "%SRCROOT%";
    /**
     * The {@code descriptor.id} of the {@code toolExecutionNotification} that counts files in a language the
     * tool does not read; its {@code properties} hold {@code language} and {@code count}.
     */
    public static final String UNANALYSED_LANGUAGE = "unanalysed-language";
    /** The {@code partialFingerprints} key holding {@link Finding#fingerprint()} (section 3.27.17). */
    public static final String FINGERPRINT_KEY = "pgAdvisoryLint/v1";

    private final boolean showSuppressed;
    private final String configFile;

    /** A reporter that leaves suppressed findings out. */
    public SarifReporter() {
        this(false);
    }

    /** @param showSuppressed true to include suppressed findings with their {@code suppressions} */
    public SarifReporter(boolean showSuppressed) {
        this(showSuppressed, null);
    }

    /**
     * @param showSuppressed true to include suppressed findings with their {@code suppressions}
     * @param configFile     the configuration file used, relative to the scan root, or null for none:
     *                       written as {@code invocations[0].properties.configurationFile} (a property
     *                       bag, SARIF 2.1.0 §3.8), so a reader sees which settings produced the log
     */
    public SarifReporter(boolean showSuppressed, String configFile) {
        this.showSuppressed = showSuppressed;
        this.configFile = configFile;
    }

    /**
     * Writes the log as it goes, result by result, with a streaming {@link JsonGenerator}: beyond the
     * result's own findings, the memory it needs does not grow with their number (60,000 findings
     * once ran a tree-building writer out of a 512 MB heap). The bytes are those of
     * {@link ReportSupport#writeJson} over the same log as a tree.
     */
    @Override
    public void write(AnalysisResult result, Writer out) throws IOException {
        try (JsonGenerator g = ReportSupport.generator(out)) {
            writeLog(g, result);
        }
        out.write('\n');
    }

    /**
     * @param result an analysis result
     * @return the report as UTF-8 bytes, exactly what {@link #write} produces
     */
    public byte[] toBytes(AnalysisResult result) {
        return render(result).getBytes(StandardCharsets.UTF_8);
    }

    private String render(AnalysisResult result) {
        StringWriter w = new StringWriter();
        try {
            write(result, w);
        } catch (IOException e) {
            throw new IllegalStateException("a StringWriter does not fail", e);
        }
        return w.toString();
    }

    /**
     * The log as a tree, for tests and tools that inspect it; it holds the whole log in memory, so
     * reports are written with {@link #write}, which streams.
     *
     * @param result an analysis result
     * @return the SARIF log as a Jackson tree, keys in output order
     */
    public ObjectNode toSarif(AnalysisResult result) {
        try {
            return (ObjectNode) ReportSupport.MAPPER.readTree(render(result));
        } catch (IOException e) {
            throw new IllegalStateException("the writer wrote invalid JSON", e);
        }
    }

    private void writeLog(JsonGenerator g, AnalysisResult result) throws IOException {
        g.writeStartObject();
        g.writeStringField("$schema", SCHEMA_URI);
        g.writeStringField("version", SARIF_VERSION);
        g.writeArrayFieldStart("runs");
        g.writeStartObject();
        // 3.17: the category GitHub code scanning files the run under (one per tool, so a later run replaces it)
        g.writeObjectFieldStart("automationDetails");
        g.writeStringField("id", ToolInfo.NAME + "/");
        g.writeEndObject();

        List<RuleDescriptor> rules = new ArrayList<>(result.rules());
        rules.sort(Comparator.comparing(RuleDescriptor::id));
        Map<String, Integer> ruleIndex = new HashMap<>();
        g.writeObjectFieldStart("tool");
        g.writeObjectFieldStart("driver");
        g.writeStringField("name", ToolInfo.NAME);
        g.writeStringField("fullName", ToolInfo.NAME + " " + ToolInfo.version());
        g.writeStringField("version", ToolInfo.version());
        g.writeStringField("informationUri", ToolInfo.INFORMATION_URI);
        g.writeArrayFieldStart("rules");
        for (RuleDescriptor d : rules) {
            ruleIndex.putIfAbsent(d.id(), ruleIndex.size());
            rule(g, d);
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();

        g.writeArrayFieldStart("invocations");
        g.writeStartObject();
        g.writeBooleanField("executionSuccessful", !result.hasErrors());
        if (configFile != null) {
            g.writeObjectFieldStart("properties");
            g.writeStringField("configurationFile", configFile);
            g.writeEndObject();
        }
        g.writeArrayFieldStart("toolExecutionNotifications");
        for (Notification n : ReportSupport.sortedNotifications(result.notifications())) {
            g.writeStartObject();
            g.writeArrayFieldStart("locations");
            g.writeStartObject();
            physicalLocation(g, n.region());
            g.writeEndObject();
            g.writeEndArray();
            text(g, "message", n.message());
            g.writeStringField("level", n.level().sarifLevel());
            g.writeObjectFieldStart("descriptor");
            g.writeStringField("id", n.kind());
            g.writeEndObject();
            g.writeEndObject();
        }
        // one note per language the tool does not read, after the file notifications, in OtherLanguage order
        for (Map.Entry<OtherLanguage, Integer> e : result.unanalysed().entrySet()) {
            g.writeStartObject();
            text(g, "message", OtherLanguage.sentence(Map.of(e.getKey(), e.getValue())) + ".");
            g.writeStringField("level", "note");
            g.writeObjectFieldStart("descriptor");
            g.writeStringField("id", UNANALYSED_LANGUAGE);
            g.writeEndObject();
            g.writeObjectFieldStart("properties");
            g.writeStringField("language", e.getKey().displayName());
            g.writeNumberField("count", e.getValue());
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();

        g.writeObjectFieldStart("originalUriBaseIds");
        g.writeObjectFieldStart(SRCROOT);
        text(
                g,
                "description",
                "The path base: the repository root unless chosen otherwise; every artifact URI is"
                        + " relative to it.");
        g.writeEndObject();
        g.writeEndObject();

        g.writeArrayFieldStart("results");
        List<Finding> shown = new ArrayList<>(result.findings());
        if (showSuppressed) {
            shown.addAll(result.suppressed());
        }
        for (Finding f : ReportSupport.sortedFindings(shown)) {
            result(g, f, ruleIndex.get(f.ruleId()));
        }
        g.writeEndArray();
        g.writeStringField("columnKind", "utf16CodeUnits");
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
    }

    /** Writes {@code "name": {"text": text}}. */
    private static void text(JsonGenerator g, String name, String text) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeStringField("text", text);
        g.writeEndObject();
    }

    private static void rule(JsonGenerator g, RuleDescriptor d) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", d.id());
        g.writeStringField("name", d.name());
        text(g, "shortDescription", d.shortDescription());
        text(g, "fullDescription", d.fullDescription());
        // 3.49.12: the rule's page, as the repository keeps it
        g.writeStringField("helpUri", ToolInfo.ruleHelpUri(d.id()));
        g.writeObjectFieldStart("help");
        g.writeStringField("text", d.fullDescription());
        g.writeStringField("markdown", d.helpMarkdown());
        g.writeEndObject();
        g.writeObjectFieldStart("defaultConfiguration");
        g.writeStringField("level", d.defaultSeverity().sarifLevel());
        g.writeEndObject();
        // the rule's property bag (3.8), as GitHub code scanning reads it: precision ranks the alerts; tags never
        // hold "security" and there is no security-severity, so GitHub files the alerts as code quality
        // (non-security) alerts, under the SARIF level.
        //
        // SonarQube's SARIF import (sonar.sarifReportPaths) reads no field that sets the issue type: its
        // documentation ("Importing external issues > SARIF reports", docs.sonarsource.com, SonarQube Server
        // 10.3 to 2026.2 and SonarQube Cloud) says every imported issue gets the CONVENTIONAL attribute
        // and the SECURITY software quality (a Vulnerability in the Standard Experience); only the impact
        // is read, from tool.driver.rules[].defaultConfiguration.level (error HIGH, warning MEDIUM, note
        // LOW), overridden by results[].level in the Standard Experience. Tags, precision and
        // problem.severity are ignored. Only its generic issue format (sonar.externalIssuesReportPaths,
        // rules[].impacts with softwareQuality RELIABILITY, or the older type BUG) files them as bugs.
        g.writeObjectFieldStart("properties");
        g.writeStringField("precision", d.precision().sarifValue());
        g.writeArrayFieldStart("tags");
        for (String tag : d.tags()) {
            g.writeString(tag);
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void result(JsonGenerator g, Finding f, Integer ruleIndex) throws IOException {
        g.writeStartObject();
        g.writeStringField("ruleId", f.ruleId());
        if (ruleIndex != null) {
            g.writeNumberField("ruleIndex", ruleIndex);
        }
        g.writeStringField("level", f.severity().sarifLevel());
        text(g, "message", messageText(f));
        g.writeArrayFieldStart("locations");
        g.writeStartObject();
        physicalLocation(g, f.region());
        g.writeEndObject();
        g.writeEndArray();
        if (!f.related().isEmpty()) {
            g.writeArrayFieldStart("relatedLocations");
            int id = 1;
            for (RelatedLocation rl : f.related()) {
                g.writeStartObject();
                g.writeNumberField("id", id++);
                physicalLocation(g, rl.region());
                text(g, "message", escapeBrackets(rl.message()));
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (!f.path().isEmpty()) {
            // one codeFlow (3.36) of one threadFlow (3.37): the path's steps in execution order (3.38)
            g.writeArrayFieldStart("codeFlows");
            g.writeStartObject();
            g.writeArrayFieldStart("threadFlows");
            g.writeStartObject();
            g.writeArrayFieldStart("locations");
            for (RelatedLocation step : f.path()) {
                g.writeStartObject();
                g.writeObjectFieldStart("location");
                physicalLocation(g, step.region());
                text(g, "message", escapeBrackets(step.message()));
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
        }
        g.writeObjectFieldStart("partialFingerprints");
        g.writeStringField(FINGERPRINT_KEY, f.fingerprint());
        g.writeEndObject();
        if (showSuppressed) {
            g.writeArrayFieldStart("suppressions");
            if (f.suppression() != null) {
                g.writeStartObject();
                g.writeStringField("kind", f.suppression().kind().sarifKind());
                g.writeStringField("status", "accepted");
                if (!f.suppression().justification().isEmpty()) {
                    g.writeStringField("justification", f.suppression().justification());
                }
                g.writeObjectFieldStart("location");
                physicalLocation(g, f.suppression().location());
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /**
     * The finding's message with literal brackets escaped, followed, when there are related
     * locations, by {@code " Related: [a/B.java:12](1), [c.yml:7](2)."} (SARIF 2.1.0 §3.11.6).
     */
    static String messageText(Finding f) {
        StringBuilder sb = new StringBuilder(escapeBrackets(f.message()));
        if (!f.related().isEmpty()) {
            sb.append(sb.length() > 0 && !endsWithPeriod(sb) ? ". " : " ").append("Related: ");
            for (int i = 0; i < f.related().size(); i++) {
                SourceRegion r = f.related().get(i).region();
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append('[')
                        .append(escapeBrackets(r.path() + ":" + r.startLine()))
                        .append("](")
                        .append(i + 1)
                        .append(')');
            }
            sb.append('.');
        }
        return sb.toString();
    }

    private static boolean endsWithPeriod(CharSequence s) {
        char last = s.charAt(s.length() - 1);
        return last == '.' || last == '!' || last == '?';
    }

    /** SARIF 2.1.0 §3.11.6: a literal {@code [} or {@code ]} in a message is escaped as {@code \[}, {@code \]}. */
    static String escapeBrackets(String text) {
        return text.replace("[", "\\[").replace("]", "\\]");
    }

    /** Writes {@code "physicalLocation": {...}} into the object being written. */
    private static void physicalLocation(JsonGenerator g, SourceRegion region) throws IOException {
        g.writeObjectFieldStart("physicalLocation");
        g.writeObjectFieldStart("artifactLocation");
        g.writeStringField("uri", relativeUri(region.path()));
        g.writeStringField("uriBaseId", SRCROOT);
        g.writeEndObject();
        g.writeObjectFieldStart("region");
        g.writeNumberField("startLine", region.startLine());
        boolean wholeLine =
                region.startLine() == region.endLine() && region.startColumn() == 1 && region.endColumn() == 1;
        if (!wholeLine) {
            g.writeNumberField("startColumn", region.startColumn());
        }
        g.writeNumberField("endLine", region.endLine());
        if (!wholeLine) {
            g.writeNumberField("endColumn", region.endColumn());
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    /**
     * @param path a root-relative path, {@code /}-separated as the model writes it (a {@code \} is part
     *             of a file name, never a separator, and is encoded as {@code %5C})
     * @return a relative URI reference (RFC 3986 §4.2): {@code /} separators, and every UTF-8 octet
     *     other than ALPHA, DIGIT, {@code - . _ ~} and {@code /} percent-encoded with upper-case hex
     *     (§2.1, §2.3), e.g. {@code src/my dir/Zoë.java} gives {@code src/my%20dir/Zo%C3%AB.java}
     */
    public static String relativeUri(String path) {
        byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(bytes.length + 16);
        for (byte b : bytes) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~'
                    || c == '/') {
                sb.append((char) c);
            } else {
                sb.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }
}
