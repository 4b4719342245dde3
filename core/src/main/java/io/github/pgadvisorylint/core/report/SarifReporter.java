package io.github.pgadvisorylint.core.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
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
 *       (3.28.2), and {@code partialFingerprints} (3.27.17) {@code pgAdvisoryLint/v1} = the
 *       finding's line-independent fingerprint.</li>
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
 * byte-identical output, ending with one newline.
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

    @Override
    public void write(AnalysisResult result, Writer out) throws IOException {
        ReportSupport.writeJson(toSarif(result), out);
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
     * @param result an analysis result
     * @return the SARIF log as a Jackson tree, keys in output order
     */
    public ObjectNode toSarif(AnalysisResult result) {
        ObjectNode log = ReportSupport.MAPPER.createObjectNode();
        log.put("$schema", SCHEMA_URI);
        log.put("version", SARIF_VERSION);
        ObjectNode run = log.putArray("runs").addObject();
        // 3.17: the category GitHub code scanning files the run under (one per tool, so a later run replaces it)
        run.putObject("automationDetails").put("id", ToolInfo.NAME + "/");

        List<RuleDescriptor> rules = new ArrayList<>(result.rules());
        rules.sort(Comparator.comparing(RuleDescriptor::id));
        Map<String, Integer> ruleIndex = new HashMap<>();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", ToolInfo.NAME);
        driver.put("fullName", ToolInfo.NAME + " " + ToolInfo.version());
        driver.put("version", ToolInfo.version());
        driver.put("informationUri", ToolInfo.INFORMATION_URI);
        ArrayNode rulesNode = driver.putArray("rules");
        for (RuleDescriptor d : rules) {
            ruleIndex.putIfAbsent(d.id(), ruleIndex.size());
            rulesNode.add(rule(d));
        }

        ObjectNode invocation = run.putArray("invocations").addObject();
        invocation.put("executionSuccessful", !result.hasErrors());
        if (configFile != null) {
            invocation.putObject("properties").put("configurationFile", configFile);
        }
        ArrayNode notes = invocation.putArray("toolExecutionNotifications");
        for (Notification n : ReportSupport.sortedNotifications(result.notifications())) {
            ObjectNode note = notes.addObject();
            note.putArray("locations").addObject().set("physicalLocation", physicalLocation(n.region()));
            note.putObject("message").put("text", n.message());
            note.put("level", n.level().sarifLevel());
            note.putObject("descriptor").put("id", n.kind());
        }
        // one note per language the tool does not read, after the file notifications, in OtherLanguage order
        result.unanalysed().forEach((language, count) -> {
            ObjectNode note = notes.addObject();
            note.putObject("message").put("text", OtherLanguage.sentence(Map.of(language, count)) + ".");
            note.put("level", "note");
            note.putObject("descriptor").put("id", UNANALYSED_LANGUAGE);
            note.putObject("properties").put("language", language.displayName()).put("count", count);
        });

        run.putObject("originalUriBaseIds")
                .putObject(SRCROOT)
                .putObject("description")
                .put(
                        "text",
                        "The path base: the repository root unless chosen otherwise; every artifact URI is"
                                + " relative to it.");

        ArrayNode results = run.putArray("results");
        List<Finding> shown = new ArrayList<>(result.findings());
        if (showSuppressed) {
            shown.addAll(result.suppressed());
        }
        for (Finding f : ReportSupport.sortedFindings(shown)) {
            ObjectNode r = result(f, ruleIndex.get(f.ruleId()));
            if (showSuppressed) {
                ArrayNode sups = r.putArray("suppressions");
                if (f.suppression() != null) {
                    ObjectNode s = sups.addObject();
                    s.put("kind", f.suppression().kind().sarifKind());
                    s.put("status", "accepted");
                    if (!f.suppression().justification().isEmpty()) {
                        s.put("justification", f.suppression().justification());
                    }
                    s.putObject("location")
                            .set(
                                    "physicalLocation",
                                    physicalLocation(f.suppression().location()));
                }
            }
            results.add(r);
        }
        run.put("columnKind", "utf16CodeUnits");
        return log;
    }

    private static ObjectNode rule(RuleDescriptor d) {
        ObjectNode rule = ReportSupport.MAPPER.createObjectNode();
        rule.put("id", d.id());
        rule.put("name", d.name());
        rule.putObject("shortDescription").put("text", d.shortDescription());
        rule.putObject("fullDescription").put("text", d.fullDescription());
        // 3.49.12: the rule's page, as the repository keeps it
        rule.put("helpUri", ToolInfo.ruleHelpUri(d.id()));
        ObjectNode help = rule.putObject("help");
        help.put("text", d.fullDescription());
        help.put("markdown", d.helpMarkdown());
        rule.putObject("defaultConfiguration").put("level", d.defaultSeverity().sarifLevel());
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
        ObjectNode properties = rule.putObject("properties");
        properties.put("precision", d.precision().sarifValue());
        ArrayNode tags = properties.putArray("tags");
        d.tags().forEach(tags::add);
        return rule;
    }

    private static ObjectNode result(Finding f, Integer ruleIndex) {
        ObjectNode r = ReportSupport.MAPPER.createObjectNode();
        r.put("ruleId", f.ruleId());
        if (ruleIndex != null) {
            r.put("ruleIndex", ruleIndex);
        }
        r.put("level", f.severity().sarifLevel());
        r.putObject("message").put("text", messageText(f));
        r.putArray("locations").addObject().set("physicalLocation", physicalLocation(f.region()));
        if (!f.related().isEmpty()) {
            ArrayNode related = r.putArray("relatedLocations");
            int id = 1;
            for (RelatedLocation rl : f.related()) {
                ObjectNode loc = related.addObject();
                loc.put("id", id++);
                loc.set("physicalLocation", physicalLocation(rl.region()));
                loc.putObject("message").put("text", escapeBrackets(rl.message()));
            }
        }
        r.putObject("partialFingerprints").put(FINGERPRINT_KEY, f.fingerprint());
        return r;
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

    private static ObjectNode physicalLocation(SourceRegion region) {
        ObjectNode pl = ReportSupport.MAPPER.createObjectNode();
        ObjectNode artifact = pl.putObject("artifactLocation");
        artifact.put("uri", relativeUri(region.path()));
        artifact.put("uriBaseId", SRCROOT);
        ObjectNode r = pl.putObject("region");
        r.put("startLine", region.startLine());
        boolean wholeLine =
                region.startLine() == region.endLine() && region.startColumn() == 1 && region.endColumn() == 1;
        if (!wholeLine) {
            r.put("startColumn", region.startColumn());
        }
        r.put("endLine", region.endLine());
        if (!wholeLine) {
            r.put("endColumn", region.endColumn());
        }
        return pl;
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
