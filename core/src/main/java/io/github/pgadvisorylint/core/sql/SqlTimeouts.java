package io.github.pgadvisorylint.core.sql;

import java.util.ArrayList;
import java.util.Arrays;
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
        String prefix = text.substring(0, Math.max(0, Math.min(end, text.length())));
        return timeline(prefix, List.of()).lastBefore(prefix.length());
    }

    /**
     * Reads every timeout setting, reset and transaction end of a text once, in time linear in its
     * length, so that the setting in force at each of its calls is a binary search.
     *
     * @param text       the SQL text
     * @param statements its top-level statements (for {@code COMMIT}/{@code ROLLBACK}); may be empty
     * @return the timeline; never null
     */
    public static Timeline timeline(String text, List<SqlStatement> statements) {
        Matcher m = SETTING.matcher(withoutLineComments(text));
        List<Integer> ends = new ArrayList<>();
        List<Setting> states = new ArrayList<>();
        while (m.find()) {
            Setting state;
            if (m.group(8) != null) {
                state = null;
            } else if (m.group(2) != null) {
                state = enabled(m.group(4))
                        ? new Setting(
                                m.start(),
                                m.end(),
                                m.group(2).toLowerCase(Locale.ROOT),
                                m.group(4),
                                m.group(1) != null && m.group(1).trim().equalsIgnoreCase("local"))
                        : null;
            } else {
                state = enabled(m.group(6))
                        ? new Setting(
                                m.start(),
                                m.end(),
                                m.group(5).toLowerCase(Locale.ROOT),
                                m.group(6),
                                m.group(7).equalsIgnoreCase("true"))
                        : null;
            }
            ends.add(m.end());
            states.add(state);
        }
        int[] transactionEnds = statements.stream()
                .filter(st -> st.kind() == StatementKind.COMMIT || st.kind() == StatementKind.ROLLBACK)
                .mapToInt(SqlStatement::start)
                .sorted()
                .toArray();
        return new Timeline(ends.stream().mapToInt(Integer::intValue).toArray(), states, transactionEnds);
    }

    /**
     * The timeout settings of one text in order: entry {@code i} is the state left by the setting or
     * reset that ends at offset {@code ends[i]} (null: no timeout), plus the start offsets of the
     * text's {@code COMMIT}/{@code ROLLBACK} statements. Immutable.
     */
    public static final class Timeline {
        private final int[] ends;
        private final List<Setting> states;
        private final int[] transactionEnds;

        private Timeline(int[] ends, List<Setting> states, int[] transactionEnds) {
            this.ends = ends;
            this.states = states;
            this.transactionEnds = transactionEnds;
        }

        /**
         * @param end an offset of the text
         * @return the state left by the last setting or reset that ends at or before {@code end}, if it
         *     leaves a timeout on
         */
        public Optional<Setting> lastBefore(int end) {
            int i = Arrays.binarySearch(ends, end);
            int last = i >= 0 ? lastAt(i) : -i - 2;
            return last < 0 ? Optional.empty() : Optional.ofNullable(states.get(last));
        }

        /**
         * @param callOffset the offset of a lock call in the text
         * @return the setting in force there: {@link #lastBefore}, unless it was local and a
         *     {@code COMMIT}/{@code ROLLBACK} statement starts between it and the call
         */
        public Optional<Setting> inForce(int callOffset) {
            Optional<Setting> found = lastBefore(callOffset);
            if (found.isPresent() && found.get().local()) {
                int i = Arrays.binarySearch(transactionEnds, found.get().start() + 1);
                int next = i >= 0 ? i : -i - 1;
                if (next < transactionEnds.length && transactionEnds[next] < callOffset) {
                    return Optional.empty();
                }
            }
            return found;
        }

        private int lastAt(int i) {
            int j = i;
            while (j + 1 < ends.length && ends[j + 1] == ends[i]) {
                j++;
            }
            return j;
        }
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
