package io.github.pgadvisorylint.core.model;

import java.util.Locale;
import java.util.Optional;

/**
 * A pooler's mode, as PgBouncer's "Configuration" page defines {@code pool_mode}: when a server
 * connection goes back to the pool. Session-level advisory locks are safe only in {@link #SESSION}
 * (PgBouncer "Features"; RULES.md F10).
 */
public enum PoolingMode {
    /** The server connection is released when the client disconnects; session state is kept. */
    SESSION,
    /** The server connection is released after each transaction. */
    TRANSACTION,
    /** The server connection is released after each statement; multi-statement transactions are refused. */
    STATEMENT;

    /**
     * @param value a configured value such as {@code transaction} or {@code " Session "}; may be null
     * @return the mode it names (case-insensitive, surrounding blanks ignored), or empty for anything else
     */
    public static Optional<PoolingMode> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "session" -> Optional.of(SESSION);
            case "transaction" -> Optional.of(TRANSACTION);
            case "statement" -> Optional.of(STATEMENT);
            default -> Optional.empty();
        };
    }

    /** @return the lower-case name used in PgBouncer configuration, e.g. {@code transaction} */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
