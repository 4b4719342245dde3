package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * Why a blocking advisory-lock call cannot wait forever: a {@code lock_timeout} or
 * {@code statement_timeout} in force where it runs (RULES.md blocking-lock-without-timeout; F12:
 * {@code lock_timeout} cancels a waiting advisory-lock call with SQLSTATE 55P03).
 *
 * @param kind        where the timeout comes from
 * @param description a short phrase for messages, e.g. {@code SET LOCAL lock_timeout earlier in the script}; never null
 * @param region      where it is written, or null
 */
public record TimeoutEvidence(Kind kind, String description, SourceRegion region) {

    /** Sources of a timeout. */
    public enum Kind {
        /** {@code SET [LOCAL] lock_timeout|statement_timeout} or {@code set_config(...)} earlier in the SQL string, script or method. */
        SQL_SET,
        /** {@code Statement.setQueryTimeout(n)} (or a JPA / jOOQ query timeout) on the executing statement or template. */
        QUERY_TIMEOUT,
        /** Spring {@code @Transactional(timeout = n)} on the method or class. */
        TRANSACTION_TIMEOUT,
        /** A {@code SET ... lock_timeout} clause of the {@code CREATE FUNCTION} holding the call. */
        FUNCTION_SETTING,
        /** Configuration: JDBC URL {@code options=-c lock_timeout=...}, a data-source {@code options} property, connection-init SQL. */
        CONNECTION_SETTING
    }

    /** Checks that the required fields are present. */
    public TimeoutEvidence {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
    }
}
