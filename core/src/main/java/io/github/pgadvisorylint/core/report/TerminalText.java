package io.github.pgadvisorylint.core.report;

/**
 * Makes text that a scanned repository controls (file names, messages quoting code) safe to print
 * on a terminal: a file named with an escape sequence or a newline must not move the cursor, recolour
 * the screen, retitle the window or forge an extra report line.
 * <p>
 * Every C0 control character (U+0000 to U+001F), DEL (U+007F), every C1 control (U+0080 to U+009F,
 * which terminals also read as CSI and OSC introducers), the line and paragraph separators
 * (U+2028, U+2029) and the bidirectional embeddings, overrides and isolates (U+202A to U+202E,
 * U+2066 to U+2069, the "Trojan Source" characters) are written as a visible escape: {@code \n},
 * {@code \r}, {@code \t} for the three common ones and {@code \}{@code u} with four hex digits for
 * the rest. Everything else, non-ASCII letters included, passes unchanged.
 */
public final class TerminalText {

    private TerminalText() {}

    /**
     * @param text any text, or null
     * @return the text with every control character escaped; null stays null
     */
    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        int i = 0;
        while (i < text.length() && !needsEscape(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!needsEscape(c)) {
                sb.append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else {
                sb.append(String.format("\\u%04X", (int) c));
            }
        }
        return sb.toString();
    }

    /**
     * @param c a character
     * @return true when a terminal would act on it instead of showing it
     */
    static boolean needsEscape(char c) {
        return c < 0x20
                || (c >= 0x7F && c <= 0x9F)
                || c == '\u2028'
                || c == '\u2029'
                || (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069');
    }
}
