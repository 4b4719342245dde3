package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.SqlClause;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The lexical query-block analysis used when JSqlParser rejects a statement (or cannot be mapped):
 * paren groups starting with SELECT/WITH/VALUES are query blocks; clause key words at a block's own
 * level switch its current clause (select list, FROM, JOIN .. ON, WHERE, GROUP BY, HAVING, ORDER BY,
 * LIMIT, OFFSET, FETCH, set-operation arms, WITH .. AS (..) CTE bodies). One iterative pass over the
 * tokens: linear time, no recursion, safe on unbalanced input.
 */
final class LexicalContexts {

    /** Where a call sits: its scope, clause and select item index (-1 outside the select list). */
    record Placement(Scope scope, SqlClause clause, int item) {}

    private static final class Block {
        final Scope scope;
        final List<Scope> arms = new ArrayList<>();
        final Block parentBlock;
        Scope arm;
        SqlClause clause = SqlClause.OTHER;
        boolean inWith;
        boolean expectItem;
        boolean afterJoin;
        int item;
        int setOps;
        int nonQueryDepth;
        int tokensSeen;
        boolean armCandidate;
        boolean hasLimit;
        boolean hasFetch;
        boolean hasOffset;
        SqlToken last;
        SqlToken secondLast;
        SqlToken itemLast;
        SqlToken itemSecondLast;
        boolean orderElemStart;
        String orderCandidate;
        boolean orderSimple;

        Block(Block parentBlock, Scope parentScope, int depth) {
            this.parentBlock = parentBlock;
            this.scope = new Scope(parentScope, depth);
            newArm();
        }

        void newArm() {
            arm = new Scope(scope, scope.depth);
            arm.sameLevelAsParent = true;
            arms.add(arm);
            item = 0;
            itemLast = null;
            itemSecondLast = null;
        }

        void commitItem() {
            if (itemLast != null
                    && (itemLast.type() == SqlToken.Type.IDENT || itemLast.type() == SqlToken.Type.QUOTED_IDENT)
                    && itemSecondLast != null
                    && (itemSecondLast.is("AS") || itemSecondLast.isPunct(")"))) {
                arm.setAlias(item, itemLast.identName());
            }
            itemLast = null;
            itemSecondLast = null;
        }

        void commitOrder() {
            if (orderCandidate != null && orderSimple) {
                scope.addOrderKey(orderCandidate);
            }
            orderCandidate = null;
        }

        void setClause(SqlClause c) {
            if (clause == SqlClause.SELECT_LIST) {
                commitItem();
            } else if (clause == SqlClause.ORDER_BY) {
                commitOrder();
            }
            clause = c;
            expectItem = false;
        }

        void noteToken(SqlToken t) {
            secondLast = last;
            last = t;
            tokensSeen++;
            if (clause == SqlClause.SELECT_LIST) {
                itemSecondLast = itemLast;
                itemLast = t;
            }
        }
    }

    private LexicalContexts() {}

    /**
     * @param toks        tokens of the region
     * @param s           first token of the statement
     * @param e           token index just past the statement
     * @param callTokens  token indices of the names of the lock calls to place
     * @return the placement of every call token (calls in unbalanced input get the enclosing block)
     */
    static Map<Integer, Placement> analyse(List<SqlToken> toks, int s, int e, Set<Integer> callTokens) {
        boolean[] queryStart = new boolean[Math.max(0, e - s) + 1];
        for (int i = e - 2; i >= s; i--) {
            if (toks.get(i).isPunct("(")) {
                SqlToken nx = toks.get(i + 1);
                queryStart[i - s] = nx.is("SELECT")
                        || nx.is("WITH")
                        || nx.is("VALUES")
                        || (nx.isPunct("(") && queryStart[i + 1 - s]);
            }
        }
        Map<Integer, Placement> out = new HashMap<>();
        List<Block> all = new ArrayList<>();
        List<Block> stack = new ArrayList<>();
        Block top = new Block(null, null, 0);
        all.add(top);
        stack.add(top);
        for (int i = s; i < e; i++) {
            SqlToken t = toks.get(i);
            Block b = stack.get(stack.size() - 1);
            boolean level = b.nonQueryDepth == 0;
            if (callTokens.contains(i)) {
                out.put(i, new Placement(b.arm, b.clause, b.clause == SqlClause.SELECT_LIST ? b.item : -1));
            }
            if (t.isPunct("(")) {
                if (queryStart[i - s]) {
                    Block child = new Block(b, b.arm, b.scope.depth + 1);
                    if (level) {
                        child.scope.cteTop = b.inWith;
                        child.armCandidate = b.tokensSeen == 0 || isSetOpTail(b);
                        fromItem(b, toks, i);
                        b.noteToken(t);
                    }
                    all.add(child);
                    stack.add(child);
                } else {
                    if (level) {
                        fromItem(b, toks, i);
                        if (b.clause == SqlClause.ORDER_BY) {
                            b.orderSimple = false;
                        }
                        b.noteToken(t);
                    }
                    b.nonQueryDepth++;
                }
                continue;
            }
            if (t.isPunct(")")) {
                if (b.nonQueryDepth > 0) {
                    b.nonQueryDepth--;
                    if (b.nonQueryDepth == 0) {
                        b.noteToken(t);
                    }
                } else if (stack.size() > 1) {
                    stack.remove(stack.size() - 1);
                    Block p = stack.get(stack.size() - 1);
                    if (p.nonQueryDepth == 0) {
                        p.noteToken(t);
                    }
                }
                continue;
            }
            if (!level) {
                continue;
            }
            blockToken(b, toks, i, e);
            b.noteToken(t);
        }
        for (Block b : all) {
            b.setClause(SqlClause.OTHER);
            b.scope.limitKeyword = b.hasLimit ? "LIMIT" : b.hasFetch ? "FETCH" : b.hasOffset ? "OFFSET" : null;
            if (b.setOps > 0) {
                b.arms.forEach(a -> a.choosesRows = true);
            }
            if (b.armCandidate && b.parentBlock != null && b.parentBlock.setOps > 0) {
                b.arms.forEach(a -> a.choosesRows = true);
            }
        }
        return out;
    }

    private static boolean isSetOpTail(Block b) {
        SqlToken l = b.last;
        if (l == null) {
            return false;
        }
        if (l.is("UNION") || l.is("INTERSECT") || l.is("EXCEPT")) {
            return true;
        }
        SqlToken p = b.secondLast;
        return (l.is("ALL") || l.is("DISTINCT")) && p != null && (p.is("UNION") || p.is("INTERSECT") || p.is("EXCEPT"));
    }

    /** A FROM item starts at token {@code i}: decide whether it reads rows. */
    private static void fromItem(Block b, List<SqlToken> toks, int i) {
        if (!b.expectItem) {
            return;
        }
        SqlToken t = toks.get(i);
        if (t.is("LATERAL") || t.is("ONLY")) {
            return;
        }
        b.expectItem = false;
        if (t.type() == SqlToken.Type.IDENT || t.type() == SqlToken.Type.QUOTED_IDENT) {
            int name = i;
            if (i + 2 < toks.size()
                    && "pg_catalog".equals(t.identName())
                    && toks.get(i + 1).isPunct(".")) {
                name = i + 2;
            }
            boolean lockFunction = name + 1 < toks.size()
                    && toks.get(name + 1).isPunct("(")
                    && AdvisoryFunction.byName(toks.get(name).identName()).isPresent();
            if (!lockFunction) {
                b.arm.readsRows = true;
            }
        } else if (t.isPunct("(")) {
            b.arm.readsRows = true;
        }
    }

    private static void blockToken(Block b, List<SqlToken> toks, int i, int e) {
        SqlToken t = toks.get(i);
        SqlToken next = i + 1 < e ? toks.get(i + 1) : null;
        if (t.isPunct(",")) {
            if (b.clause == SqlClause.SELECT_LIST) {
                b.commitItem();
                b.item++;
            } else if (b.clause == SqlClause.FROM) {
                b.expectItem = true;
            } else if (b.clause == SqlClause.ORDER_BY) {
                b.commitOrder();
                b.orderElemStart = true;
            }
            return;
        }
        if (b.clause == SqlClause.FROM && b.expectItem) {
            fromItem(b, toks, i);
            return;
        }
        if (b.clause == SqlClause.ORDER_BY && !isClauseWord(t)) {
            if (t.is("BY") && b.last != null && b.last.is("ORDER")) {
                b.orderElemStart = true;
            } else if (b.orderElemStart) {
                b.orderElemStart = false;
                b.orderSimple = true;
                b.orderCandidate = t.type() == SqlToken.Type.NUMBER ? t.text() : t.identName();
            } else if (!(t.is("ASC") || t.is("DESC") || t.is("NULLS") || t.is("FIRST") || t.is("LAST"))) {
                b.orderSimple = false;
            }
            return;
        }
        if (t.type() != SqlToken.Type.IDENT) {
            return;
        }
        String w = t.text().toUpperCase(Locale.ROOT);
        switch (w) {
            case "SELECT", "PERFORM" -> {
                b.setClause(SqlClause.SELECT_LIST);
                b.inWith = false;
                b.item = 0;
            }
            case "DISTINCT" -> {
                if (b.last != null && b.last.is("SELECT") && b.clause == SqlClause.SELECT_LIST) {
                    b.arm.choosesRows = true;
                }
            }
            case "FROM" -> {
                boolean isDistinctFrom = b.last != null
                        && b.last.is("DISTINCT")
                        && b.secondLast != null
                        && (b.secondLast.is("IS") || b.secondLast.is("NOT"));
                if (!isDistinctFrom) {
                    b.setClause(SqlClause.FROM);
                    b.arm.hasFrom = true;
                    b.expectItem = true;
                    b.afterJoin = false;
                }
            }
            case "JOIN" -> {
                if (b.clause == SqlClause.FROM || b.clause == SqlClause.JOIN_CONDITION) {
                    b.setClause(SqlClause.FROM);
                    b.expectItem = true;
                    b.afterJoin = true;
                }
            }
            case "ON" -> {
                if (next != null && next.is("CONFLICT")) {
                    b.setClause(SqlClause.OTHER);
                } else if (b.clause == SqlClause.FROM && b.afterJoin) {
                    b.setClause(SqlClause.JOIN_CONDITION);
                }
            }
            case "USING" -> {
                if (b.clause == SqlClause.FROM && !b.afterJoin) {
                    b.expectItem = true;
                }
            }
            case "WHERE" -> b.setClause(SqlClause.WHERE);
            case "GROUP" -> {
                if (next != null && next.is("BY")) {
                    b.setClause(SqlClause.GROUP_BY);
                    b.arm.choosesRows = true;
                }
            }
            case "HAVING" -> b.setClause(SqlClause.HAVING);
            case "ORDER" -> {
                if (next != null && next.is("BY")) {
                    b.setClause(SqlClause.ORDER_BY);
                    b.orderElemStart = false;
                }
            }
            case "LIMIT" -> {
                b.setClause(SqlClause.OTHER);
                if (next == null || !(next.is("ALL") || next.is("NULL"))) {
                    b.hasLimit = true;
                }
            }
            case "OFFSET" -> {
                b.setClause(SqlClause.OTHER);
                b.hasOffset = true;
            }
            case "FETCH" -> {
                if (next != null && (next.is("FIRST") || next.is("NEXT"))) {
                    b.setClause(SqlClause.OTHER);
                    b.hasFetch = true;
                }
            }
            case "UNION", "INTERSECT", "EXCEPT" -> {
                b.setClause(SqlClause.OTHER);
                b.setOps++;
                b.newArm();
            }
            case "WITH" -> {
                if (b.tokensSeen == 0) {
                    b.inWith = true;
                }
            }
            case "UPDATE" -> {
                boolean locking = b.last != null && (b.last.is("FOR") || b.last.is("KEY") || b.last.is("DO"));
                b.setClause(SqlClause.OTHER);
                if (!locking) {
                    b.inWith = false;
                    b.arm.readsRows = true;
                    b.arm.hasFrom = true;
                }
            }
            case "VALUES", "INSERT", "DELETE", "MERGE" -> {
                b.setClause(SqlClause.OTHER);
                b.inWith = false;
            }
            case "SET", "RETURNING", "INTO", "FOR", "WINDOW" -> b.setClause(SqlClause.OTHER);
            case "CALL" -> b.setClause(SqlClause.CALL);
            default -> {}
        }
    }

    private static boolean isClauseWord(SqlToken t) {
        return t.type() == SqlToken.Type.IDENT && isReserved(t);
    }

    private static boolean isReserved(SqlToken t) {
        return switch (t.text().toUpperCase(Locale.ROOT)) {
            case "LIMIT", "OFFSET", "FETCH", "FOR", "UNION", "INTERSECT", "EXCEPT", "INTO", "WINDOW", "RETURNING" ->
                true;
            default -> false;
        };
    }
}
