package io.github.pgadvisorylint.cli;

import java.net.SocketTimeoutException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.postgresql.Driver;

/**
 * Reads the advisory locks held and awaited now on one PostgreSQL database: {@code pg_locks} rows with
 * {@code locktype = 'advisory'} of the connected database, joined with {@code pg_stat_activity} and
 * {@code pg_blocking_pids}, in one read-only transaction ({@code BEGIN READ ONLY}, rolled back).
 *
 * <p>Credentials: a password in the URL ({@code ?password=}) wins; else the environment variable
 * {@code PGPASSWORD}; else the PostgreSQL JDBC driver reads {@code ~/.pgpass} (or the file named by
 * {@code PGPASSFILE}) itself. A password is never printed: messages name host, port and database, with any
 * user-info password masked ({@link UrlMask}), and every password in use is masked in the driver's messages.
 *
 * <p>Bounded: every wait on the server is limited by the timeout {@code T} ({@code locks --timeout}): connecting
 * (PgJDBC {@code connectTimeout}) and logging in ({@code loginTimeout}) T each; each query by
 * {@code statement_timeout} (T) and, should the server not cancel it, by the driver's
 * {@link Statement#setQueryTimeout} (T + 1 s); every read from the socket by {@code socketTimeout}
 * (T + {@value #SOCKET_MARGIN_SECONDS} s, so that the server can report its own statement timeout first). A server that accepts the connection and never answers is a {@link Failure} with exit code 4.
 *
 * <p>Hidden sessions: {@code pg_stat_activity} shows {@value #INSUFFICIENT_PRIVILEGE} as the query of a session
 * the role may not see (PostgreSQL's {@code pgstatfuncs.c}: unless the role has the privileges of
 * {@code pg_read_all_stats}, before PostgreSQL 15 is a member of it, or has the privileges of the session's role;
 * a superuser has all). A session counts as hidden only when that text shows <em>and</em> the role lacks those
 * privileges ({@code pg_has_role}): a session whose real query text is {@value #INSUFFICIENT_PRIVILEGE} is not.
 */
final class LiveLocks {

    /** The text {@code pg_stat_activity.query} shows for another role's session without {@code pg_read_all_stats}. */
    static final String INSUFFICIENT_PRIVILEGE = "<insufficient privilege>";

    /**
     * A session holding or waiting for an advisory lock.
     *
     * @param pid         its backend process id; 0 for a prepared transaction (no backend)
     * @param application {@code application_name}; null when hidden or unset
     * @param user        its role; null when unknown
     * @param state       {@code active}, {@code idle in transaction}, ...; null when hidden from this role
     * @param stateSince  when the state began; null when hidden
     * @param visible     false when this role may not see the session's activity ({@code <insufficient privilege>})
     * @param blockedBy   the pids it waits for ({@code pg_blocking_pids}), empty when it waits for nothing
     * @param client      the client's address ({@code client_addr}, e.g. {@code 10.0.3.7}: which pod or host holds
     *                    the key); null for a Unix-domain socket, a prepared transaction, or when hidden
     * @param connectedAt when the session began ({@code backend_start}); null when hidden
     * @param query       its last or current statement ({@code query}), on one line; null when hidden or empty
     */
    record Session(
            int pid,
            String application,
            String user,
            String state,
            OffsetDateTime stateSince,
            boolean visible,
            List<Integer> blockedBy,
            String client,
            OffsetDateTime connectedAt,
            String query) {
        Session {
            blockedBy = List.copyOf(blockedBy);
        }
    }

    /**
     * One {@code pg_locks} row.
     *
     * @param pid          the session's pid (0 for a prepared transaction)
     * @param classid      the {@code classid} column
     * @param objid        the {@code objid} column
     * @param objsubid     1 for a {@code bigint} key, 2 for two {@code int}s
     * @param shared       true for {@code ShareLock}, false for {@code ExclusiveLock}
     * @param granted      true when held, false when awaited
     * @param waitingSince when the wait began ({@code waitstart}, PostgreSQL 14+); null when held or unknown
     */
    record Lock(
            int pid,
            long classid,
            long objid,
            int objsubid,
            boolean shared,
            boolean granted,
            OffsetDateTime waitingSince) {}

    /**
     * What the server showed.
     *
     * @param target        {@code host:port/database}, without credentials
     * @param serverVersion e.g. {@code 17.7}
     * @param role          the role the command connected as
     * @param takenAt       the server's {@code now()}
     * @param locks         the advisory locks, held first, then by pid and key
     * @param sessions      by pid, the sessions of {@link #locks}
     */
    record Snapshot(
            String target,
            String serverVersion,
            String role,
            OffsetDateTime takenAt,
            List<Lock> locks,
            Map<Integer, Session> sessions) {
        Snapshot {
            locks = List.copyOf(locks);
            sessions = Map.copyOf(sessions);
        }

        /** @return how many sessions with locks hide their activity from this role */
        long hiddenSessions() {
            return sessions.values().stream().filter(s -> !s.visible()).count();
        }
    }

    /** A problem reaching or reading the server, with the exit code that says which. */
    static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int exitCode;

        Failure(String message, int exitCode, Throwable cause) {
            super(message, cause);
            this.exitCode = exitCode;
        }

        /** @return {@link LocksCommand#EXIT_UNREACHABLE} or {@link LocksCommand#EXIT_LOGIN_REFUSED} */
        int exitCode() {
            return exitCode;
        }
    }

    /** The default of {@code locks --timeout}, seconds. */
    static final int DEFAULT_TIMEOUT_SECONDS = 10;

    /** How much longer than the timeout a read from the socket may wait, seconds. */
    static final int SOCKET_MARGIN_SECONDS = 5;

    /** Whether the connected role sees every session's activity: a superuser, or pg_read_all_stats's privileges. */
    private static final String SEES_ALL_QUERY = """
            SELECT current_setting('server_version'), current_setting('server_version_num')::int, current_user, now(),
                   COALESCE((SELECT rolsuper FROM pg_roles WHERE rolname = current_user), false)
                   OR EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = 'pg_read_all_stats'
                                AND pg_has_role(current_user, r.oid,
                                    CASE WHEN current_setting('server_version_num')::int >= 150000
                                         THEN 'USAGE' ELSE 'MEMBER' END))""";

    private static final String LOCKS_QUERY = """
            SELECT l.pid, l.classid::bigint, l.objid::bigint, l.objsubid::int, l.mode, l.granted, %s AS waitstart,
                   a.application_name, a.usename, a.state, a.state_change,
                   COALESCE(a.query = '<insufficient privilege>'
                            AND NOT (%s OR COALESCE(pg_has_role(a.usesysid, 'USAGE'), false)), false) AS hidden,
                   CASE WHEN l.pid IS NULL OR l.granted THEN '{}'::int[] ELSE pg_blocking_pids(l.pid) END AS blocked_by,
                   host(a.client_addr), a.backend_start, a.query
              FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.locktype = 'advisory'
               AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
             ORDER BY l.granted DESC, l.pid, l.objsubid, l.classid, l.objid, l.mode""";

    /**
     * PgJDBC's own logger, silenced: its warnings go to the console through java.util.logging and quote
     * the URL as given (PgJDBC 42's {@code Driver.parseURL} logs "JDBC URL invalid port number:
     * PASSWORD@host" for a {@code user:password@host} URL), where this command shows every URL masked.
     * Held here so that the level is not lost with a collected logger.
     */
    private static final Logger PGJDBC_LOG = Logger.getLogger("org.postgresql");

    static {
        PGJDBC_LOG.setLevel(Level.OFF);
    }

    private LiveLocks() {}

    /**
     * @param given          a {@code jdbc:postgresql:} URL; its timeout parameters are dropped ({@link #withoutTimeouts})
     * @param pgpassword     the {@code PGPASSWORD} environment variable, or null
     * @param timeoutSeconds the longest wait for the server at each step (at least 1)
     * @return the locks now
     * @throws Failure for an unreachable or silent server, a refused login, or a failed read
     */
    static Snapshot read(String given, String pgpassword, int timeoutSeconds) {
        String url = withoutTimeouts(given);
        Properties parsed = Driver.parseURL(url, new Properties());
        if (parsed == null) {
            throw new InputException(
                    "--url: not a PostgreSQL JDBC URL (jdbc:postgresql://HOST[:PORT]/DATABASE[?user=...]): "
                            + UrlMask.mask(url)
                            + (UrlMask.password(url) == null
                                    ? ""
                                    : " (PgJDBC reads no user:password@ part: give ?user=, and the password in"
                                            + " PGPASSWORD or ~/.pgpass)"));
        }
        String target = target(parsed);
        Properties props = new Properties();
        props.setProperty("ApplicationName", "pg-advisory-lint locks");
        props.setProperty("connectTimeout", Integer.toString(timeoutSeconds));
        props.setProperty("loginTimeout", Integer.toString(timeoutSeconds));
        props.setProperty("socketTimeout", Integer.toString(timeoutSeconds + SOCKET_MARGIN_SECONDS));
        props.setProperty("readOnly", "true");
        if (parsed.getProperty("password") == null && pgpassword != null && !pgpassword.isEmpty()) {
            props.setProperty("password", pgpassword);
        }
        List<String> secrets = new ArrayList<>();
        for (String secret : new String[] {parsed.getProperty("password"), pgpassword, UrlMask.password(url)}) {
            if (secret != null && !secret.isEmpty()) {
                secrets.add(secret);
            }
        }
        try (Connection c = DriverManager.getConnection(url, props)) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            try (Statement st = c.createStatement()) {
                // the server's statement_timeout first (its message names it); the driver's cancel one second later
                st.setQueryTimeout(timeoutSeconds + 1);
                st.execute("SET TRANSACTION READ ONLY");
                st.execute("SET LOCAL statement_timeout = " + timeoutSeconds * 1000L);
                String version;
                int versionNum;
                String role;
                OffsetDateTime now;
                boolean seesAll;
                try (ResultSet rs = st.executeQuery(SEES_ALL_QUERY)) {
                    rs.next();
                    version = rs.getString(1);
                    versionNum = rs.getInt(2);
                    role = rs.getString(3);
                    now = rs.getObject(4, OffsetDateTime.class);
                    seesAll = rs.getBoolean(5);
                }
                List<Lock> locks = new ArrayList<>();
                Map<Integer, Session> sessions = new LinkedHashMap<>();
                String sql = LOCKS_QUERY.formatted(
                        versionNum >= 140000 ? "l.waitstart" : "NULL::timestamptz", seesAll ? "true" : "false");
                try (ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next()) {
                        int pid = rs.getInt(1);
                        boolean granted = rs.getBoolean(6);
                        locks.add(new Lock(
                                pid,
                                rs.getLong(2),
                                rs.getLong(3),
                                rs.getInt(4),
                                rs.getString(5).startsWith("Share"),
                                granted,
                                rs.getObject(7, OffsetDateTime.class)));
                        boolean hidden = rs.getBoolean(12);
                        List<Integer> blockedBy = ints(rs.getArray(13));
                        Session known = sessions.get(pid);
                        List<Integer> blockers = new ArrayList<>(known == null ? List.of() : known.blockedBy());
                        for (Integer b : blockedBy) {
                            if (!blockers.contains(b)) {
                                blockers.add(b);
                            }
                        }
                        boolean visible = pid == 0 || !hidden;
                        sessions.put(
                                pid,
                                new Session(
                                        pid,
                                        emptyToNull(rs.getString(8)),
                                        rs.getString(9),
                                        rs.getString(10),
                                        rs.getObject(11, OffsetDateTime.class),
                                        visible,
                                        blockers,
                                        visible ? rs.getString(14) : null,
                                        visible ? rs.getObject(15, OffsetDateTime.class) : null,
                                        visible ? oneLine(rs.getString(16)) : null));
                    }
                }
                c.rollback();
                return new Snapshot(target, version, role, now, locks, sessions);
            }
        } catch (SQLException e) {
            throw classify(e, target, secrets, timeoutSeconds);
        }
    }

    /**
     * @param parsed what {@link Driver#parseURL} read from the URL
     * @return {@code host:port/database}, hosts and ports paired for the multi-host form
     *     ({@code h1:5432,h2:5433/db}), any user-info password masked
     */
    static String target(Properties parsed) {
        String[] hosts = parsed.getProperty("PGHOST", "localhost").split(",", -1);
        String[] ports = parsed.getProperty("PGPORT", "5432").split(",", -1);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < hosts.length; i++) {
            b.append(i == 0 ? "" : ",")
                    .append(hosts[i])
                    .append(':')
                    .append(i < ports.length ? ports[i] : ports[ports.length - 1]);
        }
        b.append('/').append(parsed.getProperty("PGDBNAME", ""));
        return UrlMask.mask("//" + b).substring(2);
    }

    /** PgJDBC parameters that bound or unbound the waits; in the URL they would win over --timeout. */
    private static final Set<String> TIMEOUT_PARAMETERS =
            Set.of("connecttimeout", "logintimeout", "sockettimeout", "cancelsignaltimeout");

    /**
     * @param url a JDBC URL
     * @return it without the timeout parameters, so that every wait is bounded by {@code --timeout}
     */
    static String withoutTimeouts(String url) {
        int q = url.indexOf('?');
        if (q < 0) {
            return url;
        }
        List<String> kept = new ArrayList<>();
        for (String p : AMPERSAND.split(url.substring(q + 1), -1)) {
            int eq = p.indexOf('=');
            String name = (eq < 0 ? p : p.substring(0, eq)).toLowerCase(Locale.ROOT);
            if (!p.isEmpty() && !TIMEOUT_PARAMETERS.contains(name)) {
                kept.add(p);
            }
        }
        return url.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
    }

    private static final Pattern AMPERSAND = Pattern.compile("&");

    /** The longest query text kept, in characters; longer texts end in an ellipsis. */
    static final int QUERY_CHARS = 120;

    /** @return the text with every run of white space as one space, at most {@value #QUERY_CHARS} characters; null when empty */
    static String oneLine(String query) {
        if (query == null || query.isBlank()) {
            return null;
        }
        String flat = WHITE_SPACE.matcher(query.strip()).replaceAll(" ");
        return flat.length() <= QUERY_CHARS ? flat : flat.substring(0, QUERY_CHARS - 3) + "...";
    }

    private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");

    private static List<Integer> ints(Array array) throws SQLException {
        if (array == null) {
            return List.of();
        }
        Object[] values = (Object[]) array.getArray();
        return Arrays.stream(values).map(v -> ((Number) v).intValue()).sorted().toList();
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /**
     * @param e              what the driver threw
     * @param target         {@code host:port/database}
     * @param secrets        the passwords that may be in use: masked should the driver ever echo one
     * @param timeoutSeconds the timeout in force, named when the server did not answer in time
     * @return the failure to report, with its exit code
     */
    static Failure classify(SQLException e, String target, List<String> secrets, int timeoutSeconds) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = oneLine(e.getMessage(), secrets);
        if (timedOut(e)) {
            message += " (no answer within the timeout of " + timeoutSeconds + " s; --timeout)";
        }
        if (state.equals("28P01")
                || state.equals("28000")
                || state.equals("3D000")
                || state.equals("08004")
                || state.equals("42501")) {
            return new Failure(
                    "login refused by " + target + ": " + message
                            + (message.contains("no password was provided")
                                    ? " (give one as ?password= in the URL, in PGPASSWORD or in ~/.pgpass)"
                                    : ""),
                    LocksCommand.EXIT_LOGIN_REFUSED,
                    e);
        }
        if (state.startsWith("08") || state.equals("53300") || state.equals("57P03")) {
            return new Failure("cannot reach " + target + ": " + message, LocksCommand.EXIT_UNREACHABLE, e);
        }
        // a statement timeout, a server shutting down, a catalog the role may not read: the server's answer, not a bug
        return new Failure(
                "reading the locks of " + target + " failed: " + message + " (SQLSTATE " + state + ")",
                LocksCommand.EXIT_UNREACHABLE,
                e);
    }

    /** @return true when the driver or the server gave up waiting: a socket timeout, a login or statement timeout */
    private static boolean timedOut(SQLException e) {
        if ("57014".equals(e.getSQLState())) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException
                    || (t.getMessage() != null && t.getMessage().contains("timed out"))) {
                return true;
            }
        }
        return false;
    }

    private static String oneLine(String message, List<String> secrets) {
        String m = message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").strip();
        for (String secret : secrets) {
            m = m.replace(secret, UrlMask.MASK);
        }
        return UrlMask.maskIn(m);
    }
}
