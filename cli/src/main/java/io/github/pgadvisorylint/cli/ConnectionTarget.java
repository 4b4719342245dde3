package io.github.pgadvisorylint.cli;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
        int q = rest.indexOf('?');
        String query = q < 0 ? "" : rest.substring(q + 1);
        String beforeQuery = q < 0 ? rest : rest.substring(0, q);
        int slash = beforeQuery.indexOf('/');
        String authority = slash < 0 ? beforeQuery : beforeQuery.substring(0, slash);
        String database = slash < 0 ? "" : decode(beforeQuery.substring(slash + 1), url);
        int at = authority.lastIndexOf('@');
        String userInfo = at < 0 ? null : authority.substring(0, at);
        String hosts = at < 0 ? authority : authority.substring(at + 1);
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
            if (!p.isEmpty()) {
                parameters.add(p);
            }
        }
        if (hosts.isEmpty()) {
            hosts = host(getenv) + ":" + port(getenv);
        }
        return "jdbc:postgresql://" + hosts + "/" + encode(database)
                + (parameters.isEmpty() ? "" : "?" + String.join("&", parameters));
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
        return "jdbc:postgresql://" + host(getenv) + ":" + port(getenv) + "/" + encode(database == null ? "" : database)
                + (parameters.isEmpty() ? "" : "?" + String.join("&", parameters));
    }

    private static String host(UnaryOperator<String> getenv) {
        String host = nonEmpty(getenv.apply("PGHOST"), "localhost");
        if (host.startsWith("/")) {
            throw new InputException("PGHOST=" + host + " names a Unix-domain socket directory; locks connects over"
                    + " TCP: set PGHOST to a host name or address, or give --url");
        }
        return host;
    }

    private static String port(UnaryOperator<String> getenv) {
        String port = nonEmpty(getenv.apply("PGPORT"), "5432");
        if (!PORT.matcher(port).matches()) {
            throw new InputException("PGPORT must be a port number, not " + port);
        }
        return port;
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
