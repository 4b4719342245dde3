package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.SqlClause;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.SimpleNode;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

/**
 * Builds the scopes of one statement from JSqlParser's syntax tree, with the same meaning as
 * {@link LexicalContexts}: every parenthesised select adds one level of depth, a CTE body is a
 * top of its own, a set operation's arms share its LIMIT.
 *
 * <p>JSqlParser quirks relied on (5.3): {@code Function.getASTNode().jjtGetFirstToken().absoluteBegin}
 * is the 1-based UTF-16 offset of the function's first name part in the parsed text; a CTE body is
 * a {@link ParenthesedSelect}; {@code LIMIT ALL} is a {@link Limit} with {@code isLimitAll()}.
 * The parser is called directly ({@code newParser(text).Statement()}): {@code CCJSqlParserUtil.parse}
 * runs each statement on a new thread.
 */
final class ParserContexts {

    /** One advisory-lock function found in the tree. */
    record AstCall(int offset, String name, LexicalContexts.Placement placement) {}

    /** The outcome of parsing one statement: calls, or the parser's complaint. */
    record Result(List<AstCall> calls, String error) {}

    private ParserContexts() {}

    /**
     * Parses one statement and places every advisory-lock function in it. Never throws.
     *
     * @param text the statement text (sanitised, offsets preserved), without the trailing semicolon
     * @return the calls, or an error message when JSqlParser rejects the text
     */
    static Result parse(String text) {
        Statement st;
        try {
            st = parseOnce(text, false);
        } catch (Throwable first) {
            try {
                st = parseOnce(text, true);
            } catch (Throwable second) {
                return new Result(List.of(), firstLine(first));
            }
        }
        try {
            Walker w = new Walker();
            w.statement(st);
            return new Result(w.calls, null);
        } catch (Throwable t) {
            return new Result(
                    List.of(),
                    "JSqlParser tree could not be walked: " + t.getClass().getSimpleName());
        }
    }

    private static Statement parseOnce(String text, boolean complex) throws Exception {
        CCJSqlParser p = CCJSqlParserUtil.newParser(text).withAllowComplexParsing(complex);
        Statement st = p.Statement();
        Token next = p.getNextToken();
        if (next != null && next.kind != 0) {
            throw new IllegalStateException("Encountered unexpected token: \"" + next.image + "\"");
        }
        return st;
    }

    private static String firstLine(Throwable t) {
        String m = String.valueOf(t.getMessage());
        int nl = m.indexOf('\n');
        m = nl < 0 ? m : m.substring(0, nl);
        return m.length() > 200 ? m.substring(0, 200) + "..." : m.strip();
    }

    /** @return the lower-case function name when {@code f} is one of the 11 functions, bare or pg_catalog-qualified */
    static String advisoryName(Function f) {
        List<String> parts = f.getMultipartName();
        if (parts == null || parts.isEmpty() || parts.size() > 2) {
            return null;
        }
        String last = unquote(parts.get(parts.size() - 1));
        if (parts.size() == 2 && !"pg_catalog".equals(unquote(parts.get(0)))) {
            return null;
        }
        return AdvisoryFunction.byName(last).map(AdvisoryFunction::sqlName).orElse(null);
    }

    private static String unquote(String s) {
        if (s != null && s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
            return s.substring(1, s.length() - 1);
        }
        return s == null ? "" : s.toLowerCase(Locale.ROOT);
    }

    private static String limitOf(Select s) {
        Limit l = s.getLimit();
        if (l != null && !l.isLimitAll() && !(l.getRowCount() instanceof NullValue)) {
            return "LIMIT";
        }
        if (s.getFetch() != null) {
            return "FETCH";
        }
        if (s.getOffset() != null || (l != null && l.getOffset() != null)) {
            return "OFFSET";
        }
        return null;
    }

    private static final class Walker extends ExpressionVisitorAdapter<Void> {
        final List<AstCall> calls = new ArrayList<>();
        Scope scope = new Scope(null, 0);
        SqlClause clause = SqlClause.OTHER;
        int item = -1;
        /** The last arm of a set operation whose LIMIT was moved to the set operation. */
        Select hoisted;

        void statement(Statement st) {
            if (st instanceof Select s) {
                select(s, null, 0, false, false);
            } else if (st instanceof Insert ins) {
                withItems(ins.getWithItemsList(), 0);
                if (ins.getSelect() != null) {
                    select(ins.getSelect(), null, 0, false, false);
                }
            } else if (st instanceof Update up) {
                withItems(up.getWithItemsList(), 0);
                Scope sc = new Scope(null, 0);
                sc.readsRows = true;
                sc.hasFrom = true;
                if (up.getUpdateSets() != null) {
                    for (UpdateSet set : up.getUpdateSets()) {
                        expr(set.getValues(), sc, SqlClause.OTHER, -1);
                    }
                }
                if (up.getFromItem() != null) {
                    fromItem(up.getFromItem(), sc);
                }
                joins(up.getJoins(), sc);
                expr(up.getWhere(), sc, SqlClause.WHERE, -1);
            } else if (st instanceof Delete del) {
                withItems(del.getWithItemsList(), 0);
                Scope sc = new Scope(null, 0);
                sc.readsRows = true;
                sc.hasFrom = true;
                joins(del.getJoins(), sc);
                expr(del.getWhere(), sc, SqlClause.WHERE, -1);
            }
        }

        private void withItems(List<WithItem<?>> items, int depth) {
            if (items == null) {
                return;
            }
            for (WithItem<?> w : items) {
                if (w.getSelect() != null) {
                    select(w.getSelect(), null, depth, true, false);
                }
            }
        }

        /** Walks a select whose enclosing scope is {@code parent}; {@code depth} is the enclosing level. */
        void select(Select s, Scope parent, int depth, boolean cteTop, boolean arm) {
            if (s instanceof ParenthesedSelect ps) {
                withItems(ps.getWithItemsList(), depth);
                Scope holder = parent;
                if (limitOf(ps) != null || ps.getOrderByElements() != null) {
                    holder = new Scope(parent, depth);
                    holder.limitKeyword = limitOf(ps);
                    orderKeys(ps.getOrderByElements(), holder);
                    orderBy(ps.getOrderByElements(), holder);
                }
                if (ps.getSelect() != null) {
                    select(ps.getSelect(), holder, depth + 1, cteTop, arm);
                }
                return;
            }
            withItems(s.getWithItemsList(), depth);
            Scope sc = new Scope(parent, depth);
            sc.sameLevelAsParent = parent != null && parent.depth == depth;
            sc.cteTop = cteTop;
            sc.choosesRows = arm;
            sc.limitKeyword = s == hoisted ? null : limitOf(s);
            orderKeys(s.getOrderByElements(), sc);
            if (s instanceof PlainSelect p) {
                sc.choosesRows |= p.getDistinct() != null || p.getGroupBy() != null;
                sc.hasFrom = p.getFromItem() != null;
                List<SelectItem<?>> items = p.getSelectItems();
                if (items != null) {
                    for (int i = 0; i < items.size(); i++) {
                        SelectItem<?> si = items.get(i);
                        if (si.getAlias() != null) {
                            sc.setAlias(i, unquote(si.getAlias().getName()));
                        }
                    }
                    for (int i = 0; i < items.size(); i++) {
                        expr(items.get(i).getExpression(), sc, SqlClause.SELECT_LIST, i);
                    }
                }
                if (p.getFromItem() != null) {
                    fromItem(p.getFromItem(), sc);
                }
                joins(p.getJoins(), sc);
                expr(p.getWhere(), sc, SqlClause.WHERE, -1);
                if (p.getGroupBy() != null) {
                    expr(p.getGroupBy().getGroupByExpressionList(), sc, SqlClause.GROUP_BY, -1);
                }
                expr(p.getHaving(), sc, SqlClause.HAVING, -1);
            } else if (s instanceof SetOperationList so) {
                List<Select> arms = so.getSelects();
                if (arms != null && !arms.isEmpty() && sc.limitKeyword == null) {
                    // JSqlParser quirk: in "SELECT .. UNION SELECT .. LIMIT 1" the LIMIT is attached to the
                    // last arm; PostgreSQL applies it to the whole set operation.
                    Select lastArm = arms.get(arms.size() - 1);
                    if (!(lastArm instanceof ParenthesedSelect) && limitOf(lastArm) != null) {
                        sc.limitKeyword = limitOf(lastArm);
                        hoisted = lastArm;
                    }
                }
                if (arms != null) {
                    for (Select a : arms) {
                        select(a, sc, depth, false, arms.size() >= 2);
                    }
                }
            } else if (s instanceof Values v) {
                expr(v.getExpressions(), sc, SqlClause.OTHER, -1);
            }
            orderBy(s.getOrderByElements(), sc);
        }

        private void orderKeys(List<OrderByElement> elements, Scope sc) {
            if (elements == null) {
                return;
            }
            for (OrderByElement o : elements) {
                Expression e = o.getExpression();
                if (e instanceof Column c && c.getTable() == null) {
                    sc.addOrderKey(unquote(c.getColumnName()));
                } else if (e instanceof LongValue lv) {
                    sc.addOrderKey(lv.getStringValue());
                }
            }
        }

        private void orderBy(List<OrderByElement> elements, Scope sc) {
            if (elements != null) {
                for (OrderByElement o : elements) {
                    expr(o.getExpression(), sc, SqlClause.ORDER_BY, -1);
                }
            }
        }

        private void joins(List<Join> joins, Scope sc) {
            if (joins == null) {
                return;
            }
            for (Join j : joins) {
                if (j.getFromItem() != null) {
                    fromItem(j.getFromItem(), sc);
                }
                if (j.getOnExpressions() != null) {
                    for (Expression on : j.getOnExpressions()) {
                        expr(on, sc, SqlClause.JOIN_CONDITION, -1);
                    }
                }
            }
        }

        private void fromItem(FromItem fi, Scope sc) {
            if (fi instanceof Table) {
                sc.readsRows = true;
            } else if (fi instanceof ParenthesedSelect ps) {
                sc.readsRows = true;
                select(ps, sc, sc.depth, false, false);
            } else if (fi instanceof TableFunction tf) {
                Function f = tf.getFunction();
                if (f == null || advisoryName(f) == null) {
                    sc.readsRows = true;
                }
                if (f != null) {
                    expr(f, sc, SqlClause.FROM, -1);
                }
            } else if (fi instanceof ParenthesedFromItem pfi) {
                sc.readsRows = true;
                if (pfi.getFromItem() != null) {
                    fromItem(pfi.getFromItem(), sc);
                }
                joins(pfi.getJoins(), sc);
            } else if (fi != null) {
                sc.readsRows = true;
            }
        }

        private void expr(Expression e, Scope sc, SqlClause c, int itemIndex) {
            if (e == null) {
                return;
            }
            Scope savedScope = scope;
            SqlClause savedClause = clause;
            int savedItem = item;
            scope = sc;
            clause = c;
            item = itemIndex;
            try {
                e.accept(this, null);
            } finally {
                scope = savedScope;
                clause = savedClause;
                item = savedItem;
            }
        }

        @Override
        public <S> Void visit(Function f, S context) {
            String name = advisoryName(f);
            if (name != null) {
                SimpleNode node = f.getASTNode();
                int offset = -1;
                if (node != null && node.jjtGetFirstToken() != null) {
                    offset = node.jjtGetFirstToken().absoluteBegin - 1;
                }
                calls.add(new AstCall(offset, name, new LexicalContexts.Placement(scope, clause, item)));
            }
            return super.visit(f, context);
        }

        @Override
        public <S> Void visit(ParenthesedSelect ps, S context) {
            select(ps, scope, scope.depth, false, false);
            return null;
        }

        @Override
        public <S> Void visit(Select s, S context) {
            if (s instanceof ParenthesedSelect ps) {
                return visit(ps, context);
            }
            select(s, scope, scope.depth, false, false);
            return null;
        }
    }
}
