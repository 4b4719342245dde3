package io.github.pgadvisorylint.core.config;

import java.util.Arrays;

/**
 * A decoded piece of text whose every char knows the file offset it came from: the value of a
 * properties key after escapes and continuation lines, a YAML scalar after quoting and folding, a
 * URL after its placeholders were replaced by their defaults. Regions of evidence are computed
 * through it, so they point at the file's own characters.
 */
final class MappedText {

    /** Stands for a placeholder without a default ({@code ${DB_PORT}}): matches no digit and no host name. */
    static final char UNKNOWN = '\uFFFF';

    private final String text;
    /** Offsets of each char, or null when char {@code i} is at {@code base + i}. */
    private final int[] offsets;

    private final int base;

    private MappedText(String text, int[] offsets) {
        this.text = text;
        this.offsets = offsets;
        this.base = 0;
    }

    private MappedText(String text, int base) {
        this.text = text;
        this.offsets = null;
        this.base = base;
    }

    /** @return {@code text} whose char {@code i} is at file offset {@code base + i} */
    static MappedText identity(String text, int base) {
        return new MappedText(text, base);
    }

    /** @return {@code fileText[start, end)} mapped onto itself */
    static MappedText slice(String fileText, int start, int end) {
        return identity(fileText.substring(start, end), start);
    }

    /**
     * Maps a decoded value onto the raw source span it was decoded from. When the value occurs
     * verbatim in the span (plain and quoted scalars without escapes) the mapping is exact; otherwise
     * each char is matched to the next equal raw char, skipping quotes, backslashes and whitespace,
     * which is exact for folding and simple escapes and approximate for numeric escapes.
     */
    static MappedText aligned(String value, String fileText, int rawStart, int rawEnd) {
        int s = Math.max(0, Math.min(rawStart, fileText.length()));
        int e = Math.max(s, Math.min(rawEnd, fileText.length()));
        int at = fileText.substring(s, e).indexOf(value);
        if (at >= 0) {
            return identity(value, s + at);
        }
        int[] o = new int[value.length()];
        int r = s;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            while (r < e && fileText.charAt(r) != c && skippable(fileText.charAt(r))) {
                r++;
            }
            if (r < e && fileText.charAt(r) == c) {
                o[i] = r++;
            } else {
                o[i] = Math.min(r, Math.max(s, e - 1));
                if (r < e) {
                    r++;
                }
            }
        }
        return new MappedText(value, o);
    }

    private static boolean skippable(char c) {
        return c == '"' || c == '\'' || c == '\\' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '|'
                || c == '>' || c == '-' || c == '+';
    }

    /** @return the decoded text */
    String text() {
        return text;
    }

    int length() {
        return text.length();
    }

    char charAt(int i) {
        return text.charAt(i);
    }

    /** @return the file offset of char {@code i}; for {@code i == length()} the offset just past the last char */
    int start(int i) {
        if (offsets == null) {
            return base + i;
        }
        if (offsets.length == 0) {
            return 0;
        }
        return i < offsets.length ? offsets[i] : offsets[offsets.length - 1] + 1;
    }

    /** @return the file offset just past char {@code i - 1} (the exclusive end of {@code [.., i)}) */
    int end(int i) {
        if (offsets == null) {
            return base + Math.max(0, i);
        }
        if (offsets.length == 0) {
            return 0;
        }
        return i <= 0 ? offsets[0] : offsets[Math.min(i, offsets.length) - 1] + 1;
    }

    /** @return chars {@code [from, to)} with their offsets */
    MappedText sub(int from, int to) {
        if (offsets == null) {
            return new MappedText(text.substring(from, to), base + from);
        }
        return new MappedText(text.substring(from, to), Arrays.copyOfRange(offsets, from, to));
    }

    /** @return this text without leading and trailing blanks (space, tab, CR, LF, form feed) */
    MappedText strip() {
        int a = 0;
        int b = text.length();
        while (a < b && blank(text.charAt(a))) {
            a++;
        }
        while (b > a && blank(text.charAt(b - 1))) {
            b--;
        }
        return a == 0 && b == text.length() ? this : sub(a, b);
    }

    /** @return this text without one pair of matching surrounding quotes ({@code "} or {@code '}) */
    MappedText unquote() {
        if (text.length() >= 2) {
            char f = text.charAt(0);
            if ((f == '"' || f == '\'') && text.charAt(text.length() - 1) == f) {
                return sub(1, text.length() - 1);
            }
        }
        return this;
    }

    static boolean blank(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
    }

    /**
     * Replaces placeholders by their defaults: Spring/Quarkus/Micronaut {@code ${NAME:default}} and
     * shell/compose {@code ${NAME:-default}} / {@code ${NAME:=default}} (nested placeholders in a
     * default are resolved too). A placeholder without a default, and a bare {@code $NAME}, become
     * one {@link #UNKNOWN} char mapped to its {@code $}.
     */
    MappedText resolvePlaceholders() {
        if (text.indexOf('$') < 0) {
            return this;
        }
        Builder out = new Builder(text.length());
        resolveInto(out, 0, text.length(), 0);
        return out.build();
    }

    private void resolveInto(Builder out, int from, int to, int depth) {
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            if (c == '$' && i + 1 < to && text.charAt(i + 1) == '{') {
                int close = matchingBrace(i + 1, to);
                if (close < 0) {
                    out.append(this, i, to);
                    return;
                }
                int colon = -1;
                int nest = 0;
                for (int k = i + 2; k < close; k++) {
                    char d = text.charAt(k);
                    if (d == '{') {
                        nest++;
                    } else if (d == '}') {
                        nest--;
                    } else if (d == ':' && nest == 0) {
                        colon = k;
                        break;
                    }
                }
                if (colon < 0 || depth > 8) {
                    out.add(UNKNOWN, start(i));
                } else {
                    int d = colon + 1;
                    if (d < close && (text.charAt(d) == '-' || text.charAt(d) == '=')) {
                        d++;
                    }
                    resolveInto(out, d, close, depth + 1);
                }
                i = close + 1;
            } else if (c == '$'
                    && i + 1 < to
                    && (Character.isLetter(text.charAt(i + 1)) || text.charAt(i + 1) == '_')) {
                out.add(UNKNOWN, start(i));
                i++;
                while (i < to && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
            } else {
                out.add(c, start(i));
                i++;
            }
        }
    }

    /** @return the index of the <code>}</code> closing the <code>{</code> at {@code open}, or -1 */
    int matchingBrace(int open, int to) {
        int nest = 0;
        for (int k = open; k < to; k++) {
            char d = text.charAt(k);
            if (d == '{') {
                nest++;
            } else if (d == '}' && --nest == 0) {
                return k;
            }
        }
        return -1;
    }

    /** Accumulates chars with their offsets. */
    static final class Builder {
        private final StringBuilder sb;
        private int[] offsets;

        Builder(int capacity) {
            sb = new StringBuilder(capacity);
            offsets = new int[Math.max(4, capacity)];
        }

        Builder add(char c, int offset) {
            if (sb.length() == offsets.length) {
                offsets = Arrays.copyOf(offsets, offsets.length * 2);
            }
            offsets[sb.length()] = offset;
            sb.append(c);
            return this;
        }

        Builder append(MappedText t, int from, int to) {
            for (int k = from; k < to; k++) {
                add(t.charAt(k), t.start(k));
            }
            return this;
        }

        int length() {
            return sb.length();
        }

        MappedText build() {
            return new MappedText(sb.toString(), Arrays.copyOf(offsets, sb.length()));
        }
    }
}
