package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.SqlContext;
import java.util.List;

/**
 * One call of an advisory-lock function found in SQL text (RULES.md "What counts as a lock call").
 *
 * @param function       the function called
 * @param nameStart      offset of the function's name in the analysed text, without any
 *                       {@code pg_catalog.} prefix (UTF-16 index), inclusive
 * @param nameEnd        offset just past the name, exclusive
 * @param arguments      the arguments in order: 0 for {@code pg_advisory_unlock_all()}, 1 (bigint key)
 *                       or 2 (int pair key) otherwise; immutable
 * @param context        where the call sits in its statement (RULES.md F8, lock-in-limit-query)
 * @param statementIndex index into {@link SqlAnalysis#statements()} of the top-level statement holding
 *                       the call; for calls inside a {@code DO} block or a function body, the index of
 *                       that {@code DO} / {@code CREATE FUNCTION} statement (the context's
 *                       {@code statementText} is then the inner PL/pgSQL statement)
 */
public record SqlLockCall(
        AdvisoryFunction function,
        int nameStart,
        int nameEnd,
        List<SqlArgument> arguments,
        SqlContext context,
        int statementIndex) {

    /** Copies the argument list. */
    public SqlLockCall {
        arguments = List.copyOf(arguments);
    }
}
