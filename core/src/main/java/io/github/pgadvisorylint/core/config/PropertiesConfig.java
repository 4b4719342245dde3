package io.github.pgadvisorylint.core.config;

import java.util.function.BiConsumer;

/**
 * Reads {@code .properties} files by the rules of {@link java.util.Properties#load(java.io.Reader)}
 * (comment lines starting with {@code #} or {@code !}, {@code key=value}, {@code key: value} and
 * {@code key value}, continuation lines ending in an odd number of backslashes, {@code \}-escapes
 * including {@code \}{@code uXXXX}), keeping the file offset of every char so evidence can point at the port
 * of a URL. {@code Properties} itself is not used because it forgets where a value was.
 */
final class PropertiesConfig {

    private PropertiesConfig() {}

    static void scan(String text, EvidenceSink sink) {
        forEachEntry(text, (key, value) -> {
            EvidenceRules.prepareThresholdProperty(key, value, sink);
            EvidenceRules.urls(value, sink);
        });
    }

    /**
     * @param text    a {@code .properties} file's text
     * @param onEntry receives each entry in file order: its key, unescaped, and its value, unescaped, with the file
     *                offset of each char
     */
    static void forEachEntry(String text, BiConsumer<String, MappedText> onEntry) {
        int n = text.length();
        int pos = 0;
        while (pos < n) {
            // one logical line: raw chars (escapes kept) with their offsets
            MappedText.Builder raw = new MappedText.Builder(64);
            boolean first = true;
            boolean comment = false;
            while (pos < n) {
                int lineEnd = pos;
                while (lineEnd < n && text.charAt(lineEnd) != '\n' && text.charAt(lineEnd) != '\r') {
                    lineEnd++;
                }
                int next = lineEnd;
                if (next < n && text.charAt(next) == '\r') {
                    next++;
                }
                if (lineEnd < n && text.charAt(lineEnd) == '\r' && next < n && text.charAt(next) == '\n') {
                    next++;
                } else if (next == lineEnd && next < n) {
                    next++;
                }
                int s = pos;
                while (s < lineEnd && (text.charAt(s) == ' ' || text.charAt(s) == '\t' || text.charAt(s) == '\f')) {
                    s++;
                }
                if (first && s < lineEnd && (text.charAt(s) == '#' || text.charAt(s) == '!')) {
                    comment = true;
                }
                int backslashes = 0;
                for (int k = lineEnd - 1; k >= s && text.charAt(k) == '\\'; k--) {
                    backslashes++;
                }
                boolean continues = !comment && backslashes % 2 == 1;
                int contentEnd = continues ? lineEnd - 1 : lineEnd;
                if (!comment) {
                    for (int k = s; k < contentEnd; k++) {
                        raw.add(text.charAt(k), k);
                    }
                }
                pos = next;
                first = false;
                if (!continues) {
                    break;
                }
            }
            if (!comment && raw.length() > 0) {
                entry(raw.build(), onEntry);
            }
        }
    }

    private static void entry(MappedText line, BiConsumer<String, MappedText> onEntry) {
        String s = line.text();
        int n = s.length();
        int keyEnd = 0;
        while (keyEnd < n) {
            char c = s.charAt(keyEnd);
            if (c == '\\') {
                keyEnd += 2;
                continue;
            }
            if (c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f') {
                break;
            }
            keyEnd++;
        }
        keyEnd = Math.min(keyEnd, n);
        int v = keyEnd;
        while (v < n && (s.charAt(v) == ' ' || s.charAt(v) == '\t' || s.charAt(v) == '\f')) {
            v++;
        }
        if (v < n && (s.charAt(v) == '=' || s.charAt(v) == ':')) {
            v++;
        }
        while (v < n && (s.charAt(v) == ' ' || s.charAt(v) == '\t' || s.charAt(v) == '\f')) {
            v++;
        }
        onEntry.accept(unescape(line.sub(0, keyEnd)).text(), unescape(line.sub(v, n)));
    }

    /** Decodes properties escapes; a decoded char maps to the offset of the char after its backslash. */
    static MappedText unescape(MappedText in) {
        String s = in.text();
        if (s.indexOf('\\') < 0) {
            return in;
        }
        MappedText.Builder out = new MappedText.Builder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) {
                if (c != '\\') {
                    out.add(c, in.start(i));
                }
                i++;
                continue;
            }
            char e = s.charAt(i + 1);
            switch (e) {
                case 't' -> out.add('\t', in.start(i + 1));
                case 'n' -> out.add('\n', in.start(i + 1));
                case 'r' -> out.add('\r', in.start(i + 1));
                case 'f' -> out.add('\f', in.start(i + 1));
                case 'u' -> {
                    if (i + 6 <= s.length()
                            && s.substring(i + 2, i + 6).chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
                        out.add((char) Integer.parseInt(s.substring(i + 2, i + 6), 16), in.start(i));
                        i += 6;
                        continue;
                    }
                    out.add('u', in.start(i + 1));
                }
                default -> out.add(e, in.start(i + 1));
            }
            i += 2;
        }
        return out.build();
    }
}
