package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One level of query structure as both context builders (JSqlParser and lexical) describe it, and
 * the one place where a call's {@link SqlContext} is computed from a chain of scopes, so that both
 * paths agree by construction.
 */
final class Scope {
    /** Enclosing scope; null at the top of the statement. */
    Scope parent;
    /** Query nesting depth: number of enclosing parenthesised query blocks. */
    int depth;
    /** LIMIT / FETCH / OFFSET that limits this scope's rows, else null. */
    String limitKeyword;
    /** True when this scope has a FROM item that reads rows (anything but an advisory-lock function). */
    boolean readsRows;
    /** True when this scope has DISTINCT / GROUP BY or is an arm of a set operation with at least two arms. */
    boolean choosesRows;
    /** True for a CTE body: enclosing LIMITs do not reach into it (a CTE with volatile functions is materialised). */
    boolean cteTop;
    /** True when this scope has a FROM clause at all. */
    boolean hasFrom;
    /** True when {@link #parent} is the same query level (a set operation and its unparenthesised arm). */
    boolean sameLevelAsParent;
    /** Simple ORDER BY elements: lower-cased names and ordinals as text. */
    final Set<String> orderKeys = new HashSet<>();
    /** Alias of each select item, null where none. */
    final List<String> aliases = new ArrayList<>();

    Scope(Scope parent, int depth) {
        this.parent = parent;
        this.depth = depth;
    }

    void addOrderKey(String key) {
        if (key != null) {
            orderKeys.add(key.toLowerCase(Locale.ROOT));
        }
    }

    void setAlias(int item, String alias) {
        while (aliases.size() <= item) {
            aliases.add(null);
        }
        aliases.set(item, alias == null ? null : alias.toLowerCase(Locale.ROOT));
    }

    /**
     * Computes the context of a call (RULES.md lock-in-limit-query and F8).
     *
     * @param clause     the clause holding the call in this scope
     * @param item       the select item index holding the call when {@code clause == SELECT_LIST}, else -1
     * @param perform    true when the statement is a PL/pgSQL {@code PERFORM}
     * @param parsed     whether JSqlParser produced the structure
     * @param statement  statement text
     */
    SqlContext contextOf(SqlClause clause, int item, boolean perform, boolean parsed, String statement) {
        String limit = null;
        boolean reads = false;
        for (Scope s = this; s != null; s = s.parent) {
            reads |= s.readsRows;
            if (s.limitKeyword != null) {
                limit = s.limitKeyword;
                break;
            }
            if (s.cteTop) {
                break;
            }
        }
        boolean feeds = choosesRows || clause == SqlClause.ORDER_BY;
        if (!feeds && clause == SqlClause.SELECT_LIST && item >= 0) {
            String ordinal = Integer.toString(item + 1);
            String alias = item < aliases.size() ? aliases.get(item) : null;
            for (Scope s = this; s != null; s = s.sameLevelAsParent ? s.parent : null) {
                if (s.orderKeys.contains(ordinal) || (alias != null && s.orderKeys.contains(alias))) {
                    feeds = true;
                }
            }
        }
        SqlClause c = clause;
        if (perform && depth == 0 && clause == SqlClause.SELECT_LIST && !hasFrom) {
            c = SqlClause.CALL;
        }
        return new SqlContext(c, limit, reads, feeds, depth, parsed, statement);
    }
}
