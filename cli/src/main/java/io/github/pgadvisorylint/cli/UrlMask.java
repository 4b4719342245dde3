package io.github.pgadvisorylint.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hides the credentials of a database URL wherever one is shown (messages on standard error, the {@code locks}
 * report's target): the password of a user-info part, {@code jdbc:postgresql://user:****@host/db}, also in the
 * multi-host form {@code jdbc:postgresql://u:****@h1:5432,h2:5433/db}, and the value of every query parameter
 * whose name ends in {@code password} ({@code ?password=****}, {@code sslpassword=****}).
 *
 * <p>The user-info part ends at the last {@code @} before the first {@code ?} or the last {@code @} before the
 * first {@code =}, whichever comes later (so a password may hold a {@code ?} or a {@code =}, not both). What
 * follows the first {@code :} after {@code //}, up to that {@code @}, is masked: a password holding {@code :},
 * {@code @}, {@code /} or {@code ,} is masked whole, at the cost of sometimes masking more than the password. PgJDBC itself reads no
 * user-info part (it takes {@code user} and {@code password} as parameters), so such a URL is masked, never used
 * for its credentials.
 */
final class UrlMask {

    /** What a masked secret shows. */
    static final String MASK = "****";

    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)(password=)[^&]*");

    /**
     * A database URL inside other text: a JDBC URL, or a libpq URI, up to the next white space, without a closing
     * quote (group 1).
     */
    private static final Pattern URL_IN_TEXT =
            Pattern.compile("(?i)((?:jdbc:postgresql:|postgres(?:ql)?://)\\S*?)(['\"]?(?:\\s|$))");

    private UrlMask() {}

    /**
     * @param url a database URL, or any text
     * @return it with the user-info password and password parameters replaced by {@value #MASK}
     */
    static String mask(String url) {
        String s = url;
        int[] span = userinfoPassword(s);
        if (span != null) {
            s = s.substring(0, span[0]) + MASK + s.substring(span[1]);
        }
        return PASSWORD_PARAMETER.matcher(s).replaceAll("$1" + Matcher.quoteReplacement(MASK));
    }

    /**
     * @param text a message that may quote database URLs (an unmatched argument, a path that does not exist)
     * @return the text with every URL in it masked as {@link #mask} does
     */
    static String maskIn(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = URL_IN_TEXT.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(mask(m.group(1)) + m.group(2)));
        }
        return m.appendTail(sb).toString();
    }

    /**
     * @param url a database URL
     * @return the password of its user-info part, or null when it has none
     */
    static String password(String url) {
        int[] span = userinfoPassword(url);
        return span == null || span[0] == span[1] ? null : url.substring(span[0], span[1]);
    }

    /** @return the index of the last {@code @} before {@code end}, or of the last one when {@code end} is -1 */
    private static int lastAtBefore(String url, int end) {
        return end < 0 ? url.lastIndexOf('@') : url.lastIndexOf('@', end - 1);
    }

    /** @return the start (after the {@code :}) and end (the {@code @}) of the user-info password, or null */
    private static int[] userinfoPassword(String url) {
        int slashes = url.indexOf("//");
        if (slashes < 0) {
            return null;
        }
        int start = slashes + 2;
        int at = Math.max(lastAtBefore(url, url.indexOf('?', start)), lastAtBefore(url, url.indexOf('=', start)));
        if (at < start) {
            return null;
        }
        int colon = url.indexOf(':', start);
        if (colon < 0 || colon > at) {
            return null; // a user name without a password
        }
        return new int[] {colon + 1, at};
    }
}
