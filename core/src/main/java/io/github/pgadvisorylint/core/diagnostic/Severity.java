package io.github.pgadvisorylint.core.diagnostic;

import java.util.Locale;

/**
 * Severity of a finding, named after SARIF 2.1.0 {@code result.level} (section 3.27.10), ordered
 * from least to most severe.
 */
public enum Severity {
    /** SARIF {@code note}. */
    NOTE,
    /** SARIF {@code warning}. */
    WARNING,
    /** SARIF {@code error}. */
    ERROR;

    /** @return the SARIF level word: {@code note}, {@code warning} or {@code error} */
    public String sarifLevel() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param word {@code error}, {@code warning} or {@code note}, any case
     * @return the severity
     * @throws IllegalArgumentException for any other word
     */
    public static Severity parse(String word) {
        for (Severity s : values()) {
            if (s.sarifLevel().equalsIgnoreCase(word.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown severity '" + word + "' (allowed: error, warning, note)");
    }
}
