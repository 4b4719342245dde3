package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.rule.Finding;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An in-source suppression: {@code @SuppressWarnings("pg-advisory-lint:rule-id")} (or
 * {@code "pg-advisory-lint"} for every rule) on a declaration, or a comment
 * {@code pg-advisory-lint:ignore rule-id[, rule-id] -- reason} (after {@code //}, {@code --} or
 * {@code #}) that covers its own line and the next one.
 *
 * @param path      file path relative to the scan root
 * @param startLine first line covered, 1-based
 * @param endLine   last line covered, inclusive
 * @param ruleIds   rule ids silenced; empty means every rule
 * @param reason    the justification written after {@code --}, or empty
 */
public record Suppression(String path, int startLine, int endLine, Set<String> ruleIds, String reason) {

    /** The annotation value prefix and the comment marker. */
    public static final String PREFIX = "pg-advisory-lint";

    private static final Pattern COMMENT = Pattern.compile(
            "(?://|--|#)\\s*pg-advisory-lint:ignore\\b([ \\t]+[a-z0-9, \\t-]*?)?(?:\\s+--\\s*(.*))?\\s*$");

    /** Copies the ids. */
    public Suppression {
        ruleIds = Set.copyOf(ruleIds);
        reason = reason == null ? "" : reason.trim();
    }

    /**
     * @param finding a finding
     * @return true when this suppression silences it
     */
    public boolean covers(Finding finding) {
        return finding.region().path().equals(path)
                && finding.region().startLine() >= startLine && finding.region().startLine() <= endLine
                && (ruleIds.isEmpty() || ruleIds.contains(finding.ruleId()));
    }

    /**
     * Finds ignore comments line by line; works for Java, SQL and configuration files alike.
     *
     * @param path  the file's relative path
     * @param lines the file's lines, in order
     * @return one suppression per ignore comment
     */
    public static List<Suppression> fromComments(String path, List<String> lines) {
        List<Suppression> out = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.contains("pg-advisory-lint:ignore")) {
                continue;
            }
            Matcher m = COMMENT.matcher(line);
            if (m.find()) {
                out.add(new Suppression(path, i + 1, i + 2, ids(m.group(1)), m.group(2)));
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
        java.util.Set<String> ids = new java.util.TreeSet<>();
        for (String s : list.split("[,\\s]+")) {
            if (!s.isBlank()) {
                ids.add(s.trim());
            }
        }
        return ids;
    }
}
