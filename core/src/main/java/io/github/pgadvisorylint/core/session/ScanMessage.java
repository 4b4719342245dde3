package io.github.pgadvisorylint.core.session;

import java.util.Objects;

/**
 * Something a scan has to tell its user besides the findings; the session never prints, the front end
 * renders each message (the CLI on standard error, the Maven plugin through its log).
 *
 * @param level how the front end shows it
 * @param kind  what it is about, so a front end can place or word it its own way
 * @param text  a complete sentence without the tool's name; files named as the request's
 *              {@link ScanRequest#display() display} names them
 */
public record ScanMessage(Level level, Kind kind, String text) {

    /** How important a message is. */
    public enum Level {
        /** Information: the configuration used, cache statistics, the summary. */
        INFO,
        /** Something the user should act on; never fails the scan. */
        WARNING
    }

    /** What a message is about. */
    public enum Kind {
        /** The configuration file the scan used. */
        CONFIGURATION,
        /** The incremental-analysis cache: unusable, statistics, or not written. */
        CACHE,
        /** A baseline that matches none of the scan's findings. */
        BASELINE,
        /** A report file was a symbolic link leading elsewhere and was replaced. */
        REPORT,
        /** The one-line summary: counts, files, time, and what was written. */
        SUMMARY
    }

    /** Checks that nothing is null. */
    public ScanMessage {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
    }
}
