package io.github.pgadvisorylint.core.sql;

import java.util.List;

/**
 * The result of analysing one SQL text with {@link SqlAnalyzer#analyze(String)}.
 *
 * @param statements top-level statements in text order; immutable
 * @param calls      every advisory-lock call in text order (including those inside {@code DO} blocks and
 *                   PL/pgSQL / SQL function bodies); immutable
 * @param problems   what could not be analysed exactly (statements JSqlParser rejected that hold a
 *                   lock call, internal failures); immutable, empty for clean input
 */
public record SqlAnalysis(List<SqlStatement> statements, List<SqlLockCall> calls, List<SqlProblem> problems) {

    /** Copies the lists. */
    public SqlAnalysis {
        statements = List.copyOf(statements);
        calls = List.copyOf(calls);
        problems = List.copyOf(problems);
    }
}
