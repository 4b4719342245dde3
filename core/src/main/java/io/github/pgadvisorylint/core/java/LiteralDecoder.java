package io.github.pgadvisorylint.core.java;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the raw source of Java string literals and text blocks into their values, keeping the file
 * offset of every char (JLS 17 §3.10.5 string literals, §3.10.6 text blocks, §3.10.7 escapes,
 * §3.3 Unicode escapes).
 */
final class LiteralDecoder {

    private LiteralDecoder() {}

    /**
     * @param src   the whole file text
     * @param start offset of the opening quote
     * @param end   offset of the closing quote
     * @return the literal's value with offsets
     */
    static JavaText stringLiteral(String src, int start, int end) {
        JavaText raw = new JavaText();
        for (int i = start + 1; i < end && i < src.length(); i++) {
            raw.append(src.charAt(i), i);
        }
        return unescape(raw);
    }

    /**
     * @param src   the whole file text
     * @param start offset of the opening {@code """}
     * @param end   offset of the first quote of the closing {@code """}
     * @return the text block's value with offsets (incidental white space stripped, escapes applied)
     */
    static JavaText textBlock(String src, int start, int end) {
        int i = start + 3;
        while (i < end && src.charAt(i) != '\n' && src.charAt(i) != '\r') {
            i++;
        }
        if (i < end && src.charAt(i) == '\r' && i + 1 < end && src.charAt(i + 1) == '\n') {
            i++;
        }
        i++;
        // split content [i, end) into lines: each line is [lineStart, lineEnd) without terminator
        List<int[]> lines = new ArrayList<>();
        int ls = i;
        for (int p = i; p < end; p++) {
            char c = src.charAt(p);
            if (c == '\n' || c == '\r') {
                lines.add(new int[] {ls, p});
                if (c == '\r' && p + 1 < end && src.charAt(p + 1) == '\n') {
                    p++;
                }
                ls = p + 1;
            }
        }
        lines.add(new int[] {ls, end}); // last line: holds the closing delimiter
        int minIndent = Integer.MAX_VALUE;
        for (int k = 0; k < lines.size(); k++) {
            int[] l = lines.get(k);
            boolean last = k == lines.size() - 1;
            int ws = leadingWhitespace(src, l[0], l[1]);
            boolean blank = ws == l[1] - l[0];
            if (!blank || last) {
                minIndent = Math.min(minIndent, ws);
            }
        }
        if (minIndent == Integer.MAX_VALUE) {
            minIndent = 0;
        }
        JavaText raw = new JavaText();
        for (int k = 0; k < lines.size(); k++) {
            int[] l = lines.get(k);
            boolean last = k == lines.size() - 1;
            int s = l[0];
            int e = l[1];
            int ws = leadingWhitespace(src, s, e);
            if (ws == e - s) {
                s = e; // blank line
            } else {
                s += minIndent;
                while (e > s && isWhite(src.charAt(e - 1))) {
                    e--;
                }
            }
            for (int p = s; p < e; p++) {
                raw.append(src.charAt(p), p);
            }
            if (!last) {
                raw.append('\n', l[1]);
            }
        }
        return unescape(raw);
    }

    private static int leadingWhitespace(String src, int s, int e) {
        int n = 0;
        while (s + n < e && isWhite(src.charAt(s + n))) {
            n++;
        }
        return n;
    }

    private static boolean isWhite(char c) {
        return c == ' ' || c == '\t' || c == '\f';
    }

    private static JavaText unescape(JavaText raw) {
        String r = raw.text();
        JavaText out = new JavaText();
        for (int i = 0; i < r.length(); i++) {
            char c = r.charAt(i);
            int off = raw.offsetAt(i);
            if (c != '\\' || i + 1 >= r.length()) {
                out.append(c, off);
                continue;
            }
            char n = r.charAt(i + 1);
            switch (n) {
                case 'n' -> {
                    out.append('\n', off);
                    i++;
                }
                case 't' -> {
                    out.append('\t', off);
                    i++;
                }
                case 'r' -> {
                    out.append('\r', off);
                    i++;
                }
                case 'b' -> {
                    out.append('\b', off);
                    i++;
                }
                case 'f' -> {
                    out.append('\f', off);
                    i++;
                }
                case 's' -> {
                    out.append(' ', off);
                    i++;
                }
                case '"', '\'', '\\' -> {
                    out.append(n, off);
                    i++;
                }
                case '\n' -> i++; // line continuation in text blocks
                case 'u' -> {
                    int j = i + 1;
                    while (j < r.length() && r.charAt(j) == 'u') {
                        j++;
                    }
                    if (j + 4 <= r.length() && isHex(r, j, j + 4)) {
                        out.append((char) Integer.parseInt(r.substring(j, j + 4), 16), off);
                        i = j + 3;
                    } else {
                        out.append(c, off);
                    }
                }
                default -> {
                    if (n >= '0' && n <= '7') {
                        int j = i + 1;
                        int max = n <= '3' ? 3 : 2;
                        int v = 0;
                        int count = 0;
                        while (j < r.length() && count < max && r.charAt(j) >= '0' && r.charAt(j) <= '7') {
                            v = v * 8 + (r.charAt(j) - '0');
                            j++;
                            count++;
                        }
                        out.append((char) v, off);
                        i = j - 1;
                    } else {
                        out.append(c, off);
                    }
                }
            }
        }
        return out;
    }

    private static boolean isHex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
