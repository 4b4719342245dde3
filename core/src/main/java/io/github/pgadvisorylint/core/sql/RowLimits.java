package io.github.pgadvisorylint.core.sql;

import java.util.List;
import java.util.Locale;

/**
 * Whether a query's text caps the number of rows it returns: {@code LIMIT n}, {@code LIMIT ?} (any parameter form),
 * or {@code FETCH FIRST|NEXT}; {@code LIMIT ALL} caps nothing (PostgreSQL docs, "SELECT", LIMIT clause). Read with
 * the lexer, so a {@code limit} inside a string, a quoted identifier or a comment does not count. A limit anywhere in
 * the text counts, a subquery's included: precision first, since a loop over such rows is reported as unbounded only
 * when nothing in the query bounds it (RULES.md unbounded-lock-count). Stateless.
 */
public final class RowLimits {

    private RowLimits() {}

    /**
     * @param sql SQL text, possibly partial; never null
     * @return true when a {@code LIMIT} followed by a number or a parameter, or a {@code FETCH FIRST}/{@code FETCH
     *     NEXT}, appears in it
     */
    public static boolean limitsRows(String sql) {
        List<SqlToken> tokens = SqlLexer.lex(sql, 0, sql.length());
        for (int i = 0; i + 1 < tokens.size(); i++) {
            SqlToken t = tokens.get(i);
            if (t.type() != SqlToken.Type.IDENT) {
                continue;
            }
            String word = t.text().toLowerCase(Locale.ROOT);
            SqlToken next = tokens.get(i + 1);
            if (word.equals("limit") && (next.type() == SqlToken.Type.NUMBER || next.type() == SqlToken.Type.PARAM)) {
                return true;
            }
            if (word.equals("fetch")
                    && next.type() == SqlToken.Type.IDENT
                    && (next.text().equalsIgnoreCase("first") || next.text().equalsIgnoreCase("next"))) {
                return true;
            }
        }
        return false;
    }
}
