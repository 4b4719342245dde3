package io.github.pgadvisorylint.core.facts;

import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.SuppressionUse;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An in-source suppression: {@code @SuppressWarnings("pg-advisory-lint:rule-id")} (or
 * {@code "pg-advisory-lint"} for every rule) on a declaration, or a comment
 * {@code pg-advisory-lint:ignore rule-id[, rule-id] -- reason} (after {@code //}, {@code --} or
 * {@code #}) that covers its own line and the next one; in Java, when a statement starts on one of
 * them, every line of that statement up to its first nested block (so the lines of its text blocks).
 *
 * @param path      file path relative to the scan root
 * @param startLine first line covered, 1-based
 * @param endLine   last line covered, inclusive
 * @param ruleIds   rule ids silenced, as written (lower-cased for annotations); empty means every rule
 * @param reason    the justification written after {@code --}, or empty (annotations have none)
 * @param form      how it is written
 * @param location  where it is written: from the {@code pg-advisory-lint:ignore} marker to the end of
 *                  the comment, or the annotation's string value; this is where an unused or unknown
 *                  suppression is reported
 * @param coversRelated true when a finding is also covered through a related location in the range:
 *                  for {@code @SuppressWarnings} on a field, whose SQL or key is reported where it is
 *                  used, with the field's declaration as related location
 */
public record Suppression(
        String path,
        int startLine,
        int endLine,
        Set<String> ruleIds,
        String reason,
        SuppressionUse.Form form,
        SourceRegion location,
        boolean coversRelated) {

    /** The annotation value prefix and the comment marker. */
    public static final String PREFIX = "pg-advisory-lint";

    /** The marker of an ignore comment. */
    public static final String MARKER = PREFIX + ":ignore";

    private static final Pattern COMMENT = Pattern.compile(
            "(?://|--|#)\\s*pg-advisory-lint:ignore\\b((?:[ \\t]+(?!--)[A-Za-z0-9_,-]+)*)(?:[ \\t]+--[ \\t]*(.*))?\\s*$");

    /** Copies the ids; a null reason becomes empty. */
    public Suppression {
        Objects.requireNonNull(path, "path");
        ruleIds = Set.copyOf(ruleIds);
        reason = reason == null ? "" : reason.trim();
        Objects.requireNonNull(form, "form");
        Objects.requireNonNull(location, "location");
    }

    /**
     * A comment suppression located at the start of its first line (the form before locations were
     * recorded).
     *
     * @param path      file path relative to the scan root
     * @param startLine first line covered, 1-based
     * @param endLine   last line covered, inclusive
     * @param ruleIds   rule ids silenced; empty means every rule
     * @param reason    the justification, or empty
     */
    public Suppression(String path, int startLine, int endLine, Set<String> ruleIds, String reason) {
        this(
                path,
                startLine,
                endLine,
                ruleIds,
                reason,
                SuppressionUse.Form.COMMENT,
                SourceRegion.line(path, startLine),
                false);
    }

    /**
     * @param line the new last line covered; Java comments reach the end of the statement that follows
     * @return this suppression covering {@code [startLine, line]}, everything else kept
     */
    public Suppression withEndLine(int line) {
        return new Suppression(path, startLine, line, ruleIds, reason, form, location, coversRelated);
    }

    /**
     * @param finding a finding
     * @return true when this suppression silences it: the rule named (or no rule named), and the
     *     primary location (with {@link #coversRelated}, also a related location) in this file with its
     *     first line within {@code [startLine, endLine]}
     */
    public boolean covers(Finding finding) {
        if (!ruleIds.isEmpty() && !ruleIds.contains(finding.ruleId())) {
            return false;
        }
        if (inRange(finding.region())) {
            return true;
        }
        return coversRelated && finding.related().stream().anyMatch(r -> inRange(r.region()));
    }

    private boolean inRange(SourceRegion r) {
        return r.path().equals(path) && r.startLine() >= startLine && r.startLine() <= endLine;
    }

    /**
     * Finds ignore comments line by line; works for Java, SQL and configuration files alike.
     *
     * @param path  the file's relative path
     * @param lines the file's lines, in order
     * @return one suppression per ignore comment, located from the marker to the end of the line
     *     (columns in UTF-16 code units)
     */
    public static List<Suppression> fromComments(String path, List<String> lines) {
        List<Suppression> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int marker = line.indexOf(MARKER);
            if (marker < 0) {
                continue;
            }
            Matcher m = COMMENT.matcher(line);
            if (m.find()) {
                int end = line.stripTrailing().length();
                SourceRegion at = new SourceRegion(path, i + 1, marker + 1, i + 1, Math.max(end, marker) + 1);
                out.add(new Suppression(
                        path, i + 1, i + 2, ids(m.group(1)), m.group(2), SuppressionUse.Form.COMMENT, at, false));
            }
        }
        return out;
    }

    /**
     * @param annotationValue a {@code @SuppressWarnings} string such as {@code pg-advisory-lint:lock-in-limit-query}
     * @return the rule ids it names (empty set for all rules), or null when it is not ours
     */
    public static Set<String> parseAnnotationValue(String annotationValue) {
        String v = annotationValue.trim().toLowerCase(Locale.ROOT);
        if (v.equals(PREFIX)) {
            return Set.of();
        }
        if (v.startsWith(PREFIX + ":")) {
            return ids(v.substring(PREFIX.length() + 1));
        }
        return null;
    }

    private static Set<String> ids(String list) {
        if (list == null || list.isBlank()) {
            return Set.of();
        }
        Set<String> ids = new TreeSet<>();
        for (String s : list.split("[,\\s]+", -1)) {
            if (!s.isBlank()) {
                ids.add(s.trim());
            }
        }
        return ids;
    }
}
