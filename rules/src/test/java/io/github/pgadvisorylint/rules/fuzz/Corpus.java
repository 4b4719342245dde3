package io.github.pgadvisorylint.rules.fuzz;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The seeds the mutators start from: the repository's own fixture files
 * ({@code rules/src/test/resources/fixtures/}, read in place), by kind, in path order so a seed's index
 * names the same file on every machine.
 */
final class Corpus {

    /** One fixture file. */
    static final class Seed {
        private final String path;
        private final byte[] bytes;

        Seed(String path, byte[] bytes) {
            this.path = path;
            this.bytes = bytes.clone();
        }

        /** @return the path below the fixtures folder, {@code /}-separated */
        String path() {
            return path;
        }

        /** @return a copy of the file's bytes */
        byte[] bytes() {
            return bytes.clone();
        }

        /** @return the bytes decoded as UTF-8 (malformed bytes become U+FFFD) */
        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        /** @return the file name with its extension, e.g. {@code application.yml} */
        String fileName() {
            return path.substring(path.lastIndexOf('/') + 1);
        }

        @Override
        public String toString() {
            return path;
        }
    }

    private static final List<Seed> ALL = load();

    private Corpus() {}

    private static List<Seed> load() {
        Path root = FixtureHarness.fixturesRoot();
        List<Seed> seeds = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
                seeds.add(new Seed(root.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(seeds);
    }

    private static List<Seed> withExtensions(String... extensions) {
        List<Seed> out = ALL.stream()
                .filter(s -> {
                    String name = s.path().toLowerCase(Locale.ROOT);
                    for (String e : extensions) {
                        if (name.endsWith(e)) {
                            return true;
                        }
                    }
                    return false;
                })
                .toList();
        if (out.isEmpty()) {
            throw new IllegalStateException("no fixture file ends with any of " + List.of(extensions));
        }
        return out;
    }

    /** @return every Java fixture file */
    static List<Seed> java() {
        return withExtensions(".java");
    }

    /** @return every SQL fixture file */
    static List<Seed> sql() {
        return withExtensions(".sql");
    }

    /** @return every configuration fixture file: YAML, properties, ini, {@code .env}, XML */
    static List<Seed> config() {
        return withExtensions(".yml", ".yaml", ".properties", ".ini", ".env", ".xml");
    }

    /** @return every fixture file */
    static List<Seed> all() {
        return ALL;
    }
}
