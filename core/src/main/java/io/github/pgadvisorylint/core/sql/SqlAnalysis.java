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

    /** Evidence for a lock in a {@code DO} block: the block is one statement, so one transaction. */
    public static final String DO_BLOCK_TRANSACTION = "a DO block runs as one transaction";

    /** Evidence for a lock followed by more statements in one query string (F17). */
    public static final String MULTI_STATEMENT_TRANSACTION =
            "the statements of one query string run as one implicit transaction";

    /** Copies the lists. */
    public SqlAnalysis {
        statements = List.copyOf(statements);
        calls = List.copyOf(calls);
        problems = List.copyOf(problems);
    }

    /**
     * For SQL text sent to the server as one query: why {@code call} runs in one transaction with the SQL after it in
     * the text, whatever the connection's mode, so that a transaction-level lock lasts until that SQL has run.
     *
     * @param call a lock call of this analysis
     * @return {@link #MULTI_STATEMENT_TRANSACTION} when further statements follow the call's (F17),
     *     {@link #DO_BLOCK_TRANSACTION} when the call is in a {@code DO} block, else null
     */
    public String ownTransaction(SqlLockCall call) {
        int index = call.statementIndex();
        if (index < statements.size() - 1) {
            return MULTI_STATEMENT_TRANSACTION;
        }
        return index < statements.size() && statements.get(index).kind() == StatementKind.DO_BLOCK
                ? DO_BLOCK_TRANSACTION
                : null;
    }
}
