package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.MethodMatcher;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileKind;
import io.github.pgadvisorylint.core.model.ConcurrentIndexBuild;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.MigrationFacts;
import io.github.pgadvisorylint.core.source.SourceDecoder;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.sql.ConcurrentIndexScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The project's migrations (fact F21): the concurrent index builds in its migration files, and which files holding
 * a lock site run migrations. Reads the files itself, whatever the prefilter said of them (a migration need not
 * mention an advisory lock), so cached facts change nothing here. Text only: no file is parsed.
 */
final class MigrationScan {

    /** Larger files are not read here. */
    private static final long MAX_BYTES = 2L * 1024 * 1024;

    /** Directory names that hold migrations. */
    private static final Set<String> MIGRATION_DIRECTORIES = Set.of(
            "migration",
            "migrations",
            "changelog",
            "changelogs",
            "changesets",
            "liquibase",
            "flyway",
            "migrate",
            "evolutions",
            "schema-migrations");

    /** Flyway's file names: {@code V3__add_index.sql}, {@code V1.2__x.sql}, {@code R__views.sql}, {@code U3__x.sql}. */
    private static final Pattern FLYWAY_NAME = Pattern.compile("(?:[VU]\\d[\\w.]*|R)__.+\\.sql");

    /**
     * Java that runs migrations: {@code .migrate()}, a migration runner of the catalog
     * ({@link Role#RUNS_MIGRATIONS}) named with its type ({@code Flyway ... .migrate(}, {@code Liquibase ... .update(},
     * {@code ScriptUtils.executeSqlScript(}), a Liquibase object built here, a Spring populator, or a
     * method of the project named for migrations ({@code runMigrations()}, {@code applyMigration(..)}).
     */
    private static final Pattern JAVA_RUNNER = Pattern.compile(runnerCalls()
            + "|\\.migrate\\s*\\(\\s*\\)|\\bnew\\s+Liquibase\\s*\\(|\\bResourceDatabasePopulator\\b"
            + "|\\b(?:run|apply|do|perform)\\w*Migrations?\\s*\\(");

    /** One alternative per runner of the catalog: its type, then a call of its method within 2,000 chars. */
    private static String runnerCalls() {
        List<String> alternatives = new ArrayList<>();
        for (MethodMatcher m : ApiCatalog.standard().matchers()) {
            if (m.roles().contains(Role.RUNS_MIGRATIONS)) {
                alternatives.add("\\b(?:" + String.join("|", new TreeSet<>(m.receivers())) + ")\\b[\\s\\S]{0,2000}?\\."
                        + Pattern.quote(m.name()) + "\\s*\\(");
            }
        }
        return String.join("|", alternatives);
    }

    /** A psql script that runs others. */
    private static final Pattern PSQL_INCLUDE = Pattern.compile("(?m)^\\s*\\\\i[r]?\\s+\\S");

    private MigrationScan() {}

    /**
     * @param path a path relative to the scan root, {@code /}-separated
     * @return true when the file lies in a migration directory or has a Flyway migration's name
     */
    static boolean isMigration(String path) {
        int start = 0;
        for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', start)) {
            if (MIGRATION_DIRECTORIES.contains(path.substring(start, slash).toLowerCase(Locale.ROOT))) {
                return true;
            }
            start = slash + 1;
        }
        return FLYWAY_NAME.matcher(path.substring(start)).matches();
    }

    /**
     * @param files        the discovered files
     * @param acquisitions the model's acquisitions
     * @return the migration facts
     */
    static MigrationFacts scan(List<DiscoveredFile> files, List<LockSite> acquisitions) {
        Map<String, DiscoveredFile> byPath = new TreeMap<>();
        files.forEach(f -> byPath.put(f.relativePath(), f));
        List<ConcurrentIndexBuild> builds = new ArrayList<>();
        for (DiscoveredFile f : byPath.values()) {
            if (!isMigration(f.relativePath())) {
                continue;
            }
            String name = f.relativePath().toLowerCase(Locale.ROOT);
            boolean sql = f.kind() == FileKind.SQL;
            if (!sql
                    && !name.endsWith(".java")
                    && !name.endsWith(".xml")
                    && !name.endsWith(".yaml")
                    && !name.endsWith(".yml")) {
                continue;
            }
            SourceFile text = read(f);
            if (text != null) {
                builds.addAll(sql ? ConcurrentIndexScanner.inSql(text) : ConcurrentIndexScanner.inText(text));
            }
        }
        Set<String> runners = new TreeSet<>();
        if (!builds.isEmpty()) {
            Set<String> paths = new TreeSet<>();
            acquisitions.forEach(s -> paths.add(s.path()));
            for (String path : paths) {
                DiscoveredFile f = byPath.get(path);
                SourceFile text = f == null ? null : read(f);
                if (text == null) {
                    continue;
                }
                boolean java = f.kind() == FileKind.JAVA;
                boolean buildsHere =
                        builds.stream().anyMatch(b -> b.region().path().equals(path));
                if (java
                        ? JAVA_RUNNER.matcher(text.text()).find()
                        : buildsHere || PSQL_INCLUDE.matcher(text.text()).find()) {
                    runners.add(path);
                }
            }
        }
        return MigrationFacts.of(builds, runners);
    }

    /**
     * @param f a discovered file
     * @return its text, or null when it is larger than 2 MiB or cannot be read (the front ends report that)
     */
    static SourceFile read(DiscoveredFile f) {
        try {
            if (f.size() > MAX_BYTES) {
                return null;
            }
            byte[] bytes = Files.readAllBytes(f.path());
            return new SourceFile(f.relativePath(), SourceDecoder.decode(bytes).text());
        } catch (IOException e) {
            return null; // the front ends report an unreadable file
        }
    }
}
