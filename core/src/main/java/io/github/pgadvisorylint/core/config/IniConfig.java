package io.github.pgadvisorylint.core.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Reads PgBouncer's ini format (PgBouncer docs, "Configuration"): {@code [section]} headers,
 * {@code key = value} lines, comment lines starting with {@code ;} or {@code #}, and {@code %include}.
 * A small line-based parser: there is no well-kept INI library for Java on the registries this project
 * may use, and PgBouncer's format is simple. Evidence: {@code pool_mode} in {@code [pgbouncer]}
 * (global), and {@code pool_mode=} inside the connection string of a {@code [databases]} or
 * {@code [users]} entry. A line that is none of these becomes a {@code config-parse-error} warning and
 * is skipped; the rest of the file is still read.
 */
final class IniConfig {

    private static final Pattern PGBOUNCER_SECTION =
            Pattern.compile("(?im)^[ \\t]*\\[[ \\t]*(pgbouncer|databases|users)[ \\t]*\\][ \\t]*$");

    private IniConfig() {}

    /** @return whether {@code text} has a {@code [pgbouncer]}, {@code [databases]} or {@code [users]} section */
    static boolean looksLikePgBouncer(String text) {
        return PGBOUNCER_SECTION.matcher(text).find();
    }

    static void scan(LineSource lines, String fileName, EvidenceSink sink) {
        String section = "";
        for (int l = 0; l < lines.count(); l++) {
            MappedText line = lines.line(l).strip();
            String s = line.text();
            if (s.isEmpty() || s.charAt(0) == ';' || s.charAt(0) == '#' || s.startsWith("%include")) {
                continue;
            }
            if (s.charAt(0) == '[') {
                if (s.endsWith("]")) {
                    section = s.substring(1, s.length() - 1).strip().toLowerCase(Locale.ROOT);
                } else {
                    sink.parseProblem(line.start(0), "unclosed section header in " + fileName + "; line skipped");
                }
                continue;
            }
            int eq = s.indexOf('=');
            if (eq <= 0) {
                sink.parseProblem(
                        line.start(0), "line in " + fileName + " is neither [section] nor key = value;" + " skipped");
                continue;
            }
            String key = s.substring(0, eq).strip();
            MappedText value = line.sub(eq + 1, s.length()).strip();
            switch (section) {
                case "pgbouncer" -> {
                    if (key.equalsIgnoreCase("pool_mode")) {
                        EvidenceRules.modeValue(value, "pool_mode = %s in [pgbouncer]", sink);
                    }
                }
                case "databases" -> connectionString(value, "for database " + key + " in [databases]", sink);
                case "users" -> connectionString(value, "for user " + key + " in [users]", sink);
                default -> {
                    // other sections ([peers], unrelated tools' sections) say nothing about pooling
                }
            }
        }
    }

    /** Finds {@code pool_mode=...} among libpq-style {@code key=value} pairs (values may be single-quoted). */
    private static void connectionString(MappedText value, String where, EvidenceSink sink) {
        String s = value.text();
        int i = 0;
        int n = s.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            int ks = i;
            while (i < n && s.charAt(i) != '=' && !Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            String k = s.substring(ks, i);
            while (i < n && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i >= n || s.charAt(i) != '=') {
                continue;
            }
            i++;
            while (i < n && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            int vs = i;
            int ve;
            if (i < n && s.charAt(i) == '\'') {
                i++;
                while (i < n && s.charAt(i) != '\'') {
                    i += s.charAt(i) == '\\' ? 2 : 1;
                }
                ve = Math.min(i + 1, n);
                i = ve;
            } else {
                while (i < n && !Character.isWhitespace(s.charAt(i))) {
                    i++;
                }
                ve = i;
            }
            if (k.equalsIgnoreCase("pool_mode")) {
                EvidenceRules.modeValue(value.sub(vs, ve), "pool_mode=%s " + where, sink);
            }
        }
    }
}
