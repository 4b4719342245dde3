package io.github.pgadvisorylint.cli;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The JDBC URL {@code locks} connects to, from what a PostgreSQL user has at hand: a JDBC URL as is, a libpq
 * connection URI ({@code postgresql://user:password@host:port/database?sslmode=require}, also {@code postgres://};
 * PostgreSQL documentation, "Connection URIs", section 34.1.1.2), or, without either, libpq's environment
 * variables {@code PGHOST}, {@code PGPORT}, {@code PGUSER}, {@code PGDATABASE} and {@code PGSSLMODE} (section
 * 34.15), with libpq's defaults: {@code localhost}, 5432, the operating-system user, a database named as the
 * user. {@code PGPASSWORD} and {@code ~/.pgpass} are read later, as for a JDBC URL.
 */
final class ConnectionTarget {

    private static final Pattern PORT = Pattern.compile("\\d{1,5}");
    private static final Pattern COMMA = Pattern.compile(",");
    /** One host: a name, an IPv4 address, or an IPv6 address with or without brackets. */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+|\\[?[0-9A-Fa-f:.]+]?");
    /** A URI's host list: hosts with optional ports, separated by commas (empty: from the environment). */
    private static final Pattern HOST_LIST = Pattern.compile(
            "(([A-Za-z0-9._%-]+|\\[[0-9A-Fa-f:.]+])(:\\d{1,5})?(,([A-Za-z0-9._%-]+|\\[[0-9A-Fa-f:.]+])(:\\d{1,5})?)*)?");

    private static final Pattern AMPERSAND = Pattern.compile("&");

    private ConnectionTarget() {}

    /**
     * @param url    the {@code --url} value, or null when none was given
     * @param getenv the environment variables
     * @param osUser the operating-system user name, libpq's default role
     * @return a {@code jdbc:postgresql:} URL
     * @throws InputException for a URL of another scheme, a malformed URI, a bad {@code PGPORT}, or a
     *     {@code PGHOST} that names a Unix-domain socket directory (the JDBC driver connects over TCP only)
     */
    static String jdbcUrl(String url, UnaryOperator<String> getenv, String osUser) {
        if (url == null) {
            return fromEnvironment(getenv, osUser);
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return url;
        }
        String scheme = url.startsWith("postgresql://")
                ? "postgresql://"
                : url.startsWith("postgres://") ? "postgres://" : null;
        if (scheme == null) {
            throw new InputException("--url must be a PostgreSQL JDBC URL (jdbc:postgresql://HOST[:PORT]/DATABASE) or a"
                    + " connection URI (postgresql://HOST[:PORT]/DATABASE?user=ROLE, or with ROLE@ before HOST), not "
                    + UrlMask.mask(url));
        }
        return fromUri(url, url.substring(scheme.length()), getenv);
    }

    private static String fromUri(String url, String rest, UnaryOperator<String> getenv) {
        // the user-info ends at the last '@' after which a host list follows: a password may hold '/', '?' or
        // '@' unescaped (libpq wants them percent-encoded, users paste them as they are)
        int at = -1;
        for (int i = rest.lastIndexOf('@'); i >= 0; i = i == 0 ? -1 : rest.lastIndexOf('@', i - 1)) {
            if (HOST_LIST.matcher(hostPart(rest.substring(i + 1))).matches()) {
                at = i;
                break;
            }
        }
        String userInfo = at < 0 ? null : rest.substring(0, at);
        String afterUser = at < 0 ? rest : rest.substring(at + 1);
        String hosts = hostPart(afterUser);
        String tail = afterUser.substring(hosts.length());
        int q = tail.indexOf('?');
        String query = q < 0 ? "" : tail.substring(q + 1);
        String path = q < 0 ? tail : tail.substring(0, q);
        String database = path.startsWith("/") ? decode(path.substring(1), url) : "";
        if (!hosts.isEmpty() && !HOST_LIST.matcher(hosts).matches()) {
            throw new InputException("--url: not a host list in " + UrlMask.mask(url));
        }
        List<String> parameters = new ArrayList<>();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon), url);
            if (!user.isEmpty()) {
                parameters.add("user=" + encode(user));
            }
            if (colon >= 0) {
                parameters.add("password=" + encode(decode(userInfo.substring(colon + 1), url)));
            }
        }
        for (String p : AMPERSAND.split(query, -1)) {
            if (p.isEmpty()) {
                continue;
            }
            if (p.toLowerCase(Locale.ROOT).startsWith("host=")) {
                throw socketOrHostParameter(decode(p.substring(5), url));
            }
            parameters.add(p);
        }
        if (hosts.isEmpty()) {
            hosts = hostsAndPorts(getenv);
        }
        if (hosts.startsWith("%2F") || hosts.startsWith("%2f")) {
            throw socketOrHostParameter(decode(hosts, url));
        }
        return "jdbc:postgresql://" + hosts + "/" + encode(database)
                + (parameters.isEmpty() ? "" : "?" + String.join("&", parameters));
    }

    /** @return the leading host list of a URI's rest: up to the first '/' or '?', or all of it */
    private static String hostPart(String s) {
        int end = s.length();
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '/' || s.charAt(i) == '?') {
                end = i;
                break;
            }
        }
        return s.substring(0, end);
    }

    private static InputException socketOrHostParameter(String host) {
        return host.startsWith("/")
                ? new InputException("--url names a Unix-domain socket directory (" + host + "); locks connects"
                        + " over TCP: give a host name or address")
                : new InputException("--url: give the host before the database, not as a host= parameter");
    }

    private static String fromEnvironment(UnaryOperator<String> getenv, String osUser) {
        String user = nonEmpty(getenv.apply("PGUSER"), osUser);
        String database = nonEmpty(getenv.apply("PGDATABASE"), user);
        List<String> parameters = new ArrayList<>();
        if (user != null) {
            parameters.add("user=" + encode(user));
        }
        String sslmode = getenv.apply("PGSSLMODE");
        if (sslmode != null && !sslmode.isEmpty()) {
            parameters.add("sslmode=" + encode(sslmode));
        }
        return "jdbc:postgresql://" + hostsAndPorts(getenv) + "/" + encode(database == null ? "" : database)
                + (parameters.isEmpty() ? "" : "?" + String.join("&", parameters));
    }

    /**
     * {@code PGHOST} and {@code PGPORT} as libpq reads them: comma lists of hosts and ports, one port for
     * every host, or one port per host.
     */
    private static String hostsAndPorts(UnaryOperator<String> getenv) {
        List<String> hosts = List.of(COMMA.split(nonEmpty(getenv.apply("PGHOST"), "localhost"), -1));
        List<String> ports = List.of(COMMA.split(nonEmpty(getenv.apply("PGPORT"), "5432"), -1));
        for (String host : hosts) {
            if (host.startsWith("/")) {
                throw new InputException("PGHOST=" + getenv.apply("PGHOST") + " names a Unix-domain socket"
                        + " directory; locks connects over TCP: set PGHOST to a host name or address, or give --url");
            }
            if (!HOST.matcher(host).matches()) {
                throw new InputException(
                        "PGHOST must be host names or addresses, separated by commas, not " + getenv.apply("PGHOST"));
            }
        }
        for (String port : ports) {
            if (!PORT.matcher(port).matches() || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
                throw new InputException("PGPORT must be port numbers from 1 to 65535, separated by commas, not "
                        + getenv.apply("PGPORT"));
            }
        }
        if (ports.size() != 1 && ports.size() != hosts.size()) {
            throw new InputException("PGPORT must give one port, or one per host of PGHOST (" + hosts.size() + ")");
        }
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            String host = hosts.get(i).contains(":") && !hosts.get(i).startsWith("[")
                    ? "[" + hosts.get(i) + "]" // an IPv6 address
                    : hosts.get(i);
            pairs.add(host + ":" + ports.get(ports.size() == 1 ? 0 : i));
        }
        return String.join(",", pairs);
    }

    private static String nonEmpty(String value, String otherwise) {
        return value == null || value.isEmpty() ? otherwise : value;
    }

    private static String decode(String s, String url) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new InputException("--url: a bad percent-escape in " + UrlMask.mask(url), e);
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
