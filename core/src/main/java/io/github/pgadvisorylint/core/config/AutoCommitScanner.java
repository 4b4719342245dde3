package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

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

    /** @return the boolean a value says, through a placeholder's default ({@link MappedText#resolvePlaceholders}), else empty */
    static Optional<Boolean> bool(MappedText raw) {
        String v = raw.resolvePlaceholders().strip().unquote().strip().text();
        return v.equalsIgnoreCase("true")
                ? Optional.of(true)
                : v.equalsIgnoreCase("false") ? Optional.of(false) : Optional.empty();
    }

    private static boolean sets(String key, boolean hikariFile) {
        String k = normalized(key);
        return KEYS.contains(k) || (hikariFile && k.equals("autocommit"));
    }

    private static void properties(SourceFile file, boolean hikariFile, List<AutoCommitSetting> out) {
        PropertiesConfig.forEachEntry(file.text(), (key, value) -> {
            Optional<Boolean> b = sets(key, hikariFile) ? bool(value) : Optional.empty();
            b.ifPresent(v -> out.add(setting(file, key + "=" + v, v, value)));
        });
    }

    /** @return the setting, located at its value */
    private static AutoCommitSetting setting(SourceFile file, String description, boolean value, MappedText at) {
        return new AutoCommitSetting(value, description, file.region(at.start(0), at.end(at.length())));
    }

    private static void yaml(SourceFile file, List<AutoCommitSetting> out) {
        YamlConfig.forEachScalar(file, (key, value) -> {
            Optional<Boolean> b = sets(key, false) ? bool(value) : Optional.empty();
            b.ifPresent(x -> out.add(setting(file, key + ": " + x, x, value)));
        });
    }
}
