package io.github.pgadvisorylint.core.diagnostic;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * Something the tool itself has to say about the scan: a file it could not read or parse, SQL it
 * analysed only lexically. Becomes a SARIF {@code toolExecutionNotification} (section 3.20.21).
 *
 * @param level   {@code ERROR} for a file that could not be analysed at all, {@code WARNING} for a
 *                part that was skipped, {@code NOTE} for a fallback that still analysed it
 * @param kind    a stable descriptor id, e.g. {@code java-parse-error}, {@code sql-parse-fallback}
 * @param message plain text, naming what went wrong
 * @param region  where; the line or column may be 1 when unknown; never null
 */
public record Notification(Severity level, String kind, String message, SourceRegion region)
        implements Comparable<Notification> {

    /** Checks that every field is present. */
    public Notification {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(region, "region");
    }

    @Override
    public int compareTo(Notification o) {
        int c = region.compareTo(o.region);
        if (c == 0) {
            c = kind.compareTo(o.kind);
        }
        return c != 0 ? c : message.compareTo(o.message);
    }
}
