package io.github.pgadvisorylint.core.model;

import java.util.Locale;

/**
 * The user's pooling setting ({@code --pooling}, the Maven parameter {@code pooling}): {@code auto}
 * reads the evidence in the project's configuration; the other values override it.
 */
public enum PoolingSetting {
    /** Decide from configuration evidence. */
    AUTO,
    /** Connections go through a pooler in transaction mode: session-level locks are errors. */
    TRANSACTION,
    /** Connections go through a pooler in statement mode: session-level locks are errors. */
    STATEMENT,
    /** A session-mode pooler, or none: session-level locks are fine. */
    SESSION,
    /** No pooler: ignore any evidence. */
    NONE;

    /**
     * @param value {@code auto|transaction|statement|session|none}, any case
     * @return the setting
     * @throws IllegalArgumentException for any other value, naming the allowed ones
     */
    public static PoolingSetting parse(String value) {
        for (PoolingSetting s : values()) {
            if (s.name().equalsIgnoreCase(value.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException(
                "unknown pooling mode '" + value + "' (allowed: auto, transaction, statement, session, none)");
    }

    /** @return the lower-case word, e.g. {@code transaction} */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
