package io.github.pgadvisorylint.core.sql;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether SQL text only reads: a {@code SELECT} (or {@code WITH ... SELECT}, {@code VALUES}, {@code SHOW}) that names
 * no writing statement, takes no row lock ({@code FOR UPDATE}/{@code FOR SHARE}) and calls no advisory-lock or sequence
 * function. Such a statement leaves nothing for a later commit to make visible, so a session unlock before that commit
 * exposes none of it (RULES.md F19). A function the text calls is taken not to write (precision first: the finding it
 * would decide is {@code session-unlock-before-commit}). Read with the lexer; several statements read only when each
 * does. Stateless.
 */
public final class ReadOnlySql {

    private static final Set<String> FIRST_WORDS = Set.of("select", "with", "values", "show", "table");
    private static final Set<String> WRITING_WORDS = Set.of(
            "insert",
            "update",
            "delete",
            "merge",
            "into",
            "create",
            "alter",
            "drop",
            "truncate",
            "copy",
            "call",
            "do",
            "lock",
            "grant",
            "revoke",
            "refresh",
            "vacuum",
            "analyze",
            "notify",
            "listen",
            "set",
            "reset",
            "nextval",
            "setval",
            "begin",
            "commit",
            "rollback",
            "for");

    private ReadOnlySql() {}

    /**
     * @param sql SQL text; never null
     * @return true when every statement of it starts with a reading word and no token names a write, a row lock, a
     *     transaction command or a sequence or advisory-lock function; false for empty text
     */
    public static boolean readsOnly(String sql) {
        List<SqlToken> tokens = SqlLexer.lex(sql, 0, sql.length());
        boolean statementStart = true;
        boolean any = false;
        for (SqlToken t : tokens) {
            if (t.type() == SqlToken.Type.PUNCT && t.text().equals(";")) {
                statementStart = true;
                continue;
            }
            if (t.type() != SqlToken.Type.IDENT) {
                if (statementStart) {
                    return false;
                }
                continue;
            }
            String word = t.text().toLowerCase(Locale.ROOT);
            if (statementStart) {
                if (!FIRST_WORDS.contains(word)) {
                    return false;
                }
                statementStart = false;
                any = true;
            }
            if (WRITING_WORDS.contains(word) || word.contains("advisory")) {
                return false;
            }
        }
        return any;
    }
}
