package io.github.pgadvisorylint.core.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A line-based reading for files without a structured reader (XML, HOCON {@code .conf}, other
 * config) and for the part of a YAML file after a parse error: comments are dropped, then URLs (and,
 * in YAML, {@code POOL_MODE: value} / {@code POOL_MODE=value}) are looked for in what remains.
 */
final class LexicalConfig {

    /** How comments look in a file read this way. */
    enum Comments {
        /** YAML: {@code #} at line start or after a blank, outside quotes. */
        HASH,
        /** XML: {@code <!-- ... -->}, possibly over several lines. */
        XML,
        /** Unknown formats: whole lines starting with {@code #}, {@code ;}, {@code //}, {@code --} or {@code *}, and {@code #} after a blank. */
        ANY
    }

    private static final Pattern ENV_ASSIGNMENT =
            Pattern.compile("(?<![A-Za-z0-9_])((?:PGBOUNCER_)?POOL_MODE)[\"']?[ \\t]*[:=][ \\t]*");

    private LexicalConfig() {}

    static void scan(
            String text, int from, int to, Comments comments, boolean envAssignments, String where, EvidenceSink sink) {
        String region = text.substring(from, to);
        if (comments == Comments.XML) {
            region = blankXmlComments(region);
        }
        LineSource lines = new LineSource(MappedText.identity(region, from));
        for (int l = 0; l < lines.count(); l++) {
            MappedText line = withoutComment(lines.line(l), comments);
            if (line.length() == 0) {
                continue;
            }
            EvidenceRules.urls(line, sink);
            if (envAssignments) {
                Matcher m = ENV_ASSIGNMENT.matcher(line.text());
                if (m.find()) {
                    MappedText value = DotenvConfig.value(line.sub(m.end(), line.length()));
                    EvidenceRules.envVariable(m.group(1), value, where, sink);
                }
            }
        }
    }

    private static MappedText withoutComment(MappedText line, Comments comments) {
        String s = line.text();
        String t = s.stripLeading();
        if (comments == Comments.ANY
                && (t.startsWith("#")
                        || t.startsWith(";")
                        || t.startsWith("//")
                        || t.startsWith("--")
                        || t.startsWith("*")
                        || t.startsWith("/*"))) {
            return line.sub(0, 0);
        }
        if (comments == Comments.XML) {
            return line;
        }
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                if (comments == Comments.HASH) {
                    quote = c;
                }
            } else if (c == '#' && (i == 0 || s.charAt(i - 1) == ' ' || s.charAt(i - 1) == '\t')) {
                return line.sub(0, i);
            }
        }
        return line;
    }

    /** @return {@code xml} with every {@code <!-- ... -->} replaced by blanks (line breaks kept), so offsets stay */
    static String blankXmlComments(String xml) {
        int open = xml.indexOf("<!--");
        if (open < 0) {
            return xml;
        }
        StringBuilder b = new StringBuilder(xml);
        while (open >= 0) {
            int close = xml.indexOf("-->", open + 4);
            int end = close < 0 ? xml.length() : close + 3;
            for (int i = open; i < end; i++) {
                char c = b.charAt(i);
                if (c != '\n' && c != '\r') {
                    b.setCharAt(i, ' ');
                }
            }
            open = close < 0 ? -1 : xml.indexOf("<!--", end);
        }
        return b.toString();
    }
}
