package io.github.pgadvisorylint.core.sql;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the {@code lock_timeout} / {@code statement_timeout} settings written in SQL text, for
 * blocking-lock-without-timeout (RULES.md; F12: {@code lock_timeout} cancels a waiting advisory-lock
 * call with SQLSTATE 55P03; PostgreSQL docs "SET", "set_config"). Recognised:
 * {@code SET [SESSION|LOCAL] lock_timeout = '5s'} (also {@code TO}), {@code set_config('lock_timeout',
 * '5s', is_local)}; a later {@code RESET lock_timeout}, {@code RESET ALL}, or a value of {@code 0} /
 * {@code DEFAULT} turns it off; a local setting ends at the next {@code COMMIT}/{@code ROLLBACK}.
 * {@code --} comments are ignored. Stateless.
 */
public final class SqlTimeouts {

    private static final Pattern SETTING = Pattern.compile(
            "(?is)\\bset\\s+(local\\s+|session\\s+)?(lock_timeout|statement_timeout)\\s*(?:=|\\bto\\b)\\s*('?)([^;'\\s)]*)"
                    + "|\\bset_config\\s*\\(\\s*'(lock_timeout|statement_timeout)'\\s*,\\s*'([^']*)'\\s*,\\s*(\\w+)"
                    + "|\\breset\\s+(lock_timeout|statement_timeout|all)\\b");

    private SqlTimeouts() {}

    /**
     * A timeout setting found in SQL text.
     *
     * @param start   offset of the setting in the text
     * @param end     offset just past it
     * @param setting {@code lock_timeout} or {@code statement_timeout}
     * @param value   the value as written, e.g. {@code 5s}
     * @param local   true for {@code SET LOCAL} and {@code set_config(.., true)}: it ends with the transaction
     */
    public record Setting(int start, int end, String setting, String value, boolean local) {}

    /**
     * @param text SQL text
     * @param end  offset before which to look
     * @return the last setting before {@code end} that leaves a timeout on, or empty (none, or reset / set to 0 last)
     */
    public static Optional<Setting> lastBefore(String text, int end) {
        String clean = withoutLineComments(text.substring(0, Math.max(0, Math.min(end, text.length()))));
        Matcher m = SETTING.matcher(clean);
        Setting last = null;
        while (m.find()) {
            if (m.group(8) != null) {
                last = null;
            } else if (m.group(2) != null) {
                last = enabled(m.group(4))
                        ? new Setting(
                                m.start(),
                                m.end(),
                                m.group(2).toLowerCase(Locale.ROOT),
                                m.group(4),
                                m.group(1) != null && m.group(1).trim().equalsIgnoreCase("local"))
                        : null;
            } else {
                last = enabled(m.group(6))
                        ? new Setting(
                                m.start(),
                                m.end(),
                                m.group(5).toLowerCase(Locale.ROOT),
                                m.group(6),
                                m.group(7).equalsIgnoreCase("true"))
                        : null;
            }
        }
        return Optional.ofNullable(last);
    }

    /**
     * The timeout in force at a call in a SQL string or script: the last setting before it, unless it
     * was local and a {@code COMMIT}/{@code ROLLBACK} statement ended its transaction in between.
     *
     * @param text       the SQL text
     * @param statements its top-level statements
     * @param callOffset the offset of the lock call
     * @return the setting in force, or empty
     */
    public static Optional<Setting> inForce(String text, List<SqlStatement> statements, int callOffset) {
        Optional<Setting> found = lastBefore(text, callOffset);
        if (found.isPresent() && found.get().local()) {
            for (SqlStatement s : statements) {
                if ((s.kind() == StatementKind.COMMIT || s.kind() == StatementKind.ROLLBACK)
                        && s.start() > found.get().start()
                        && s.start() < callOffset) {
                    return Optional.empty();
                }
            }
        }
        return found;
    }

    /**
     * @param text SQL text executed on its own (e.g. by a Java call before the lock)
     * @return true when it leaves a lock or statement timeout on
     */
    public static boolean setsTimeout(String text) {
        return text != null && lastBefore(text, text.length()).isPresent();
    }

    /** @return true when the text of a setting is a real timeout: not {@code 0}, {@code 0s}, {@code DEFAULT} or empty */
    static boolean enabled(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return !v.isEmpty() && !v.equals("default") && !v.matches("0+\\s*[a-z]*");
    }

    private static String withoutLineComments(String s) {
        StringBuilder b = new StringBuilder(s);
        int i = s.indexOf("--");
        while (i >= 0) {
            int nl = s.indexOf('\n', i);
            int stop = nl < 0 ? s.length() : nl;
            for (int k = i; k < stop; k++) {
                b.setCharAt(k, ' ');
            }
            i = nl < 0 ? -1 : s.indexOf("--", nl);
        }
        return b.toString();
    }
}
