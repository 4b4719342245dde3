package io.github.pgadvisorylint.core.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.List;

/**
 * Writes the tool's own JSON document, simpler than SARIF, for scripts. Schema, version 1 (keys in
 * this order; every key is always present):
 * <pre>
 * {
 *   "schemaVersion": 1,                          // bumped on any incompatible change
 *   "tool": {"name": "pg-advisory-lint", "version": "0.1.0"},
 *   "summary": {"errors": 1, "warnings": 2, "notes": 0, "files": 412,    // files = files scanned
 *               "suppressed": 3},               // findings left out by suppressions or a baseline
 *   "findings": [                                 // sorted by path, line, column, rule id
 *     {
 *       "ruleId": "duplicate-lock-key",           // kebab-case rule id
 *       "severity": "error",                      // "error" | "warning" | "note"
 *       "message": "plain text",
 *       "path": "src/a b/Zoë.java",               // relative to the scan root, '/'-separated, not encoded
 *       "line": 41, "column": 17,                 // 1-based; columns in UTF-16 code units
 *       "endLine": 41, "endColumn": 40,           // endColumn is exclusive
 *       "related": [                              // possibly empty, in the message's order
 *         {"message": "plain text", "path": "...", "line": 7, "column": 1, "endLine": 7, "endColumn": 30}
 *       ],
 *       "fingerprint": "3f9a...",                 // stable across line moves
 *       "suppression": null                       // always null unless suppressed findings are shown:
 *                                                 // {"kind": "inSource" | "external", "justification": "...",
 *                                                 //  "path": ..., "line": ..., "column": ..., "endLine": ..., "endColumn": ...}
 *     }
 *   ],
 *   "notifications": [                            // sorted by location
 *     {"level": "error", "kind": "java-parse-error", "message": "...",
 *      "path": "...", "line": 1, "column": 1, "endLine": 1, "endColumn": 1}
 *   ]
 * }
 * </pre>
 * No timestamps and no absolute paths: the same result gives byte-identical output (two-space
 * indentation, {@code \n} line ends, a final newline). Findings are the active ones; with
 * {@link #JsonReporter(boolean) showSuppressed} the suppressed ones follow in the same sorted list
 * with a non-null {@code suppression}. Adding a key is not an incompatible change; removing or
 * retyping one is and bumps {@code schemaVersion}. The JSON Schema is
 * {@code docs/report.schema.json} in the repository.
 */
public final class JsonReporter implements Reporter {

    /** The value of {@code schemaVersion} this reporter writes. */
    public static final int SCHEMA_VERSION = 1;

    private final boolean showSuppressed;

    /** A reporter that lists active findings only. */
    public JsonReporter() {
        this(false);
    }

    /** @param showSuppressed true to list suppressed findings too, with their {@code suppression} */
    public JsonReporter(boolean showSuppressed) {
        this.showSuppressed = showSuppressed;
    }

    @Override
    public void write(AnalysisResult result, Writer out) throws IOException {
        ReportSupport.writeJson(toJson(result), out);
    }

    /**
     * @param result an analysis result
     * @return the document as a Jackson tree, keys in output order
     */
    public ObjectNode toJson(AnalysisResult result) {
        ObjectNode root = ReportSupport.MAPPER.createObjectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        ObjectNode tool = root.putObject("tool");
        tool.put("name", ToolInfo.NAME);
        tool.put("version", ToolInfo.version());
        ObjectNode summary = root.putObject("summary");
        summary.put("errors", result.count(Severity.ERROR));
        summary.put("warnings", result.count(Severity.WARNING));
        summary.put("notes", result.count(Severity.NOTE));
        summary.put("files", result.filesScanned());
        summary.put("suppressed", result.suppressed().size());
        if (!result.unanalysed().isEmpty()) {
            // only when there are such files, so reports of Java and SQL trees keep their bytes
            ObjectNode unanalysed = summary.putObject("unanalysed");
            result.unanalysed().forEach((language, n) -> unanalysed.put(language.displayName(), n));
        }
        ArrayNode findings = root.putArray("findings");
        List<Finding> shown = new ArrayList<>(result.findings());
        if (showSuppressed) {
            shown.addAll(result.suppressed());
        }
        for (Finding f : ReportSupport.sortedFindings(shown)) {
            ObjectNode n = findings.addObject();
            n.put("ruleId", f.ruleId());
            n.put("severity", f.severity().sarifLevel());
            n.put("message", f.message());
            putRegion(n, f.region());
            ArrayNode related = n.putArray("related");
            for (RelatedLocation r : f.related()) {
                ObjectNode rn = related.addObject();
                rn.put("message", r.message());
                putRegion(rn, r.region());
            }
            n.put("fingerprint", f.fingerprint());
            if (f.suppression() == null) {
                n.putNull("suppression");
            } else {
                ObjectNode sn = n.putObject("suppression");
                sn.put("kind", f.suppression().kind().sarifKind());
                sn.put("justification", f.suppression().justification());
                putRegion(sn, f.suppression().location());
            }
        }
        ArrayNode notifications = root.putArray("notifications");
        for (Notification note : ReportSupport.sortedNotifications(result.notifications())) {
            ObjectNode n = notifications.addObject();
            n.put("level", note.level().sarifLevel());
            n.put("kind", note.kind());
            n.put("message", note.message());
            putRegion(n, note.region());
        }
        return root;
    }

    private static void putRegion(ObjectNode n, SourceRegion r) {
        n.put("path", r.path());
        n.put("line", r.startLine());
        n.put("column", r.startColumn());
        n.put("endLine", r.endLine());
        n.put("endColumn", r.endColumn());
    }
}
