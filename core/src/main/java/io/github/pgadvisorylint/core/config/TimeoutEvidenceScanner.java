package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.model.TimeoutEvidence;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds lock and statement timeouts that a project's configuration sets for every connection, for
 * blocking-lock-without-timeout (RULES.md; F12; PgJDBC docs, connection parameter {@code options};
 * PostgreSQL docs "lock_timeout"). Counted, line by line outside {@code #}, {@code //}, {@code ;} and
 * XML comment lines:
 * <ul>
 *   <li>{@code -c lock_timeout=...} or {@code -c statement_timeout=...} (also URL-encoded,
 *       {@code -c%20lock_timeout%3D5000}) in a JDBC URL's {@code options} parameter or in a data-source
 *       property named {@code options} (e.g. {@code spring.datasource.hikari.data-source-properties.options});</li>
 *   <li>a {@code SET lock_timeout} / {@code SET statement_timeout} in connection-init SQL
 *       ({@code connection-init-sql}, {@code connectionInitSql}, {@code initSQL}, {@code init-sql});</li>
 *   <li>{@code lock_timeout = ...} / {@code statement_timeout = ...} in a server configuration file named
 *       {@code postgresql*.conf} (it applies to every session of the server).</li>
 * </ul>
 * Not counted: {@code socketTimeout}, {@code loginTimeout}, {@code connectTimeout} (they do not cancel a
 * wait for a lock), and a timeout of {@code 0} (off). Stateless and thread-safe.
 */
public final class TimeoutEvidenceScanner {

    private static final Pattern OPTION =
            Pattern.compile("(?i)-c(?:\\s+|%20|\\+)?(lock_timeout|statement_timeout)(?:\\s*=\\s*|%3D)([\\w.]+)");
    private static final Pattern SERVER =
            Pattern.compile("(?i)^\\s*(lock_timeout|statement_timeout)\\s*=\\s*'?([\\w.]+)");
    private static final Pattern INIT_SQL = Pattern.compile(
            "(?i)(?:init[-_]?sql|initsql|init-sql)\\W.*?\\bset\\s+(?:session\\s+)?(lock_timeout|statement_timeout)\\s*(?:=|to)\\s*'?([\\w.]+)");

    /** Creates a scanner; it holds no state. */
    public TimeoutEvidenceScanner() {}

    /**
     * Cheap byte-level test.
     *
     * @param content a configuration file's bytes; null counts as empty
     * @return false when {@link #scan} would certainly find nothing (no {@code lock_timeout} or {@code statement_timeout})
     */
    public static boolean mayHoldEvidence(byte[] content) {
        if (content == null) {
            return false;
        }
        String s = new String(content, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        return s.contains("lock_timeout") || s.contains("statement_timeout");
    }

    /**
     * @param file a configuration file (properties, YAML, XML, env, HOCON ...)
     * @return the timeouts it sets for connections, in file order; never throws for bad input
     */
    public List<TimeoutEvidence> scan(SourceFile file) {
        List<TimeoutEvidence> out = new ArrayList<>();
        String text = file.text();
        String name = file.path().substring(file.path().lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        boolean serverConf = name.startsWith("postgresql") && name.endsWith(".conf");
        int lineStart = 0;
        while (lineStart <= text.length()) {
            int nl = text.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? text.length() : nl;
            String line = text.substring(lineStart, lineEnd);
            String t = line.strip();
            boolean comment = t.startsWith("#")
                    || t.startsWith("//")
                    || t.startsWith(";")
                    || t.startsWith("<!--")
                    || t.startsWith("*");
            String lower = line.toLowerCase(Locale.ROOT);
            if (!comment && (lower.contains("lock_timeout") || lower.contains("statement_timeout"))) {
                Matcher m = OPTION.matcher(line);
                boolean found = false;
                if (lower.contains("options") && m.find() && enabled(m.group(2))) {
                    out.add(new TimeoutEvidence(
                            TimeoutEvidence.Kind.CONNECTION_SETTING,
                            "connection option -c " + m.group(1).toLowerCase(Locale.ROOT) + "=" + m.group(2),
                            file.region(lineStart + m.start(), lineStart + m.end())));
                    found = true;
                }
                Matcher server = SERVER.matcher(line);
                if (!found && serverConf && server.find() && enabled(server.group(2))) {
                    out.add(new TimeoutEvidence(
                            TimeoutEvidence.Kind.CONNECTION_SETTING,
                            "server setting " + server.group(1).toLowerCase(Locale.ROOT) + " = " + server.group(2),
                            file.region(lineStart + server.start(), lineStart + server.end())));
                    found = true;
                }
                Matcher init = INIT_SQL.matcher(line);
                if (!found && init.find() && enabled(init.group(2))) {
                    out.add(new TimeoutEvidence(
                            TimeoutEvidence.Kind.CONNECTION_SETTING,
                            "connection-init SQL sets " + init.group(1).toLowerCase(Locale.ROOT) + " = "
                                    + init.group(2),
                            file.region(lineStart + init.start(), lineStart + init.end())));
                }
            }
            if (nl < 0) {
                break;
            }
            lineStart = nl + 1;
        }
        return out;
    }

    private static boolean enabled(String value) {
        return !value.matches("0+[a-zA-Z]*");
    }
}
