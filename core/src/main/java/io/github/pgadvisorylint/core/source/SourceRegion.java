package io.github.pgadvisorylint.core.source;

import java.util.Comparator;
import java.util.Objects;

/**
 * A region of one source file, as SARIF 2.1.0 section 3.30 describes it: 1-based lines and 1-based
 * columns counted in UTF-16 code units ({@code columnKind = utf16CodeUnits}); the end column is
 * exclusive. The path is relative to the scan root with {@code /} separators.
 *
 * @param path        file path relative to the scan root, {@code /}-separated, never null
 * @param startLine   first line, 1-based
 * @param startColumn first column, 1-based, UTF-16 code units
 * @param endLine     last line, 1-based, {@code >= startLine}
 * @param endColumn   column just past the region, 1-based, UTF-16 code units
 */
public record SourceRegion(String path, int startLine, int startColumn, int endLine, int endColumn)
        implements Comparable<SourceRegion> {

    private static final Comparator<SourceRegion> ORDER = Comparator.comparing(SourceRegion::path)
            .thenComparingInt(SourceRegion::startLine)
            .thenComparingInt(SourceRegion::startColumn)
            .thenComparingInt(SourceRegion::endLine)
            .thenComparingInt(SourceRegion::endColumn);

    /** Validates the fields; throws {@link IllegalArgumentException} when a position is below 1. */
    public SourceRegion {
        Objects.requireNonNull(path, "path");
        if (startLine < 1 || startColumn < 1 || endLine < startLine || endColumn < 1) {
            throw new IllegalArgumentException(
                    "bad region " + path + ":" + startLine + ":" + startColumn + "-" + endLine + ":" + endColumn);
        }
    }

    /** @return a region covering a whole line (column 1 to 1), for file-level or line-level messages */
    public static SourceRegion line(String path, int line) {
        return new SourceRegion(path, Math.max(1, line), 1, Math.max(1, line), 1);
    }

    @Override
    public int compareTo(SourceRegion o) {
        return ORDER.compare(this, o);
    }

    /** @return {@code path:line:column} */
    @Override
    public String toString() {
        return path + ":" + startLine + ":" + startColumn;
    }
}
