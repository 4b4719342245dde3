package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the evidence of each configuration file applies: a file inside a module (a directory below
 * the scan root that holds a build file) speaks for that module's sources and for the modules that
 * depend on it, as a separately deployed service's {@code pgbouncer.ini} or {@code application.yml}
 * configures that service's connections (and a shared configuration module's those of the services
 * that take it in); a file outside every module (at the root, or in a directory such as {@code deploy/}
 * without a build file) speaks for the whole project. A setting stated for the scan ({@code pooling}
 * in the configuration file, {@code --pooling}, the Maven parameter) applies everywhere regardless.
 *
 * @param modulesOfFile configuration file (path relative to the scan root, {@code /}-separated) to the
 *                      module directories its evidence speaks for (same form, no trailing {@code /}):
 *                      its own module first, then the modules that depend on it, sorted; a file not in
 *                      the map speaks for the whole project; copied
 */
public record EvidenceScopes(Map<String, List<String>> modulesOfFile) {

    /** Every file's evidence applies to the whole project. */
    public static final EvidenceScopes PROJECT = new EvidenceScopes(Map.of());

    /** Copies the map and its lists; throws {@link NullPointerException} on a null key, value or element. */
    public EvidenceScopes {
        Map<String, List<String>> copy = new TreeMap<>();
        modulesOfFile.forEach((file, modules) -> copy.put(file, List.copyOf(modules)));
        modulesOfFile = Collections.unmodifiableMap(copy);
    }

    /**
     * @param file a configuration file, relative to the scan root
     * @return the module directories whose sources its evidence speaks for (its own first); empty for
     *     the whole project
     */
    public List<String> modulesOf(String file) {
        return modulesOfFile.getOrDefault(file, List.of());
    }

    /**
     * @param evidence where the evidence is written; null (no file) applies to the whole project
     * @param source   the path of the source file in question, relative to the scan root
     * @return whether that evidence speaks for that source file
     */
    public boolean applies(SourceRegion evidence, String source) {
        if (evidence == null) {
            return true;
        }
        List<String> modules = modulesOf(evidence.path());
        return modules.isEmpty() || modules.stream().anyMatch(m -> source.startsWith(m + "/"));
    }
}
