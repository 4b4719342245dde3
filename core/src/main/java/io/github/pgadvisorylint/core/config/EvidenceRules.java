package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.model.PoolingMode;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The evidence tests shared by every format: PostgreSQL URLs (inferred), {@code POOL_MODE}-style
 * environment variables (declared) and {@code prepareThreshold=0} driver properties (inferred).
 */
final class EvidenceRules {

    /** Host names of the machine itself, as a connection URL writes them. */
    private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private static final Pattern URL_START = Pattern.compile("(?i)jdbc:postgresql:|postgres(?:ql)?://");
    private static final Pattern PREFIX_JDBC = Pattern.compile("(?i)jdbc:[a-z0-9:]*$");
    private static final Pattern PREFIX_R2DBC = Pattern.compile("(?i)r2dbc:[a-z0-9:]*$");

    private EvidenceRules() {}

    /** @return {@code s} lower-cased without {@code _}, {@code -} and {@code .}: {@code pool_mode} and {@code poolMode} both give {@code poolmode} */
    static String normalizedKey(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '_' && c != '-' && c != '.') {
                b.append(Character.toLowerCase(c));
            }
        }
        return b.toString();
    }

    /** @return whether {@code name} is an environment variable that sets PgBouncer's pool mode in common images (case-sensitive, as environment names are) */
    static boolean isPoolModeVariable(String name) {
        String n = name.strip();
        return n.equals("POOL_MODE") || n.equals("PGBOUNCER_POOL_MODE");
    }

    /**
     * Declared evidence from {@code NAME=value} when NAME is {@code POOL_MODE} or {@code PGBOUNCER_POOL_MODE}.
     *
     * @param where ends the description, e.g. {@code in a .env file}
     * @return whether NAME was such a variable (whatever its value)
     */
    static boolean envVariable(String name, MappedText value, String where, EvidenceSink sink) {
        if (!isPoolModeVariable(name)) {
            return false;
        }
        modeValue(value, name.strip() + "=%s " + where, sink);
        return true;
    }

    /**
     * Declared evidence when {@code value} (placeholders resolved, quotes and blanks removed) names a mode.
     *
     * @param format the description, {@code %s} standing for the mode's name
     */
    static void modeValue(MappedText value, String format, EvidenceSink sink) {
        MappedText v = value.resolvePlaceholders().strip().unquote().strip();
        Optional<PoolingMode> mode = PoolingMode.parse(v.text());
        if (mode.isPresent() && v.length() > 0) {
            sink.declared(
                    mode.get(),
                    v.start(0),
                    v.end(v.length()),
                    String.format(Locale.ROOT, format, mode.get().configName()));
        }
    }

    /** Inferred evidence from a driver property {@code prepareThreshold} (any prefix) whose value is 0. */
    static void prepareThresholdProperty(String key, MappedText value, EvidenceSink sink) {
        String k = key.strip();
        int dot = Math.max(k.lastIndexOf('.'), k.lastIndexOf('['));
        String last = k.substring(dot + 1).replace("]", "");
        if (!normalizedKey(last).equals("preparethreshold")) {
            return;
        }
        MappedText v = value.resolvePlaceholders().strip().unquote().strip();
        if (v.text().equals("0")) {
            sink.inferred(
                    v.start(0),
                    v.end(1),
                    "prepareThreshold=0 as a driver property, a setting used behind" + " transaction poolers");
        }
    }

    static boolean containsIgnoreCase(String s, String lowerNeedle) {
        int n = lowerNeedle.length();
        for (int i = 0; i + n <= s.length(); i++) {
            if (s.regionMatches(true, i, lowerNeedle, 0, n)) {
                return true;
            }
        }
        return false;
    }

    /** Inferred evidence for each PostgreSQL URL in {@code value} that points at a pooler. */
    static void urls(MappedText value, EvidenceSink sink) {
        String s = value.text();
        if (!containsIgnoreCase(s, "postgres")) {
            return;
        }
        Matcher m = URL_START.matcher(s);
        int from = 0;
        while (from < s.length() && m.find(from)) {
            int start = m.start();
            // keep the "//" of postgres:// so that url() sees an authority, as after jdbc:postgresql:
            int afterScheme = isJdbc(m) ? m.end() : m.end() - 2;
            from = m.end();
            if (start > 0 && Character.isLetterOrDigit(s.charAt(start - 1)) && !isJdbc(m)) {
                continue;
            }
            int end = urlEnd(value, afterScheme);
            String kind = urlKind(s, start, m);
            url(value.sub(afterScheme, end).resolvePlaceholders(), kind, sink);
            from = Math.max(end, afterScheme);
        }
    }

    private static boolean isJdbc(Matcher m) {
        return m.group().regionMatches(true, 0, "jdbc:", 0, 5);
    }

    private static String urlKind(String s, int start, Matcher m) {
        if (isJdbc(m)) {
            return "JDBC URL";
        }
        String before = s.substring(Math.max(0, start - 24), start);
        if (PREFIX_JDBC.matcher(before).find()) {
            return "JDBC URL";
        }
        if (PREFIX_R2DBC.matcher(before).find()) {
            return "R2DBC URL";
        }
        return "PostgreSQL URL";
    }

    /** @return the index just past the URL starting its scheme-specific part at {@code from} */
    private static int urlEnd(MappedText t, int from) {
        int i = from;
        int n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (c == '$' && i + 1 < n && t.charAt(i + 1) == '{') {
                int close = t.matchingBrace(i + 1, n);
                if (close < 0) {
                    return n;
                }
                i = close + 1;
                continue;
            }
            if (Character.isWhitespace(c)
                    || c == '"'
                    || c == '\''
                    || c == '<'
                    || c == '>'
                    || c == '`'
                    || c == '}'
                    || c == ')'
                    || c == '\\') {
                return i;
            }
            i++;
        }
        return n;
    }

    /** Checks one URL's hosts, ports and parameters; {@code r} starts after the scheme ({@code //host...} or a database). */
    private static void url(MappedText r, String kind, EvidenceSink sink) {
        String s = r.text();
        int n = s.length();
        int pathStart = n;
        boolean serverPort = false;
        if (s.startsWith("//")) {
            int a = 2;
            int aEnd = a;
            boolean bracket = false;
            while (aEnd < n) {
                char c = s.charAt(aEnd);
                if (c == '[') {
                    bracket = true;
                } else if (c == ']') {
                    bracket = false;
                } else if (!bracket && (c == '/' || c == '?' || c == '#')) {
                    break;
                }
                aEnd++;
            }
            pathStart = aEnd;
            int at = s.lastIndexOf('@', aEnd - 1);
            if (at >= a) {
                a = at + 1;
            }
            int[] hostHit = null;
            int[] portHit = null;
            String port = null;
            int seg = a;
            while (seg <= aEnd && (portHit == null)) {
                int comma = s.indexOf(',', seg);
                int segEnd = comma < 0 || comma > aEnd ? aEnd : comma;
                int hs = seg;
                int he = segEnd;
                int ps = -1;
                if (hs < segEnd && s.charAt(hs) == '[') {
                    int close = s.indexOf(']', hs);
                    he = close < 0 || close > segEnd ? segEnd : close + 1;
                    if (he < segEnd && s.charAt(he) == ':') {
                        ps = he + 1;
                    }
                } else {
                    int colon = s.lastIndexOf(':', segEnd - 1);
                    if (colon >= hs) {
                        he = colon;
                        ps = colon + 1;
                    }
                }
                String digits = null;
                int[] h = trimmed(s, hs, he);
                String host = s.substring(h[0], h[1]).toLowerCase(Locale.ROOT);
                if (ps >= 0) {
                    int[] p = trimmed(s, ps, segEnd);
                    digits = s.substring(p[0], p[1]);
                    // Supabase's pooler is a remote service: 6543 on this machine is a tunnel or a local server
                    if (digits.equals("6432") || (digits.equals("6543") && !LOCAL_HOSTS.contains(host))) {
                        portHit = p;
                        port = digits;
                    }
                }
                serverPort |= "5432".equals(digits) && LOCAL_HOSTS.contains(host);
                if (hostHit == null && h[1] > h[0] && (host.contains("pgbouncer") || host.contains("-pooler"))) {
                    hostHit = h;
                }
                if (comma < 0 || comma >= aEnd) {
                    break;
                }
                seg = comma + 1;
            }
            if (portHit != null) {
                String why = port.equals("6432") ? "PgBouncer's default port" : "Supabase's transaction pooler port";
                sink.inferred(r.start(portHit[0]), r.end(portHit[1]), kind + " on port " + port + ", " + why);
                return;
            }
            if (hostHit != null) {
                String host = s.substring(hostHit[0], hostHit[1]).replace(MappedText.UNKNOWN, '…');
                sink.inferred(
                        r.start(hostHit[0]),
                        r.end(hostHit[1]),
                        kind + " to host " + host + ", named as a connection pooler");
                return;
            }
        }
        int q = s.indexOf('?', Math.min(pathStart, n));
        if (q < 0 || serverPort) {
            // a URL to PostgreSQL's own port 5432 on this machine is a developer's server, whatever prepareThreshold
            // says
            return;
        }
        int hash = s.indexOf('#', q);
        int qEnd = hash < 0 ? n : hash;
        int p = q + 1;
        while (p < qEnd) {
            int amp = s.indexOf('&', p);
            int pe = amp < 0 || amp > qEnd ? qEnd : amp;
            int ps = s.startsWith("amp;", p) ? p + 4 : p;
            int eq = s.indexOf('=', ps);
            if (eq > 0
                    && eq < pe
                    && s.substring(ps, eq).strip().equalsIgnoreCase("prepareThreshold")
                    && s.substring(eq + 1, pe).strip().equals("0")) {
                sink.inferred(
                        r.start(ps),
                        r.end(pe),
                        kind + " with prepareThreshold=0, a setting used behind" + " transaction poolers");
                return;
            }
            p = pe + 1;
        }
    }

    private static int[] trimmed(String s, int from, int to) {
        int a = from;
        int b = Math.max(from, to);
        while (a < b && Character.isWhitespace(s.charAt(a))) {
            a++;
        }
        while (b > a && Character.isWhitespace(s.charAt(b - 1))) {
            b--;
        }
        return new int[] {a, b};
    }
}
