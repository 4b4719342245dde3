package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * A statement in one of the project's migrations that builds an index concurrently and so waits for every older
 * snapshot before it ends (fact F21): {@code CREATE [UNIQUE] INDEX CONCURRENTLY} or {@code REINDEX ...
 * CONCURRENTLY}. {@code DROP INDEX CONCURRENTLY} is not one: it waits only for sessions using the table (F21).
 *
 * @param region    where the statement starts (its first key word)
 * @param statement the statement's leading key words, e.g. {@code CREATE INDEX CONCURRENTLY}
 */
public record ConcurrentIndexBuild(SourceRegion region, String statement) implements Comparable<ConcurrentIndexBuild> {

    /** Checks that both fields are present. */
    public ConcurrentIndexBuild {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(statement, "statement");
    }

    @Override
    public int compareTo(ConcurrentIndexBuild o) {
        int c = region.compareTo(o.region);
        return c != 0 ? c : statement.compareTo(o.statement);
    }
}
