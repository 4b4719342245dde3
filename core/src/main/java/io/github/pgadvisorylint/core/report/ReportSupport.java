package io.github.pgadvisorylint.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.rule.Finding;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** Ordering and JSON output shared by the reporters. */
final class ReportSupport {

    /** Findings by primary region, then rule id, message and fingerprint: a total, stable order. */
    static final Comparator<Finding> FINDING_ORDER = Comparator.comparing(Finding::region)
            .thenComparing(Finding::ruleId)
            .thenComparing(Finding::message)
            .thenComparing(Finding::fingerprint);

    static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * Two-space indentation, {@code "\n"} line ends on every platform, {@code "key": value}, and
     * {@code []}/{@code {}} for empty containers: byte-identical output everywhere.
     */
    private static final ObjectWriter WRITER;

    private static final DefaultPrettyPrinter PRINTER;

    static {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(separators)
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter);
        WRITER = MAPPER.writer(printer);
        PRINTER = printer;
    }

    private ReportSupport() {}

    static List<Finding> sortedFindings(List<Finding> findings) {
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(FINDING_ORDER);
        return sorted;
    }

    static List<Notification> sortedNotifications(List<Notification> notifications) {
        List<Notification> sorted = new ArrayList<>(notifications);
        sorted.sort(Comparator.naturalOrder());
        return sorted;
    }

    /**
     * A generator that writes exactly as {@link #writeJson} does (the same factory, escaping and
     * pretty printer), for reports written piece by piece. Closing it flushes it but leaves
     * {@code out} open.
     */
    static JsonGenerator generator(Writer out) throws IOException {
        JsonGenerator g = MAPPER.getFactory().createGenerator(out);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.setPrettyPrinter(PRINTER.createInstance());
        return g;
    }

    /** Writes the tree pretty-printed, followed by one {@code "\n"}. */
    static void writeJson(JsonNode root, Writer out) throws IOException {
        out.write(WRITER.writeValueAsString(root));
        out.write('\n');
    }

    /**
     * Replaces line breaks and tabs with spaces, and with U+FFFD the characters XML 1.0 forbids, unpaired
     * surrogates and every other character a terminal or a viewer acts on ({@link TerminalText#needsEscape}:
     * DEL, the C1 controls, the Unicode line separators and bidirectional controls).
     */
    static String xmlText(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n' || c == '\t') {
                sb.append(' ');
            } else if (c < 0x20 || TerminalText.needsEscape(c) || c == 0xFFFE || c == 0xFFFF) {
                sb.append('\uFFFD');
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    sb.append(c).append(s.charAt(++i));
                } else {
                    sb.append('\uFFFD');
                }
            } else if (Character.isLowSurrogate(c)) {
                sb.append('\uFFFD');
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** @return e.g. {@code 1 error}, {@code 3 notes}: the count and the noun, plural with an {@code s} */
    static String plural(long count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }

    /**
     * @param findings active findings
     * @return rule id (sorted) to its counts of errors, warnings and notes, in that order; rules without a
     *     finding are absent
     */
    static SortedMap<String, long[]> countsPerRule(List<Finding> findings) {
        SortedMap<String, long[]> perRule = new TreeMap<>();
        for (Finding f : findings) {
            long[] counts = perRule.computeIfAbsent(f.ruleId(), k -> new long[3]);
            counts[
                    switch (f.severity()) {
                        case ERROR -> 0;
                        case WARNING -> 1;
                        case NOTE -> 2;
                    }]++;
        }
        return perRule;
    }
}
