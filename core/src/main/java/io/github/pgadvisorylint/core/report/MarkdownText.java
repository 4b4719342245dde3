package io.github.pgadvisorylint.core.report;

/**
 * The one escaper for GitHub-flavoured Markdown (the {@code markdown} formats of {@code scan}, {@code keys}
 * and {@code locks}, read as a job summary or a pull-request comment): text a scanned repository or a
 * server controls, put in a table cell, a heading or a list item, stays text. It cannot end the cell
 * or the row, start a heading, a link, an image or raw HTML, or decode an entity.
 * <p>
 * {@link #text} backslash-escapes {@code \ ` * _ ~ [ ] < > & | # !} (CommonMark 0.31, "Backslash
 * escapes": any ASCII punctuation may be escaped, and an escaped character is never markup; GFM's
 * table extension reads {@code \|} as a pipe inside the cell, even inside a code span). CR, LF and tab
 * become a space (a CR LF one space): a table row is one line. Other control characters, and the
 * Unicode line separators and bidirectional controls that {@link TerminalText} escapes, are shown as
 * {@code \}{@code uXXXX}. Bare URLs ({@code https://...}, {@code www.}) may still be turned into links by
 * GFM's extended autolinks; such a link shows its own address, and GFM makes no {@code javascript:}
 * autolink.
 */
public final class MarkdownText {

    private static final String ESCAPED = "\\`*_~[]<>&|#!";

    private MarkdownText() {}

    /**
     * @param s text for a table cell, a heading or a list item
     * @return the text with Markdown and HTML syntax escaped, on one line
     */
    public static String text(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                continue; // CR LF: one space, written for the LF
            }
            if (c == '\r' || c == '\n' || c == '\t') {
                sb.append(' ');
            } else if (TerminalText.needsEscape(c)) {
                sb.append('\\'); // the visible escape's backslash, itself escaped
                TerminalText.appendVisible(sb, c);
            } else {
                if (ESCAPED.indexOf(c) >= 0) {
                    sb.append('\\');
                }
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * A code span for a table cell: the fence is one backtick longer than the longest run of backticks
     * in the text (CommonMark, "Code spans"), padded with a space on both sides when the text starts or
     * ends with a backtick or a space; {@code |} is written {@code \|}; line breaks and control
     * characters as in {@link #text}.
     *
     * @param s text shown literally, such as a path or a call
     * @return the code span
     */
    public static String code(String s) {
        StringBuilder body = new StringBuilder(s.length() + 8);
        int run = 0;
        int longest = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            run = c == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
            if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                continue;
            }
            if (c == '\r' || c == '\n' || c == '\t') {
                body.append(' ');
            } else if (TerminalText.needsEscape(c)) {
                TerminalText.appendVisible(body, c);
            } else if (c == '|') {
                body.append("\\|");
            } else {
                body.append(c);
            }
        }
        String fence = "`".repeat(longest + 1);
        boolean pad = body.length() > 0
                && (body.charAt(0) == '`'
                        || body.charAt(body.length() - 1) == '`'
                        || body.charAt(0) == ' '
                        || body.charAt(body.length() - 1) == ' ');
        return pad ? fence + " " + body + " " + fence : fence + body + fence;
    }
}
