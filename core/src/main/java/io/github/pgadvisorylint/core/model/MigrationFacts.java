package io.github.pgadvisorylint.core.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What the project's migrations hold and which files run them (rule migration-lock-waits-on-concurrent-index,
 * fact F21).
 *
 * @param concurrentIndexBuilds the concurrent index builds in migration files, sorted
 * @param runnerFiles           files holding lock sites that run migrations: Java that calls a migration tool
 *                              ({@code flyway.migrate()}, Liquibase's {@code update}, a script runner) or a SQL
 *                              script that includes others ({@code \i}) or builds an index concurrently itself;
 *                              sorted paths
 */
public record MigrationFacts(List<ConcurrentIndexBuild> concurrentIndexBuilds, SortedSet<String> runnerFiles) {

    /** No migrations known. */
    public static final MigrationFacts NONE = new MigrationFacts(List.of(), new TreeSet<>());

    /** Sorts and copies. */
    public MigrationFacts {
        List<ConcurrentIndexBuild> builds = new ArrayList<>(concurrentIndexBuilds);
        Collections.sort(builds);
        concurrentIndexBuilds = List.copyOf(builds);
        runnerFiles = Collections.unmodifiableSortedSet(new TreeSet<>(runnerFiles));
    }

    /**
     * @param builds  the concurrent index builds found
     * @param runners the runner files found
     * @return the facts
     */
    public static MigrationFacts of(Collection<ConcurrentIndexBuild> builds, Collection<String> runners) {
        return new MigrationFacts(List.copyOf(builds), new TreeSet<>(runners));
    }
}
