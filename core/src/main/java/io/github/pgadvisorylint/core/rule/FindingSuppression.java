package io.github.pgadvisorylint.core.rule;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * Why a finding is not reported as active: SARIF 2.1.0 {@code suppression} object (section 3.35),
 * written into {@code result.suppressions} (section 3.27.23) when suppressed results are shown.
 *
 * @param kind          where the suppression is written (section 3.35.2)
 * @param justification the reason the user gave, plain text; empty when none was given (section 3.35.4)
 * @param location      where the suppression is written: the ignore comment or the
 *                      {@code @SuppressWarnings} value in source, the baseline file (line 1) for
 *                      {@link Kind#EXTERNAL}; never null (section 3.35.5)
 */
public record FindingSuppression(Kind kind, String justification, SourceRegion location) {

    /** SARIF {@code suppression.kind} (section 3.35.2). */
    public enum Kind {
        /** In the analysed source: an ignore comment or a {@code @SuppressWarnings} annotation. */
        IN_SOURCE("inSource"),
        /** Outside the source: the entry of a baseline file. */
        EXTERNAL("external");

        private final String sarifKind;

        Kind(String sarifKind) {
            this.sarifKind = sarifKind;
        }

        /** @return the SARIF word: {@code inSource} or {@code external} */
        public String sarifKind() {
            return sarifKind;
        }
    }

    /** Checks the fields; a null justification becomes empty. */
    public FindingSuppression {
        Objects.requireNonNull(kind, "kind");
        justification = justification == null ? "" : justification.trim();
        Objects.requireNonNull(location, "location");
    }
}
