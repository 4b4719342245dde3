package io.github.pgadvisorylint.core.report;

import java.util.Locale;

/** The report formats the tool writes, with their command-line names. */
public enum ReportFormat {
    /** Compiler-style lines for people and editors; see {@link TextReporter}. */
    TEXT,
    /** SARIF 2.1.0 for GitHub code scanning and IDE viewers; see {@link SarifReporter}. */
    SARIF,
    /** The tool's own JSON document; see {@link JsonReporter}. */
    JSON;

    /** @return the lower-case name used on the command line and in messages: {@code text}, {@code sarif}, {@code json} */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the name shown to users in the text summary: {@code Text}, {@code SARIF}, {@code JSON} */
    public String displayName() {
        return this == TEXT ? "Text" : name();
    }

    /**
     * @param word {@code text}, {@code sarif} or {@code json}, any case
     * @return the format
     * @throws IllegalArgumentException for any other word, naming the allowed ones
     */
    public static ReportFormat parse(String word) {
        for (ReportFormat f : values()) {
            if (f.id().equalsIgnoreCase(word.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + word + "' (allowed: text, sarif, json)");
    }
}
