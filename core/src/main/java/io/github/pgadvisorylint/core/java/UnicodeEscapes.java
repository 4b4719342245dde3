package io.github.pgadvisorylint.core.java;

import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.Arrays;

/**
 * Java's unicode escapes (JLS §3.3), decoded before parsing as javac does: {@code \}{@code u0022} is a
 * double quote wherever it is written, even outside a literal. A backslash starts an escape only when
 * an even number of backslashes precede it; one or more {@code u} follow, then four hex digits. The
 * decoded file keeps a map to the offsets as written, so every region is reported where the code is
 * in the file. JavaParser's own escape pre-processing is not used: it reports positions in the decoded
 * text.
 */
final class UnicodeEscapes {

    private UnicodeEscapes() {}

    /**
     * @param file a Java file
     * @return the file itself when it holds no unicode escape, else its {@link SourceFile#translated
     *     translation} with the escapes decoded
     */
    static SourceFile decode(SourceFile file) {
        String text = file.text();
        if (!text.contains("\\u")) {
            return file;
        }
        int n = text.length();
        StringBuilder out = new StringBuilder(n);
        int[] origin = new int[n + 1];
        int backslashes = 0;
        boolean any = false;
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\\' && backslashes % 2 == 0 && i + 1 < n && text.charAt(i + 1) == 'u') {
                int j = i + 1;
                while (j < n && text.charAt(j) == 'u') {
                    j++;
                }
                int value = j + 4 <= n ? hex(text, j) : -1;
                if (value >= 0) {
                    origin[out.length()] = i;
                    out.append((char) value);
                    any = true;
                    backslashes = 0;
                    i = j + 4;
                    continue;
                }
            }
            origin[out.length()] = i;
            out.append(c);
            backslashes = c == '\\' ? backslashes + 1 : 0;
            i++;
        }
        if (!any) {
            return file;
        }
        origin[out.length()] = n;
        return SourceFile.translated(file, out.toString(), Arrays.copyOf(origin, out.length() + 1));
    }

    /** @return the value of the four hex digits at {@code at}, or -1 when they are not hex digits */
    private static int hex(String text, int at) {
        int v = 0;
        for (int k = at; k < at + 4; k++) {
            int d = Character.digit(text.charAt(k), 16);
            if (d < 0) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }
}
