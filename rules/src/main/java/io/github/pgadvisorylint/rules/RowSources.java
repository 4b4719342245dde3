package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.model.SqlContext;
import java.util.regex.Pattern;

/** Lexical facts about the rows a lock call's statement reads, shared by the row-count rules. */
final class RowSources {

    private static final Pattern LIMIT = Pattern.compile("(?i)\\b(limit|fetch\\s+(first|next))\\b");
    private static final Pattern KEY_LOOKUP = Pattern.compile(
            "(?is)\\bwhere\\b(?:(?!\\bor\\b).)*?(?<![\\w.])(?:\\w+\\.)?id\\s*=\\s*(\\?|:\\w+|\\$\\d+|\\d+|'[^']*'|#\\{[^}]*})");
    private static final Pattern VALUES_SOURCE = Pattern.compile("(?is)\\bfrom\\s*\\(\\s*values\\b");

    private static final Pattern SORTED_SUBQUERY_ONLY = Pattern.compile(
            "(?is)^\\s*select\\b(?:(?!\\bfrom\\b).)*\\bfrom\\s*\\((.*\\border\\s+by\\b[^()]*(?:\\([^()]*\\)[^()]*)*)\\)"
                    + "\\s*(?:as\\s+)?\\w+\\s*;?\\s*$");

    private RowSources() {}

    /**
     * @param sql a lock call's context
     * @return true when the statement reads only one subquery whose last clause sorts its rows, with no
     *     join, filter or grouping outside it ({@code SELECT pg_advisory_xact_lock(k) FROM (SELECT .. ORDER BY k) s}):
     *     the form the rule pages give for locking many rows in a fixed order
     */
    static boolean sortedSubqueryOnly(SqlContext sql) {
        return SORTED_SUBQUERY_ONLY.matcher(sql.statementText()).matches();
    }

    /**
     * @param sql a lock call's context
     * @return true when the statement limits rows somewhere (a subquery or CTE with its own LIMIT or
     *     FETCH FIRST) or reads a literal VALUES list: the rows reaching the call are bounded
     */
    static boolean limitedSource(SqlContext sql) {
        String text = sql.statementText();
        return LIMIT.matcher(text).find() || VALUES_SOURCE.matcher(text).find();
    }

    /**
     * @param sql a lock call's context
     * @return true when the statement's WHERE pins {@code id} (any alias) to one value with no {@code OR}:
     *     a primary-key lookup that reads one row
     */
    static boolean isKeyLookup(SqlContext sql) {
        String text = sql.statementText();
        return KEY_LOOKUP.matcher(text).find()
                && !Pattern.compile("(?i)\\bor\\b").matcher(text).find();
    }
}
