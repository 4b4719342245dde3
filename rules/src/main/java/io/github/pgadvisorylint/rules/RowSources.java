package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SqlContext;
import java.util.regex.Matcher;
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

    /** The lock call alone, in optional parentheses, with nothing after it but the block's own limit. */
    private static final String LOCK_ALONE_THEN_LIMIT =
            "where\\s*(?:\\(\\s*)*(?:pg_catalog\\.)?pg_(?:try_)?advisory_(?:xact_)?lock(?:_shared)?\\s*\\([^()]*\\)"
                    + "(?:\\s*\\))*\\s*(?:limit\\s+[\\w?:$]+|fetch\\s+first\\b[^()]*)?\\s*;?\\s*$";

    /** {@code SELECT .. FROM (<inner>) [AS] alias [(columns)] WHERE lock(..) [LIMIT n]}. */
    private static final Pattern LOCK_ALONE_OVER_SUBQUERY = Pattern.compile(
            "(?is)^\\s*select\\b(?:(?!\\bfrom\\b).)*\\bfrom\\s*\\((.*)\\)\\s*(?:as\\s+)?\\w+\\s*(?:\\([^()]*\\))?\\s*"
                    + LOCK_ALONE_THEN_LIMIT);

    /** {@code WITH name AS [[NOT] MATERIALIZED] (<inner>) SELECT .. FROM name [[AS] alias] WHERE lock(..) [LIMIT n]}. */
    private static final Pattern LOCK_ALONE_OVER_CTE = Pattern.compile(
            "(?is)^\\s*with\\s+(\\w+)\\s+as\\s+(?:not\\s+)?(?:materialized\\s+)?\\((.*)\\)\\s*select\\b(?:(?!\\bfrom\\b).)*"
                    + "\\bfrom\\s+\\1\\b\\s*(?:(?:as\\s+)?(?!where\\b)\\w+\\s*)?"
                    + LOCK_ALONE_THEN_LIMIT);

    /** A query whose own last clause, outside any parentheses, is a LIMIT or FETCH FIRST. */
    private static final Pattern ENDS_LIMITED = Pattern.compile("(?is).*\\b(?:limit|fetch\\s+first)\\b[^()]*");

    private static final Pattern OR = Pattern.compile("(?i)\\bor\\b");

    private static final Pattern COMMENTS = Pattern.compile("(?s)/\\*.*?\\*/|--[^\\n]*");

    private RowSources() {}

    /**
     * @param sql a lock call's context
     * @return true when the lock call is the whole {@code WHERE} (parentheses aside) of a query block that reads
     *     one subquery or CTE ending in its own {@code LIMIT}, and nothing but the block's limit follows it
     *     ({@code SELECT id FROM (SELECT id FROM jobs ORDER BY prio LIMIT 100) q WHERE pg_try_advisory_lock(id)
     *     LIMIT 1}): PostgreSQL pushes no filter into a subquery with a LIMIT, so the lock runs above it and the
     *     outer limit stops at the first rows it passes, locking exactly the rows returned. Without the inner
     *     LIMIT the filter is pushed into the subquery's scan, below its sort, and locks every candidate (F8, both
     *     measured per version by the facts suite). Comments are ignored.
     */
    static boolean lockAloneOverLimitedSubquery(SqlContext sql) {
        String text = COMMENTS.matcher(sql.statementText()).replaceAll(" ");
        Matcher sub = LOCK_ALONE_OVER_SUBQUERY.matcher(text);
        if (sub.matches()) {
            return ENDS_LIMITED.matcher(sub.group(1)).matches();
        }
        Matcher cte = LOCK_ALONE_OVER_CTE.matcher(text);
        return cte.matches() && ENDS_LIMITED.matcher(cte.group(2)).matches();
    }

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
     * @param site a lock site whose key reads columns of the rows
     * @return true when the statement's WHERE pins every column of the key to one value, with no {@code OR}
     *     ({@code SELECT pg_try_advisory_lock(job_id) FROM jobs WHERE job_id = ?}): however many rows it reads,
     *     they all lock one key
     */
    static boolean pinsKeyColumns(LockSite site) {
        String text = site.sql().statementText();
        if (OR.matcher(text).find()) {
            return false;
        }
        boolean any = false;
        for (KeyPart p : site.key().parts()) {
            if (p.kind() != KeyPart.Kind.COLUMN) {
                continue;
            }
            String column = p.expression().substring(p.expression().lastIndexOf('.') + 1);
            if (!column.matches("\\w+")
                    || !Pattern.compile("(?is)\\bwhere\\b.*?(?<![\\w.])(?:\\w+\\.)?" + column
                                    + "\\s*=\\s*(?:\\?|:\\w+|\\$\\d+|\\d+|'[^']*')")
                            .matcher(text)
                            .find()) {
                return false;
            }
            any = true;
        }
        return any;
    }

    /**
     * @param sql a lock call's context
     * @return true when the statement's WHERE pins {@code id} (any alias) to one value with no {@code OR}:
     *     a primary-key lookup that reads one row
     */
    static boolean isKeyLookup(SqlContext sql) {
        String text = sql.statementText();
        return KEY_LOOKUP.matcher(text).find() && !OR.matcher(text).find();
    }
}
