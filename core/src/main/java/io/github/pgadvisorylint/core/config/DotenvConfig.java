package io.github.pgadvisorylint.core.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code .env} files line by line as docker compose and dotenv libraries do: {@code #} comment
 * lines, {@code [export ]NAME=value}, values in single or double quotes or bare (a bare value ends at
 * {@code " #"}). Multi-line quoted values are read as their first line only. Lines that are none of
 * these are ignored: {@code .env} files have no strict grammar to report against.
 */
final class DotenvConfig {

    private static final Pattern ASSIGNMENT =
            Pattern.compile("^[ \\t]*(?:export[ \\t]+)?([A-Za-z_][A-Za-z0-9_.\\-]*)[ \\t]*=");

    private DotenvConfig() {}

    static void scan(LineSource lines, EvidenceSink sink) {
        for (int l = 0; l < lines.count(); l++) {
            MappedText line = lines.line(l);
            Matcher m = ASSIGNMENT.matcher(line.text());
            if (!m.find()) {
                continue;
            }
            MappedText value = value(line.sub(m.end(), line.length()));
            EvidenceRules.envVariable(m.group(1), value, "in a .env file", sink);
            EvidenceRules.urls(value, sink);
        }
    }

    /** @return the value of {@code NAME=}'s right-hand side: inside its quotes, or up to an inline comment */
    static MappedText value(MappedText rhs) {
        MappedText v = rhs.strip();
        String s = v.text();
        if (!s.isEmpty() && (s.charAt(0) == '"' || s.charAt(0) == '\'')) {
            int close = s.indexOf(s.charAt(0), 1);
            return close < 0 ? v.sub(1, s.length()) : v.sub(1, close);
        }
        for (int i = 1; i < s.length(); i++) {
            if (s.charAt(i) == '#' && (s.charAt(i - 1) == ' ' || s.charAt(i - 1) == '\t')) {
                return v.sub(0, i).strip();
            }
        }
        return v;
    }
}
