package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.model.EvidenceScopes;
import io.github.pgadvisorylint.core.source.SafeXml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Finds which modules each configuration file speaks for ({@link EvidenceScopes}): its module is the
 * nearest directory above it, below the scan root, that holds a build file ({@link #BUILD_FILES}); the
 * modules that depend on that one, directly or through others, are reached too. Dependencies are read
 * from a Maven POM's {@code <dependencies>} (by {@code artifactId}) and a Gradle script's
 * {@code project(':path')} references. The scan root itself is never a module: its files speak for the
 * whole scan.
 */
public final class ModuleDirectories {

    /** The files that make a directory a module: Maven's and Gradle's build scripts. */
    public static final List<String> BUILD_FILES = List.of("pom.xml", "build.gradle", "build.gradle.kts");

    /** Largest build file read for dependencies, in bytes; a larger one counts as depending on nothing. */
    private static final long MAX_BUILD_FILE = 4L << 20;

    private static final Pattern GRADLE_PROJECT =
            Pattern.compile("project\\s*\\(\\s*(?:path\\s*[:=]\\s*)?['\"]([^'\"]+)['\"]");

    private ModuleDirectories() {}

    /**
     * Reads whether build files exist (no symbolic link is followed) and, only when some configuration
     * file lies in a module, the build files of the modules holding {@code sources}. An unreadable or
     * malformed build file counts as depending on nothing.
     *
     * @param root    the scan root, absolute
     * @param files   configuration files with evidence, relative to {@code root}, {@code /}-separated
     * @param sources every file of the scan, same form (their modules may depend on a configuration's)
     * @return the modules each configuration file that lies in one speaks for
     */
    public static EvidenceScopes scopes(Path root, Collection<String> files, Collection<String> sources) {
        Map<String, Boolean> known = new HashMap<>();
        Map<String, String> own = new TreeMap<>();
        for (String file : files) {
            String module = moduleOf(root, file, known);
            if (module != null) {
                own.put(file, module);
            }
        }
        if (own.isEmpty()) {
            return EvidenceScopes.PROJECT;
        }
        Set<String> modules = new TreeSet<>(own.values());
        for (String source : sources) {
            String module = moduleOf(root, source, known);
            if (module != null) {
                modules.add(module);
            }
        }
        Map<String, Set<String>> dependents = dependents(root, modules);
        Map<String, List<String>> reach = new TreeMap<>();
        own.forEach((file, module) -> {
            List<String> list = new ArrayList<>();
            list.add(module);
            Set<String> seen = new TreeSet<>();
            Deque<String> work = new ArrayDeque<>(List.of(module));
            while (!work.isEmpty()) {
                for (String d : dependents.getOrDefault(work.pop(), Set.of())) {
                    if (!d.equals(module) && seen.add(d)) {
                        work.push(d);
                    }
                }
            }
            list.addAll(seen);
            reach.put(file, list);
        });
        return new EvidenceScopes(reach);
    }

    /** @return the nearest module directory above {@code file}, below the root, or null */
    private static String moduleOf(Path root, String file, Map<String, Boolean> known) {
        int slash = file.lastIndexOf('/');
        while (slash > 0) {
            String dir = file.substring(0, slash);
            if (known.computeIfAbsent(dir, d -> buildFile(root.resolve(d)) != null)) {
                return dir;
            }
            slash = dir.lastIndexOf('/');
        }
        return null;
    }

    private static Path buildFile(Path dir) {
        for (String name : BUILD_FILES) {
            Path p = dir.resolve(name);
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                return p;
            }
        }
        return null;
    }

    /** @return module directory to the module directories that depend on it directly */
    private static Map<String, Set<String>> dependents(Path root, Set<String> modules) {
        Map<String, String> byArtifact = new HashMap<>();
        Map<String, List<String>> uses = new TreeMap<>();
        for (String module : modules) {
            Path build = buildFile(root.resolve(module));
            BuildFacts facts = build == null ? BuildFacts.NONE : read(build);
            if (facts.artifactId() != null) {
                byArtifact.putIfAbsent(facts.artifactId(), module);
            }
            uses.put(module, facts.dependencies());
        }
        Map<String, Set<String>> dependents = new TreeMap<>();
        uses.forEach((module, deps) -> {
            for (String dep : deps) {
                String target = dep.startsWith(":") ? gradleModule(dep, modules) : byArtifact.get(dep);
                if (target != null && !target.equals(module)) {
                    dependents.computeIfAbsent(target, t -> new TreeSet<>()).add(module);
                }
            }
        });
        return dependents;
    }

    /** @return the module a Gradle project path ({@code :services:billing}) names, matched by its trailing directories */
    private static String gradleModule(String path, Set<String> modules) {
        String dirs = path.substring(1).replace(':', '/');
        for (String m : modules) {
            if (m.equals(dirs) || m.endsWith("/" + dirs)) {
                return m;
            }
        }
        return null;
    }

    /** What one build file says: its artifact id (Maven) and what it depends on. */
    private record BuildFacts(String artifactId, List<String> dependencies) {
        static final BuildFacts NONE = new BuildFacts(null, List.of());
    }

    private static BuildFacts read(Path build) {
        try {
            if (Files.size(build) > MAX_BUILD_FILE) {
                return BuildFacts.NONE;
            }
            if (build.getFileName().toString().equals("pom.xml")) {
                return pom(build);
            }
            String text = Files.readString(build, StandardCharsets.UTF_8);
            List<String> deps = new ArrayList<>();
            Matcher m = GRADLE_PROJECT.matcher(text);
            while (m.find()) {
                deps.add(m.group(1).startsWith(":") ? m.group(1) : ":" + m.group(1));
            }
            return new BuildFacts(null, deps);
        } catch (IOException | RuntimeException e) {
            return BuildFacts.NONE; // unreadable or not UTF-8: no dependencies known
        }
    }

    /** Reads {@code project/artifactId} and {@code project/dependencies/dependency/artifactId}. */
    private static BuildFacts pom(Path pom) throws IOException {
        String artifactId = null;
        List<String> deps = new ArrayList<>();
        List<String> path = new ArrayList<>();
        try (InputStream in = Files.newInputStream(pom)) {
            XMLStreamReader r = SafeXml.inputFactory().createXMLStreamReader(in);
            try {
                while (r.hasNext()) {
                    int event = r.next();
                    if (event == XMLStreamConstants.START_ELEMENT) {
                        path.add(r.getLocalName());
                        String at = String.join("/", path);
                        if (at.equals("project/artifactId")) {
                            artifactId = r.getElementText().trim();
                            path.remove(path.size() - 1);
                        } else if (at.equals("project/dependencies/dependency/artifactId")) {
                            deps.add(r.getElementText().trim());
                            path.remove(path.size() - 1);
                        }
                    } else if (event == XMLStreamConstants.END_ELEMENT && !path.isEmpty()) {
                        path.remove(path.size() - 1);
                    }
                }
            } finally {
                r.close();
            }
        } catch (XMLStreamException e) {
            return new BuildFacts(artifactId, deps); // malformed: what was read before the problem
        }
        return new BuildFacts(artifactId, deps);
    }
}
