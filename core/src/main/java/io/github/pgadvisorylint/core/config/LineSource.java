package io.github.pgadvisorylint.core.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a {@link MappedText} (a whole file or a YAML block scalar), split at {@code \n},
 * {@code \r\n} and a lone {@code \r}, each without its terminator.
 */
final class LineSource {

    private final MappedText text;
    private final List<int[]> bounds = new ArrayList<>();

    LineSource(MappedText text) {
        this.text = text;
        String s = text.text();
        int start = 0;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r') {
                bounds.add(new int[] {start, i});
                i += c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n' ? 2 : 1;
                start = i;
            } else {
                i++;
            }
        }
        if (start < s.length()) {
            bounds.add(new int[] {start, s.length()});
        }
    }

    /** Lines of the file text between two offsets, without copying the offsets of the whole file at once. */
    static LineSource of(String fileText, int from, int to) {
        return new LineSource(MappedText.slice(fileText, from, to));
    }

    int count() {
        return bounds.size();
    }

    MappedText line(int i) {
        int[] b = bounds.get(i);
        return text.sub(b[0], b[1]);
    }
}
