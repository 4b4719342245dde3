package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * A connection pool's configured auto-commit default: whether a connection borrowed from it starts in
 * autocommit, or inside a transaction that its first statement opens (PgJDBC; HikariCP {@code autoCommit},
 * default true; DBCP2 and Tomcat JDBC {@code defaultAutoCommit}). With auto-commit off, a statement that fails
 * aborts the transaction, and a session-level unlock after it fails with 25P02 (RULES.md F18).
 *
 * @param autoCommit  the configured value
 * @param description the setting as written, for messages ({@code spring.datasource.hikari.auto-commit=false})
 * @param region      where it is written
 */
public record AutoCommitSetting(boolean autoCommit, String description, SourceRegion region)
        implements Comparable<AutoCommitSetting> {

    /** Checks that the fields are present. */
    public AutoCommitSetting {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(region, "region");
    }

    /** @return the setting and where it is written, for messages: {@code auto-commit=false in app.properties:2} */
    public String display() {
        return description + " in " + region.path() + ":" + region.startLine();
    }

    /** Orders by region, then value: a project's settings sort the same on every machine. */
    @Override
    public int compareTo(AutoCommitSetting o) {
        int c = region.compareTo(o.region);
        return c != 0 ? c : Boolean.compare(autoCommit, o.autoCommit);
    }
}
