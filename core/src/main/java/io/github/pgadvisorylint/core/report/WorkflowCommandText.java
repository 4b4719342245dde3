package io.github.pgadvisorylint.core.report;

/**
 * The one escaper for GitHub Actions workflow commands ({@code --format github}): text a scanned
 * repository controls, as the message or a property value of {@code ::error file=...,title=...::message},
 * is read back by the runner as exactly that text and cannot end the command, start another or set
 * another property.
 * <p>
 * As GitHub documents ("Workflow commands for GitHub Actions", and {@code escapeData} and
 * {@code escapeProperty} of {@code @actions/core}; the runner's {@code ActionCommand} undoes exactly
 * these): in the message {@code %}, CR and LF become {@code %25}, {@code %0D} and {@code %0A}; in a
 * property value {@code :} and {@code ,} also become {@code %3A} and {@code %2C}. Beyond GitHub's
 * rules, the other control characters (ESC, C1, the Unicode line separators and bidirectional
 * controls that {@link TerminalText} escapes) are shown as {@code \}{@code uXXXX}, so an annotation
 * or a log line never carries them raw.
 */
public final class WorkflowCommandText {

    private WorkflowCommandText() {}

    /**
     * @param s a message
     * @return it escaped for the data part of a workflow command, after the second {@code ::}
     */
    public static String data(String s) {
        return escape(s, false);
    }

    /**
     * @param s a property value such as a path or a title
     * @return it escaped for a property value of a workflow command
     */
    public static String property(String s) {
        return escape(s, true);
    }

    private static String escape(String s, boolean property) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '%' -> sb.append("%25");
                case '\r' -> sb.append("%0D");
                case '\n' -> sb.append("%0A");
                case ':' -> sb.append(property ? "%3A" : ":");
                case ',' -> sb.append(property ? "%2C" : ",");
                default -> {
                    if (TerminalText.needsEscape(c)) {
                        TerminalText.appendVisible(sb, c);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
