package io.github.pgadvisorylint.core.diagnostic;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;
import java.util.Set;

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

    /**
     * The kinds that mean part of the input was left out of the analysis: a method over a bound of the
     * lock-state analysis, a file too large or nested too deep, a front end or a rule that failed, a
     * lock-using Java file that does not parse or holds NUL bytes, and a file or folder that could not be
     * read or is not a regular file (what it holds is unknown). A scan with {@code --fail-on-incomplete}
     * fails on any of them. Input the tool reads another way (the lexical SQL fallback, an encoding
     * guessed) or skips on purpose (a link outside the path base, a link loop) is not among them.
     */
    public static final Set<String> LEAVES_OUT = Set.of(
            "method-budget",
            "file-too-large",
            "java-too-deep",
            "internal-error",
            "rule-failure",
            "java-parse-error",
            "binary-file",
            "special-file",
            "unreadable-file",
            "unreadable-path");

    /** Checks that every field is present. */
    public Notification {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(region, "region");
    }

    /** @return true when this says part of the input was left out of the analysis ({@link #LEAVES_OUT}) */
    public boolean leavesOut() {
        return LEAVES_OUT.contains(kind);
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
