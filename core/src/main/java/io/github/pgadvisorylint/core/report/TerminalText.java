package io.github.pgadvisorylint.core.report;

/**
 * The one escaper for terminal text: makes text that a scanned repository or a server controls (file
 * names, messages quoting code, application names) safe to print on a terminal or into a CI job log.
 * A file named with an escape sequence or a newline must not move the cursor, recolour the screen,
 * retitle the window, forge an extra report line, or run a GitHub Actions workflow command.
 * <p>
 * Every C0 control character (U+0000 to U+001F), DEL (U+007F), every C1 control (U+0080 to U+009F,
 * which terminals also read as CSI and OSC introducers), the line and paragraph separators
 * (U+2028, U+2029) and the bidirectional embeddings, overrides and isolates (U+202A to U+202E,
 * U+2066 to U+2069, the "Trojan Source" characters) are written as a visible escape: {@code \n},
 * {@code \r}, {@code \t} for the three common ones and {@code \}{@code u} with four hex digits for
 * the rest.
 * <p>
 * Workflow commands: GitHub's runner reads every line of a step's output, standard error included, as
 * a command when it starts with {@code ::} after leading white space ({@code ActionCommand.TryParseV2}
 * in actions/runner, which trims with .NET's {@code TrimStart()}), or when it holds {@code ##[} anywhere
 * followed by {@code ]} (the older {@code ActionCommand.TryParse}); {@code ::stop-commands::TOKEN} then
 * turns off every later annotation of the step. So a {@code :} that starts the text (after white
 * space, as Java's {@link Character#isWhitespace} or {@link Character#isSpaceChar} sees it, which
 * covers .NET's set) is written {@code \}{@code u003A}, and the first {@code #} of every {@code ##[} is
 * written {@code \}{@code u0023}. A writer puts escaped text at the start of a line, or after its own
 * fixed words, never after a {@code :} or {@code #} of its own. Everything else, non-ASCII letters
 * included, passes unchanged.
 */
public final class TerminalText {

    private TerminalText() {}

    /**
     * @param text any text, or null
     * @return the text with every control character, a leading {@code :} and the first {@code #} of each
     *     {@code ##[} escaped; null stays null
     */
    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        int lead = 0;
        while (lead < text.length() && isSpace(text.charAt(lead))) {
            lead++;
        }
        int i = 0;
        while (i < text.length() && !needsEscape(text, i, lead)) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!needsEscape(text, i, lead)) {
                sb.append(c);
            } else {
                appendVisible(sb, c);
            }
        }
        return sb.toString();
    }

    /**
     * Appends the visible escape of one character: {@code \n}, {@code \r}, {@code \t}, else
     * {@code \}{@code u} and four upper-case hex digits.
     *
     * @param sb where
     * @param c  the character
     */
    static void appendVisible(StringBuilder sb, char c) {
        switch (c) {
            case '\n' -> sb.append("\\n");
            case '\r' -> sb.append("\\r");
            case '\t' -> sb.append("\\t");
            default -> sb.append(String.format("\\u%04X", (int) c));
        }
    }

    /** @param lead the index of the first character that is not white space */
    private static boolean needsEscape(String text, int i, int lead) {
        char c = text.charAt(i);
        return needsEscape(c) || (c == '#' && text.startsWith("#[", i + 1)) || (c == ':' && i == lead);
    }

    /** @return true for the white space GitHub's runner trims before it looks for {@code ::} */
    private static boolean isSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
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
