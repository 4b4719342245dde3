package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;

/**
 * Finds the auto-commit default a project configures for its main connection pool, for the lock-state
 * analysis (RULES.md F18: with auto-commit off, a failed statement aborts the transaction and a
 * session-level unlock after it fails). Read, with Spring's relaxed binding (case, {@code -} and {@code _}
 * ignored), in {@code .properties} and YAML files (nested or dotted keys):
 * <ul>
 *   <li>Spring Boot: {@code spring.datasource.hikari.auto-commit}, {@code spring.datasource.dbcp2.default-auto-commit},
 *       {@code spring.datasource.tomcat.default-auto-commit};</li>
 *   <li>Micronaut: {@code datasources.default.auto-commit};</li>
 *   <li>a HikariCP properties file ({@code hikari*.properties}): {@code autoCommit}.</li>
 * </ul>
 * A value {@code true} or {@code false}, also as the default of a placeholder ({@code ${DB_AUTOCOMMIT:false}}).
 * Other pools and named second data sources are not read: their settings do not speak for the connections
 * the analysis sees. Never throws for bad input (a file that does not parse gives nothing); stateless.
 */
public final class AutoCommitScanner {

    /** Keys after normalisation ({@link #normalized}) that set the main pool's default. */
    private static final Set<String> KEYS = Set.of(
            "spring.datasource.hikari.autocommit",
            "spring.datasource.dbcp2.defaultautocommit",
            "spring.datasource.tomcat.defaultautocommit",
            "datasources.default.autocommit");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{[^:}]*:-?([^}]*)}");

    /** Mapping entries visited per file at most (aliases can repeat a large mapping). */
    private static final int VISIT_BUDGET = 100_000;

    /** Creates a scanner; it holds no state. */
    public AutoCommitScanner() {}

    /**
     * @param file a configuration file; only {@code .properties}, {@code .yml} and {@code .yaml} are read
     * @return the auto-commit settings it makes, in file order
     */
    public List<AutoCommitSetting> scan(SourceFile file) {
        String name = file.path().substring(file.path().lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        List<AutoCommitSetting> out = new ArrayList<>();
        if (name.endsWith(".properties")) {
            properties(file, name.startsWith("hikari"), out);
        } else if (name.endsWith(".yml") || name.endsWith(".yaml")) {
            yaml(file, out);
        }
        return out;
    }

    /** @return the key without case, {@code -} and {@code _} (Spring's relaxed binding) */
    static String normalized(String key) {
        return key.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    }

    /** @return the boolean a value says, through a placeholder's default, else empty */
    static Optional<Boolean> bool(String raw) {
        String v = raw.strip();
        if (v.length() >= 2 && (v.startsWith("\"") || v.startsWith("'")) && v.endsWith(v.substring(0, 1))) {
            v = v.substring(1, v.length() - 1).strip();
        }
        Matcher m = PLACEHOLDER.matcher(v);
        if (m.matches()) {
            v = m.group(1).strip();
        }
        return v.equalsIgnoreCase("true")
                ? Optional.of(true)
                : v.equalsIgnoreCase("false") ? Optional.of(false) : Optional.empty();
    }

    private static boolean sets(String key, boolean hikariFile) {
        String k = normalized(key);
        return KEYS.contains(k) || (hikariFile && k.equals("autocommit"));
    }

    private static void properties(SourceFile file, boolean hikariFile, List<AutoCommitSetting> out) {
        String text = file.text();
        int lineStart = 0;
        while (lineStart < text.length()) {
            int nl = text.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? text.length() : nl;
            String line = text.substring(lineStart, lineEnd);
            String t = line.strip();
            int sep = indexOfSeparator(t);
            if (!t.isEmpty() && !t.startsWith("#") && !t.startsWith("!") && sep > 0) {
                String key = t.substring(0, sep).strip();
                Optional<Boolean> value = sets(key, hikariFile) ? bool(t.substring(sep + 1)) : Optional.empty();
                if (value.isPresent()) {
                    int at = lineStart + line.indexOf(t);
                    out.add(new AutoCommitSetting(
                            value.get(), key + "=" + value.get(), file.region(at, at + t.length())));
                }
            }
            lineStart = lineEnd + 1;
        }
    }

    private static int indexOfSeparator(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '=' || c == ':') {
                return i;
            }
        }
        return -1;
    }

    private static void yaml(SourceFile file, List<AutoCommitSetting> out) {
        try {
            Composer composer = YamlConfig.composer(file.path(), file.text());
            int[] visits = {0};
            while (composer.hasNext()) {
                walk(file, composer.next(), "", out, visits);
            }
        } catch (RuntimeException | StackOverflowError e) {
            // not YAML this scanner can read: the pooling scan reports the parse problem
        }
    }

    private static void walk(SourceFile file, Node node, String prefix, List<AutoCommitSetting> out, int[] visits) {
        if (!(node instanceof MappingNode m)) {
            return;
        }
        for (NodeTuple t : m.getValue()) {
            if (++visits[0] > VISIT_BUDGET || !(t.getKeyNode() instanceof ScalarNode k)) {
                continue;
            }
            String key = prefix.isEmpty() ? k.getValue() : prefix + "." + k.getValue();
            if (t.getValueNode() instanceof ScalarNode v) {
                Optional<Boolean> value = sets(key, false) ? bool(v.getValue()) : Optional.empty();
                if (value.isPresent()) {
                    int start = offset(file, k.getStartMark());
                    int end = offset(file, v.getEndMark());
                    out.add(new AutoCommitSetting(
                            value.get(), key + ": " + value.get(), file.region(start, Math.max(start, end))));
                }
            } else if (key.length() < 1_000) {
                walk(file, t.getValueNode(), key, out, visits);
            }
        }
    }

    /** @return the file offset of a mark (its line and code-point column), 0 when absent */
    private static int offset(SourceFile file, Optional<Mark> mark) {
        if (mark.isEmpty()) {
            return 0;
        }
        String text = file.text();
        int i = file.offsetOf(mark.get().getLine() + 1, 1);
        for (int k = 0; k < mark.get().getColumn() && i < text.length(); k++) {
            i += Character.charCount(text.codePointAt(i));
        }
        return Math.min(i, text.length());
    }
}
