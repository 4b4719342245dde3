package io.github.pgadvisorylint.core.api;

import java.util.Objects;

/**
 * What a type of a data-access library is to a connection.
 *
 * @param family     its library
 * @param simpleName its simple name, as code declares it ({@code JdbcTemplate})
 * @param source     what it is to a connection
 */
public record TypeFact(ApiFamily family, String simpleName, ConnectionSource source) {

    /** @throws NullPointerException when a field is null */
    public TypeFact {
        Objects.requireNonNull(family);
        Objects.requireNonNull(simpleName);
        Objects.requireNonNull(source);
    }
}
