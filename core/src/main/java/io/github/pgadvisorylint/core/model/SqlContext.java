package io.github.pgadvisorylint.core.model;

/**
 * Where a lock function sits in its SQL statement, as far as the row-count rules need it
 * (RULES.md lock-in-limit-query, lock-in-row-filter, unbounded-lock-count; fact F8).
 *
 * @param clause           the clause of the innermost query block holding the call
 * @param limitKeyword     {@code LIMIT}, {@code OFFSET} or {@code FETCH} when that block or one
 *                         enclosing it limits its rows, else null
 * @param readsRows        true when the call's block, or a block between it and the limiting block,
 *                         reads rows from a table, join, subquery, CTE, VALUES or set-returning function
 * @param feedsRowChoice   true when the call's result decides which rows survive before the limit:
 *                         a DISTINCT or GROUP BY block, an ORDER BY that references it, or an arm of a
 *                         set operation (UNION/INTERSECT/EXCEPT)
 * @param depth            query nesting depth of the call's block, 0 for the outermost statement
 * @param parsedBySqlParser true when JSqlParser produced the structure; false for the lexical fallback
 * @param statementText    the whole SQL statement as analysed (placeholders as written)
 */
public record SqlContext(
        SqlClause clause,
        String limitKeyword,
        boolean readsRows,
        boolean feedsRowChoice,
        int depth,
        boolean parsedBySqlParser,
        String statementText) {

    /**
     * @return the components, with the statement text as its length and {@link String#hashCode()} (which a
     *     string caches): one statement with 10,000 lock calls gives 10,000 sites sharing one text, and digests
     *     of helper summaries print every site; the whole text 10,000 times took gigabytes
     */
    @Override
    public String toString() {
        return "SqlContext[clause=" + clause
                + ", limitKeyword=" + limitKeyword
                + ", readsRows=" + readsRows
                + ", feedsRowChoice=" + feedsRowChoice
                + ", depth=" + depth
                + ", parsedBySqlParser=" + parsedBySqlParser
                + ", statementText="
                + (statementText == null
                        ? "null"
                        : statementText.length() + " chars #" + Integer.toHexString(statementText.hashCode()))
                + "]";
    }

    /** @return true when a LIMIT, OFFSET or FETCH applies at the call's level or above */
    public boolean isLimited() {
        return limitKeyword != null;
    }
}
