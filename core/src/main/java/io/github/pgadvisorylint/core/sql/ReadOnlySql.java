package io.github.pgadvisorylint.core.sql;

import java.util.List;
import java.util.Locale;

/**
 * Whether SQL text only reads: every top-level statement is a {@code SELECT} ({@link StatementKind#SELECT}: also
 * {@code VALUES}, {@code TABLE}, {@code WITH .. SELECT}), and no token writes or locks rows anywhere in it (a
 * data-modifying {@code WITH}, {@code SELECT .. INTO}, {@code FOR UPDATE}/{@code FOR SHARE}) or calls a sequence or
 * advisory-lock function. Such a statement leaves nothing for a later commit to make visible, so a session unlock
 * before that commit exposes none of it (RULES.md F19). A function the text calls is taken not to write (precision
 * first: the finding it decides is {@code session-unlock-before-commit}). Read with the lexer; stateless.
 */
public final class ReadOnlySql {

    private ReadOnlySql() {}

    /**
     * @param sql SQL text; never null
     * @return true when the text holds at least one statement, and every statement only reads as described above
     */
    public static boolean readsOnly(String sql) {
        List<SqlToken> tokens = SqlLexer.lex(sql, 0, sql.length());
        int start = 0;
        boolean any = false;
        for (int i = 0; i <= tokens.size(); i++) {
            if (i < tokens.size() && !tokens.get(i).isPunct(";")) {
                continue;
            }
            if (i > start) {
                if (SqlAnalyzer.kindOf(tokens, start, i) != StatementKind.SELECT) {
                    return false;
                }
                any = true;
            }
            start = i + 1;
        }
        for (SqlToken t : tokens) {
            if (t.type() == SqlToken.Type.IDENT && writesOrLocks(t)) {
                return false;
            }
        }
        return any;
    }

    /** @return whether a key word or function name writes, locks rows, or takes a value that is never rolled back */
    private static boolean writesOrLocks(SqlToken t) {
        return t.is("INSERT")
                || t.is("UPDATE")
                || t.is("DELETE")
                || t.is("MERGE")
                || t.is("INTO")
                || t.is("FOR")
                || t.is("NEXTVAL")
                || t.is("SETVAL")
                || t.text().toLowerCase(Locale.ROOT).contains("advisory");
    }
}
