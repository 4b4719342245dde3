package io.github.pgadvisorylint.core.source;

import java.util.Arrays;
import java.util.Objects;

/**
 * The decoded text of one file with a line index. Lines end at {@code \n}, {@code \r\n} or a lone
 * {@code \r} (as javac and JavaParser count them); columns are 1-based UTF-16 code units, a tab
 * counting as one (SARIF 2.1.0 §3.30.2, {@code columnKind = utf16CodeUnits}).
 */
public final class SourceFile {

    private final String path;
    private final String text;
    private final int[] lineStarts;
    /** The file as written, when {@link #text} is a translation of it; else null. */
    private final SourceFile original;
    /** For each offset of {@link #text} (and its length), the offset in {@link #original}; else null. */
    private final int[] originalOffsets;

    /**
     * @param path the file's path relative to the scan root, {@code /}-separated
     * @param text the decoded content, without a byte-order mark
     */
    public SourceFile(String path, String text) {
        this(path, text, null, null);
    }

    /**
     * A translation of a file (Java's unicode escapes decoded, for example) whose regions are reported
     * where they are in the file as written: {@link #region}, {@link #lineOf} and {@link #columnOf} map
     * through {@code originalOffsets}, while {@link #offsetOf} takes a line and column of the translated
     * text (as a parser of it reports them).
     *
     * @param original        the file as written
     * @param text            the translated text
     * @param originalOffsets for each offset of {@code text} and its length, the offset in the original's
     *                        text (non-decreasing)
     * @return the translated file
     * @throws IllegalArgumentException when the offsets do not cover the text
     */
    public static SourceFile translated(SourceFile original, String text, int[] originalOffsets) {
        if (originalOffsets.length != text.length() + 1) {
            throw new IllegalArgumentException(
                    "offsets for " + originalOffsets.length + " positions, text of " + text.length() + " chars");
        }
        return new SourceFile(original.path, text, original, originalOffsets.clone());
    }

    private SourceFile(String path, String text, SourceFile original, int[] originalOffsets) {
        this.path = Objects.requireNonNull(path, "path");
        this.text = Objects.requireNonNull(text, "text");
        this.original = original;
        this.originalOffsets = originalOffsets;
        int[] starts = new int[16];
        int n = 0;
        starts[n++] = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                if (n == starts.length) {
                    starts = Arrays.copyOf(starts, n * 2);
                }
                starts[n++] = i + 1;
            }
        }
        this.lineStarts = Arrays.copyOf(starts, n);
    }

    /** @return the path relative to the scan root */
    public String path() {
        return path;
    }

    /** @return the whole decoded text */
    public String text() {
        return text;
    }

    /** @return the number of lines (at least 1) */
    public int lineCount() {
        return lineStarts.length;
    }

    /**
     * @param offset a char offset in {@link #text()}, clamped to {@code [0, length]}
     * @return its 1-based line
     */
    public int lineOf(int offset) {
        int o = Math.max(0, Math.min(offset, text.length()));
        if (original != null) {
            return original.lineOf(originalOffsets[o]);
        }
        return translatedLineOf(o);
    }

    private int translatedLineOf(int o) {
        int i = Arrays.binarySearch(lineStarts, o);
        return i >= 0 ? i + 1 : -i - 1;
    }

    /**
     * @param offset a char offset, clamped to {@code [0, length]}
     * @return its 1-based column in UTF-16 code units
     */
    public int columnOf(int offset) {
        int o = Math.max(0, Math.min(offset, text.length()));
        if (original != null) {
            return original.columnOf(originalOffsets[o]);
        }
        return o - lineStarts[translatedLineOf(o) - 1] + 1;
    }

    /**
     * @param line   1-based line, clamped to the file (of the translated text for a {@link #translated} file)
     * @param column 1-based column, clamped to the line start
     * @return the char offset
     */
    public int offsetOf(int line, int column) {
        int l = Math.max(1, Math.min(line, lineStarts.length));
        return Math.min(text.length(), lineStarts[l - 1] + Math.max(0, column - 1));
    }

    /**
     * @param start first char offset
     * @param end   char offset just past the region ({@code >= start})
     * @return the region in this file
     */
    public SourceRegion region(int start, int end) {
        int e = Math.max(start, end);
        if (original != null) {
            int s = Math.max(0, Math.min(start, text.length()));
            return original.region(originalOffsets[s], originalOffsets[Math.max(s, Math.min(e, text.length()))]);
        }
        return new SourceRegion(path, lineOf(start), columnOf(start), lineOf(e), columnOf(e));
    }

    /**
     * @param line 1-based line
     * @return the line's text without its terminator; empty for a line outside the file
     */
    public String lineText(int line) {
        if (line < 1 || line > lineStarts.length) {
            return "";
        }
        int start = lineStarts[line - 1];
        int end = line < lineStarts.length ? lineStarts[line] : text.length();
        while (end > start && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        return text.substring(start, end);
    }
}
