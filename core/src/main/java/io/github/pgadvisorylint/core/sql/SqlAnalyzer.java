package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The SQL front end: finds every advisory-lock call in a SQL text, with its arguments and its query
 * context.
 *
 * <p>Pipeline: a PostgreSQL-aware lexer; a statement splitter on top-level {@code ;}; lock calls
 * found lexically (RULES.md "What counts as a lock call": one of the 11 names, bare or
 * {@code pg_catalog.}-qualified, followed by {@code (}, with an arity the function accepts, and not a
 * single string-literal argument: the {@code text} overload does not exist); text in comments and
 * strings is never a call, except the dollar-quoted bodies of {@code DO} and
 * {@code CREATE FUNCTION/PROCEDURE} (PL/pgSQL or SQL), which are analysed recursively with
 * {@code PERFORM} read as {@code SELECT}; then each call's {@link SqlContext} from JSqlParser when it
 * parses the statement, else from a lexical query-block analysis that gives the same answer for the
 * same SQL (RULES.md F8 and lock-in-limit-query).
 *
 * <p>Thread-safe and stateless. Linear-ish in the text length; never throws and never overflows the
 * stack (JSqlParser is skipped for statements over {@value #MAX_PARSE_CHARS} characters, nested deeper
 * than {@value #MAX_PARSE_NESTING} parentheses and brackets together, whose parentheses or brackets do
 * not balance, or with a {@code CASE} without {@code END}, and any error it raises is caught).
 */
public final class SqlAnalyzer {

    /** Statements longer than this are analysed lexically only (JSqlParser can be slow on them). */
    static final int MAX_PARSE_CHARS = 20_000;
    /** Statements whose parentheses and brackets nest deeper than this are analysed lexically only. */
    static final int MAX_PARSE_NESTING = 12;
    /** Nesting up to which a statement costs JSqlParser little: it is not counted in {@link #NESTED_PARSE_BUDGET}. */
    static final int CHEAP_NESTING = 4;
    /**
     * Work JSqlParser may spend on deeply nested statements of one text, in units of one statement nested
     * {@value #CHEAP_NESTING} + 1 deep; a statement nested {@code d} deep costs 1.5^(d - {@value
     * #CHEAP_NESTING}) units (measured: each level of {@code IN (SELECT ...)} makes its lookahead about
     * 1.5 times slower; 12 levels take about a second). Statements over the budget are analysed
     * lexically, so a file of hundreds of such statements costs seconds, not minutes, on any machine.
     */
    static final double NESTED_PARSE_BUDGET = 200;
    /** How deep DO blocks / function bodies inside bodies are followed. */
    private static final int MAX_BODY_NESTING = 4;

    private final boolean useParser;

    /** Creates an analyzer that uses JSqlParser where it can, and the lexical analysis elsewhere. */
    public SqlAnalyzer() {
        this(true);
    }

    /** @param useParser false forces the lexical path for every statement (tests compare both paths) */
    SqlAnalyzer(boolean useParser) {
        this.useParser = useParser;
    }

    /**
     * Analyses one SQL text: a whole {@code .sql} file or one Java string, possibly several statements.
     *
     * @param sql the text; null is treated as empty
     * @return statements, lock calls (offsets into {@code sql}) and problems; never null. This method
     *     never throws: for any input (binary garbage, unterminated quotes, deep nesting) it returns what
     *     it found, with a {@link SqlProblem} when something went wrong internally
     */
    public SqlAnalysis analyze(String sql) {
        if (sql == null || sql.isEmpty()) {
            return new SqlAnalysis(List.of(), List.of(), List.of());
        }
        Run run = new Run(sql);
        try {
            run.analyseText();
        } catch (Throwable t) { // NOPMD: the contract is to never throw, whatever the input
            run.problems.add(new SqlProblem(
                    0, "SQL analysis stopped early (" + t.getClass().getSimpleName() + "); results may be incomplete"));
        }
        run.calls.sort(Comparator.comparingInt(SqlLockCall::nameStart));
        return new SqlAnalysis(run.statements, withoutGuardedProbes(sql, run.calls), run.problems);
    }

    /** Between a try-lock's last argument and an unlock it guards: {@code ) THEN}, with {@code = true} or {@code NOT} around. */
    private static final Pattern CASE_GUARD =
            Pattern.compile("(?is)\\s*\\)\\s*(?:=\\s*true\\s*)?then\\s*(?:not\\s+)?\\(?\\s*(?:pg_catalog\\s*\\.\\s*)?");

    /**
     * Drops the pairs {@code CASE WHEN pg_try_advisory_lock(k) THEN pg_advisory_unlock(k) ... END} of one
     * statement: the unlock runs only when the try-lock took the key (PostgreSQL evaluates a CASE's
     * branches only when their condition holds), so the statement holds nothing when it ends. It probes
     * whether the key is free; it neither takes a lock that outlives it nor releases one it did not take.
     */
    private static List<SqlLockCall> withoutGuardedProbes(String sql, List<SqlLockCall> calls) {
        Set<SqlLockCall> dropped = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i + 1 < calls.size(); i++) {
            SqlLockCall t = calls.get(i);
            SqlLockCall r = calls.get(i + 1);
            if (t.function().operation() != LockOperation.TRY_ACQUIRE
                    || r.function().operation() != LockOperation.RELEASE
                    || t.function().level() != LockLevel.SESSION
                    || t.function().mode() != r.function().mode()
                    || t.statementIndex() != r.statementIndex()
                    || t.arguments().isEmpty()
                    || !sameArguments(t, r)) {
                continue;
            }
            int from = t.arguments().get(t.arguments().size() - 1).end();
            if (from <= r.nameStart()
                    && r.nameStart() <= sql.length()
                    && CASE_GUARD.matcher(sql.substring(from, r.nameStart())).matches()) {
                dropped.add(t);
                dropped.add(r);
            }
        }
        if (dropped.isEmpty()) {
            return calls;
        }
        List<SqlLockCall> kept = new ArrayList<>();
        for (SqlLockCall c : calls) {
            if (!dropped.contains(c)) {
                kept.add(c);
            }
        }
        return kept;
    }

    private static boolean sameArguments(SqlLockCall a, SqlLockCall b) {
        if (a.arguments().size() != b.arguments().size()) {
            return false;
        }
        for (int i = 0; i < a.arguments().size(); i++) {
            String x = a.arguments().get(i).text().replaceAll("\\s+", "");
            String y = b.arguments().get(i).text().replaceAll("\\s+", "");
            if (!x.equals(y)) { // two ? are two parameters: the same text, bound by the caller
                return false;
            }
        }
        return true;
    }

    /** A lock call found lexically, before its context is known. */
    private record LexCall(AdvisoryFunction function, int nameTok, int qualStart, List<SqlArgument> args) {}

    /** The state of one {@link #analyze} call. */
    private final class Run {
        /** Units of {@link #NESTED_PARSE_BUDGET} spent so far on this text. */
        private double nestedParseWork;

        final String sql;
        final List<SqlStatement> statements = new ArrayList<>();
        final List<SqlLockCall> calls = new ArrayList<>();
        final List<SqlProblem> problems = new ArrayList<>();

        Run(String sql) {
            this.sql = sql;
        }

        void analyseText() {
            List<SqlToken> toks = SqlLexer.lex(sql, 0, sql.length());
            int[] match = matchBrackets(toks);
            for (int[] r : split(toks, 0, toks.size())) {
                int a = r[0];
                int b = r[1];
                StatementKind kind = kindOf(toks, a, b);
                int index = statements.size();
                statements.add(
                        new SqlStatement(toks.get(a).start(), toks.get(b - 1).end(), kind));
                statement(toks, match, a, b, kind, index, false, 0);
            }
        }

        /** Analyses statement {@code toks[a, b)}. */
        void statement(
                List<SqlToken> toks,
                int[] match,
                int a,
                int b,
                StatementKind kind,
                int index,
                boolean inBody,
                int nesting) {
            if (kind == StatementKind.DO_BLOCK || kind == StatementKind.CREATE_FUNCTION) {
                if (nesting < MAX_BODY_NESTING) {
                    for (int[] body : bodies(toks, a, b, kind)) {
                        body(body[0], body[1], index, nesting + 1);
                    }
                }
                return;
            }
            List<LexCall> found = findCalls(toks, match, a, b);
            if (found.isEmpty()) {
                return;
            }
            int base = toks.get(a).start();
            String text = sql.substring(base, toks.get(b - 1).end());
            boolean jdbcEscape = toks.get(a).isPunct("{");
            boolean perform = toks.get(a).is("PERFORM");
            Map<Integer, SqlContext> contexts = new HashMap<>();
            String rejected = null;
            int parens = nestingOf(toks, a, b);
            // an interrupted thread runs a file abandoned over its time budget: skip the costly parser so it ends soon
            boolean abandoned = Thread.currentThread().isInterrupted();
            double cost = parens > CHEAP_NESTING ? Math.pow(1.5, parens - CHEAP_NESTING) : 0;
            boolean overBudget = nestedParseWork + cost > NESTED_PARSE_BUDGET;
            boolean parseable = useParser
                    && !jdbcEscape
                    && kind != StatementKind.OTHER
                    && !abandoned
                    && text.length() <= MAX_PARSE_CHARS
                    && parens >= 0
                    && parens <= MAX_PARSE_NESTING
                    && !overBudget;
            if (parseable) {
                nestedParseWork += cost;
            }
            if (useParser && !jdbcEscape && kind != StatementKind.OTHER && !parseable) {
                // JSqlParser's lookahead grows exponentially with nested or unbalanced parentheses and brackets,
                // and with unclosed CASE expressions
                rejected = abandoned
                        ? "analysis abandoned over the time budget"
                        : parens == UNBALANCED_PARENTHESES
                                ? "unbalanced parentheses"
                                : parens == UNBALANCED_BRACKETS
                                        ? "unbalanced brackets"
                                        : parens == UNCLOSED_CASE
                                                ? "CASE without END"
                                                : parens > MAX_PARSE_NESTING
                                                        ? "parentheses and brackets nested " + parens
                                                                + " deep (more than " + MAX_PARSE_NESTING + ")"
                                                        : text.length() > MAX_PARSE_CHARS
                                                                ? "statement longer than " + MAX_PARSE_CHARS
                                                                        + " characters"
                                                                : "the text's parser budget for deeply nested"
                                                                        + " statements is spent";
            }
            if (parseable) {
                ParserContexts.Result r = ParserContexts.parse(sanitize(toks, a, b, base, text, inBody));
                if (r.error() != null) {
                    rejected = r.error();
                } else if (kind == StatementKind.CALL) {
                    for (LexCall c : found) {
                        contexts.put(c.nameTok(), new SqlContext(SqlClause.CALL, null, false, false, 0, true, text));
                    }
                } else {
                    mapParsed(found, r.calls(), base, perform, text, contexts);
                }
            }
            if (contexts.size() < found.size()) {
                Set<Integer> want = new HashSet<>();
                for (LexCall c : found) {
                    if (!contexts.containsKey(c.nameTok())) {
                        want.add(c.nameTok());
                    }
                }
                Map<Integer, LexicalContexts.Placement> placed = LexicalContexts.analyse(toks, a, b, want);
                for (int tok : want) {
                    LexicalContexts.Placement p = placed.get(tok);
                    contexts.put(
                            tok,
                            p == null
                                    ? new SqlContext(SqlClause.OTHER, null, false, false, 0, false, text)
                                    : p.scope().contextOf(p.clause(), p.item(), perform, false, text));
                }
            }
            if (rejected != null) {
                problems.add(new SqlProblem(
                        base, "JSqlParser could not parse this statement (" + rejected + "); analysed lexically"));
            }
            for (LexCall c : found) {
                SqlToken name = toks.get(c.nameTok());
                calls.add(new SqlLockCall(
                        c.function(), name.start(), name.end(), c.args(), contexts.get(c.nameTok()), index));
            }
        }

        private void mapParsed(
                List<LexCall> found,
                List<ParserContexts.AstCall> ast,
                int base,
                boolean perform,
                String text,
                Map<Integer, SqlContext> out) {
            Map<Integer, ParserContexts.AstCall> byOffset = new HashMap<>();
            boolean allPositioned = true;
            for (ParserContexts.AstCall c : ast) {
                allPositioned &= c.offset() >= 0;
                byOffset.putIfAbsent(c.offset(), c);
            }
            boolean mapped = allPositioned;
            if (allPositioned) {
                for (LexCall c : found) {
                    ParserContexts.AstCall m = byOffset.get(c.qualStart() - base);
                    if (m == null || !m.name().equals(c.function().sqlName())) {
                        mapped = false;
                        break;
                    }
                }
            }
            if (mapped) {
                for (LexCall c : found) {
                    out.put(c.nameTok(), contextOf(byOffset.get(c.qualStart() - base), perform, text));
                }
            } else if (ast.size() == found.size()) {
                for (int i = 0; i < found.size(); i++) {
                    if (!ast.get(i).name().equals(found.get(i).function().sqlName())) {
                        return;
                    }
                }
                for (int i = 0; i < found.size(); i++) {
                    out.put(found.get(i).nameTok(), contextOf(ast.get(i), perform, text));
                }
            }
        }

        private SqlContext contextOf(ParserContexts.AstCall c, boolean perform, String text) {
            LexicalContexts.Placement p = c.placement();
            return p.scope().contextOf(p.clause(), p.item(), perform, true, text);
        }

        /** Analyses a PL/pgSQL or SQL body {@code sql[from, to)}. */
        void body(int from, int to, int index, int nesting) {
            List<SqlToken> toks = SqlLexer.lex(sql, from, to);
            int[] match = matchBrackets(toks);
            for (int[] r : split(toks, 0, toks.size())) {
                int a = r[0];
                int b = r[1];
                StatementKind lead = kindOf(toks, a, b);
                if (lead == StatementKind.DO_BLOCK || lead == StatementKind.CREATE_FUNCTION) {
                    statement(toks, match, a, b, lead, index, true, nesting);
                    continue;
                }
                // PL/pgSQL control words end the SQL before them: FOR r IN SELECT .. LOOP PERFORM ..;
                // IF .. THEN PERFORM ..; a CASE expression's THEN/ELSE stays inside its SQL.
                int depth = 0;
                int caseDepth = 0;
                int pieceStart = a;
                for (int i = a; i <= b; i++) {
                    boolean cut = i == b;
                    if (!cut) {
                        SqlToken t = toks.get(i);
                        if (t.isPunct("(")) {
                            depth++;
                        } else if (t.isPunct(")")) {
                            depth = Math.max(0, depth - 1);
                        } else if (depth == 0 && t.is("CASE")) {
                            caseDepth++;
                        } else if (depth == 0 && t.is("END") && caseDepth > 0) {
                            caseDepth--;
                        } else if (depth == 0
                                && (t.is("LOOP")
                                        || t.is("BEGIN")
                                        || t.is("DECLARE")
                                        || (caseDepth == 0 && (t.is("THEN") || t.is("ELSE"))))) {
                            cut = true;
                        }
                    }
                    if (cut) {
                        if (i > pieceStart) {
                            plpgsqlPiece(toks, match, pieceStart, i, index, nesting);
                        }
                        pieceStart = i + 1;
                    }
                }
            }
        }

        /** One PL/pgSQL statement or expression {@code toks[a, b)}: a SQL statement from its first key word on. */
        private void plpgsqlPiece(List<SqlToken> toks, int[] match, int a, int b, int index, int nesting) {
            int k = -1;
            int depth = 0;
            for (int i = a; i < b && k < 0; i++) {
                SqlToken t = toks.get(i);
                if (t.isPunct("(")) {
                    depth++;
                } else if (t.isPunct(")")) {
                    depth = Math.max(0, depth - 1);
                } else if (depth == 0 && isStatementStart(t)) {
                    k = i;
                }
            }
            if (k < 0) {
                statement(toks, match, a, b, StatementKind.OTHER, index, true, nesting);
            } else {
                if (k > a) {
                    statement(toks, match, a, k, StatementKind.OTHER, index, true, nesting);
                }
                statement(toks, match, k, b, kindOf(toks, k, b), index, true, nesting);
            }
        }

        /** A copy of the statement text JSqlParser can read, with every offset unchanged. */
        private String sanitize(List<SqlToken> toks, int a, int b, int base, String text, boolean inBody) {
            char[] cs = text.toCharArray();
            for (int i = a; i < b; i++) {
                SqlToken t = toks.get(i);
                int s = t.start() - base;
                if (t.type() == SqlToken.Type.PARAM
                        && (t.text().startsWith("#{") || t.text().startsWith("${"))) {
                    cs[s] = '?';
                    for (int k = s + 1; k < t.end() - base; k++) {
                        cs[k] = ' ';
                    }
                } else if (i == a && t.is("PERFORM")) {
                    "SELECT ".getChars(0, 7, cs, s);
                } else if (inBody && t.is("STRICT") && i > a && toks.get(i - 1).is("INTO")) {
                    for (int k = s; k < t.end() - base; k++) {
                        cs[k] = ' ';
                    }
                }
            }
            return new String(cs);
        }

        private List<LexCall> findCalls(List<SqlToken> toks, int[] match, int a, int b) {
            List<LexCall> out = new ArrayList<>();
            for (int i = a; i + 1 < b; i++) {
                SqlToken t = toks.get(i);
                String name = t.identName();
                if (name == null || !toks.get(i + 1).isPunct("(")) {
                    continue;
                }
                Optional<AdvisoryFunction> f = AdvisoryFunction.byName(name);
                if (f.isEmpty()
                        || (t.type() == SqlToken.Type.QUOTED_IDENT
                                && !name.equals(f.get().sqlName()))) {
                    continue;
                }
                int close = match[i + 1];
                if (close < 0 || close >= b) {
                    // lexical fallback for unbalanced parentheses ("pg_advisory_lock((1);"): in a statement that
                    // ends with ";" the arguments run to its end, and the statement's note says it was analysed
                    // lexically; a fragment without ";" ("SELECT pg_advisory_lock(" + key + ...) is no call
                    if (b >= toks.size() || !toks.get(b).isPunct(";")) {
                        continue;
                    }
                    // the arguments end after the last parenthesis closed inside the call, if any
                    close = b;
                    for (int j = b - 1; j > i + 1; j--) {
                        if (toks.get(j).isPunct(")") && match[j] > i + 1 && match[j] < j) {
                            close = j + 1;
                            break;
                        }
                    }
                }
                int qualStart = t.start();
                if (i > a && toks.get(i - 1).isPunct(".")) {
                    if (i - 2 < a
                            || !"pg_catalog".equals(toks.get(i - 2).identName())
                            || (i - 3 >= a && toks.get(i - 3).isPunct("."))) {
                        continue;
                    }
                    qualStart = toks.get(i - 2).start();
                } else if (i > a
                        && (toks.get(i - 1).is("FUNCTION") || toks.get(i - 1).is("PROCEDURE"))) {
                    continue;
                }
                List<int[]> argRanges = new ArrayList<>();
                int argStart = i + 2;
                for (int j = i + 2; j < close; j++) {
                    SqlToken x = toks.get(j);
                    if ((x.isPunct("(") || x.isPunct("[")) && match[j] > j && match[j] < close) {
                        j = match[j];
                    } else if (x.isPunct(",")) {
                        argRanges.add(new int[] {argStart, j});
                        argStart = j + 1;
                    }
                }
                if (close > i + 2 || !argRanges.isEmpty()) {
                    argRanges.add(new int[] {argStart, close});
                }
                if (!f.get().acceptsArity(argRanges.size())) {
                    continue;
                }
                boolean empty = argRanges.stream().anyMatch(r -> r[0] >= r[1]);
                if (empty) {
                    continue;
                }
                if (argRanges.size() == 1
                        && argRanges.get(0)[1] - argRanges.get(0)[0] == 1
                        && toks.get(argRanges.get(0)[0]).type() == SqlToken.Type.STRING) {
                    continue;
                }
                List<SqlArgument> args = new ArrayList<>();
                for (int[] r : argRanges) {
                    args.add(argument(toks, match, r[0], r[1]));
                }
                out.add(new LexCall(f.get(), i, qualStart, args));
            }
            return out;
        }

        private SqlArgument argument(List<SqlToken> toks, int[] match, int a, int b) {
            int start = toks.get(a).start();
            int end = toks.get(b - 1).end();
            String text = sql.substring(start, end);
            int lo = a;
            int hi = b;
            boolean negative = false;
            boolean signed = false;
            boolean cast = false;
            for (int guard = 0; guard < 10_000 && hi - lo > 1; guard++) {
                SqlToken first = toks.get(lo);
                if (first.isPunct("(") && match[lo] == hi - 1) {
                    lo++;
                    hi--;
                    continue;
                }
                int castAt = lastTopLevelCast(toks, match, lo, hi);
                if (castAt > lo) {
                    hi = castAt;
                    cast = true;
                    continue;
                }
                if (first.is("CAST") && toks.get(lo + 1).isPunct("(") && match[lo + 1] == hi - 1) {
                    int as = -1;
                    for (int j = lo + 2; j < hi - 1; j++) {
                        if ((toks.get(j).isPunct("(") || toks.get(j).isPunct("[")) && match[j] > j) {
                            j = match[j];
                        } else if (toks.get(j).is("AS")) {
                            as = j;
                        }
                    }
                    if (as > lo + 2) {
                        lo = lo + 2;
                        hi = as;
                        cast = true;
                        continue;
                    }
                    break;
                }
                if (first.isPunct("-") || first.isPunct("+")) {
                    negative ^= first.isPunct("-");
                    signed = true;
                    lo++;
                    continue;
                }
                break;
            }
            if (hi - lo == 1) {
                SqlToken t = toks.get(lo);
                Long v = null;
                if (t.type() == SqlToken.Type.NUMBER) {
                    v = integerValue(t.text(), negative);
                } else if (t.type() == SqlToken.Type.STRING
                        && cast
                        && t.text().startsWith("'")
                        && t.text().endsWith("'")
                        && t.text().length() >= 2) {
                    String inner = t.text().substring(1, t.text().length() - 1).strip();
                    boolean innerNegative = inner.startsWith("-");
                    if (innerNegative || inner.startsWith("+")) {
                        inner = inner.substring(1);
                    }
                    v = integerValue(inner, negative ^ innerNegative);
                }
                if (v != null) {
                    return new SqlArgument(text, start, end, KeyPart.Kind.KNOWN, v);
                }
                if (!signed && t.type() == SqlToken.Type.PARAM) {
                    return new SqlArgument(text, start, end, KeyPart.Kind.PARAMETER, null);
                }
                if (!signed && isColumnName(t)) {
                    return new SqlArgument(text, start, end, KeyPart.Kind.COLUMN, null);
                }
            } else if (!signed && hi - lo >= 3 && (hi - lo) % 2 == 1 && hi - lo <= 7) {
                boolean qualified = true;
                for (int j = lo; j < hi; j++) {
                    SqlToken t = toks.get(j);
                    qualified &= (j - lo) % 2 == 0 ? isColumnName(t) : t.isPunct(".");
                }
                if (qualified) {
                    return new SqlArgument(text, start, end, KeyPart.Kind.COLUMN, null);
                }
            }
            return new SqlArgument(text, start, end, KeyPart.Kind.UNKNOWN, null);
        }
    }

    private static boolean isColumnName(SqlToken t) {
        if (t.type() == SqlToken.Type.QUOTED_IDENT) {
            return true;
        }
        if (t.type() != SqlToken.Type.IDENT) {
            return false;
        }
        return switch (t.text().toUpperCase(Locale.ROOT)) {
            case "NULL",
                    "TRUE",
                    "FALSE",
                    "DEFAULT",
                    "CURRENT_USER",
                    "SESSION_USER",
                    "USER",
                    "CURRENT_DATE",
                    "CURRENT_TIME",
                    "CURRENT_TIMESTAMP",
                    "LOCALTIME",
                    "LOCALTIMESTAMP",
                    "CURRENT_ROLE",
                    "CURRENT_CATALOG",
                    "CURRENT_SCHEMA",
                    "SELECT",
                    "CASE",
                    "ARRAY",
                    "ROW",
                    "NOT",
                    "EXISTS" -> false;
            default -> true;
        };
    }

    /** @return the index of the last {@code ::} at the argument's top level, or -1 */
    private static int lastTopLevelCast(List<SqlToken> toks, int[] match, int lo, int hi) {
        int found = -1;
        for (int j = lo; j < hi; j++) {
            SqlToken t = toks.get(j);
            if ((t.isPunct("(") || t.isPunct("[")) && match[j] > j && match[j] < hi) {
                j = match[j];
            } else if (t.isPunct("::")) {
                found = j;
            } else if (t.type() == SqlToken.Type.OPERATOR && found >= 0) {
                return -1;
            }
        }
        return found;
    }

    /** @return the value of a decimal integer literal that fits a bigint, else null (hex, decimals, overflow) */
    static Long integerValue(String digits, boolean negative) {
        if (digits.isEmpty() || digits.length() > 25) {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (!SqlLexer.isDigit(digits.charAt(i))) {
                return null;
            }
        }
        BigInteger v = new BigInteger(digits);
        if (negative) {
            v = v.negate();
        }
        return v.bitLength() <= 63 ? v.longValue() : null;
    }

    private static boolean isStatementStart(SqlToken t) {
        if (t.type() != SqlToken.Type.IDENT) {
            return false;
        }
        return switch (t.text().toUpperCase(Locale.ROOT)) {
            case "SELECT", "WITH", "PERFORM", "INSERT", "UPDATE", "DELETE", "VALUES", "CALL" -> true;
            default -> false;
        };
    }

    /** @return for every {@code (} / {@code [} the index of its partner (and back), -1 when unbalanced */
    static int[] matchBrackets(List<SqlToken> toks) {
        int[] match = new int[toks.size()];
        Arrays.fill(match, -1);
        Deque<Integer> stack = new ArrayDeque<>();
        for (int i = 0; i < toks.size(); i++) {
            SqlToken t = toks.get(i);
            if (t.isPunct("(") || t.isPunct("[")) {
                stack.push(i);
            } else if (t.isPunct(")") || t.isPunct("]")) {
                String open = t.text().equals(")") ? "(" : "[";
                if (!stack.isEmpty() && toks.get(stack.peek()).text().equals(open)) {
                    int o = stack.pop();
                    match[o] = i;
                    match[i] = o;
                } else if (!stack.isEmpty()) {
                    // mismatched closer: drop openers until one matches, or ignore the closer
                    boolean any = false;
                    for (int o : stack) {
                        if (toks.get(o).text().equals(open)) {
                            any = true;
                            break;
                        }
                    }
                    if (any) {
                        while (!toks.get(stack.peek()).text().equals(open)) {
                            stack.pop();
                        }
                        int o = stack.pop();
                        match[o] = i;
                        match[i] = o;
                    }
                }
            } else if (t.isPunct(";")) {
                stack.clear();
            }
        }
        return match;
    }

    /** @return the token ranges of the statements of {@code toks[from, to)}, split on every {@code ;} */
    static List<int[]> split(List<SqlToken> toks, int from, int to) {
        List<int[]> out = new ArrayList<>();
        int start = from;
        for (int i = from; i <= to; i++) {
            if (i == to || toks.get(i).isPunct(";")) {
                if (i > start) {
                    out.add(new int[] {start, i});
                }
                start = i + 1;
            }
        }
        return out;
    }

    /** {@link #nestingOf}: the parentheses do not balance. */
    private static final int UNBALANCED_PARENTHESES = -1;
    /** {@link #nestingOf}: the brackets do not balance, or close a parenthesis. */
    private static final int UNBALANCED_BRACKETS = -2;
    /** {@link #nestingOf}: a {@code CASE} has no {@code END}. */
    private static final int UNCLOSED_CASE = -3;

    /**
     * Parentheses and brackets count together: JSqlParser's lookahead grows exponentially with nested
     * brackets ({@code ARRAY[ARRAY[...]]}) as with parentheses, and with an unclosed bracket it took
     * minutes for four of them. It grows exponentially with unclosed {@code CASE} expressions too
     * (seven took seconds), which can never parse.
     *
     * @return the deepest nesting of parentheses and brackets of the tokens, or
     *     {@link #UNBALANCED_PARENTHESES} / {@link #UNBALANCED_BRACKETS} when they do not balance, or
     *     {@link #UNCLOSED_CASE} when a {@code CASE} has no {@code END}
     */
    private static int nestingOf(List<SqlToken> toks, int a, int b) {
        Deque<Boolean> open = new ArrayDeque<>(); // true for "(", false for "["
        int max = 0;
        int cases = 0;
        for (int i = a; i < b; i++) {
            SqlToken t = toks.get(i);
            if (t.is("CASE")) {
                cases++;
            } else if (t.is("END") && cases > 0) {
                cases--;
            } else if (t.isPunct("(") || t.isPunct("[")) {
                open.push(t.isPunct("("));
                max = Math.max(max, open.size());
            } else if (t.isPunct(")") || t.isPunct("]")) {
                boolean paren = t.isPunct(")");
                if (open.isEmpty() || open.pop() != paren) {
                    return paren ? UNBALANCED_PARENTHESES : UNBALANCED_BRACKETS;
                }
            }
        }
        if (!open.isEmpty()) {
            return open.contains(true) ? UNBALANCED_PARENTHESES : UNBALANCED_BRACKETS;
        }
        return cases > 0 ? UNCLOSED_CASE : max;
    }

    /**
     * The dollar-quoted bodies of a {@code DO} or {@code CREATE FUNCTION/PROCEDURE} statement written in
     * PL/pgSQL or SQL (the language is not checked when none is named): for {@code DO} every dollar string,
     * for a function the dollar string after {@code AS}.
     *
     * @param toks the statement's tokens (and possibly more)
     * @param a    index of the statement's first token
     * @param b    index just past its last token
     * @param kind {@link StatementKind#DO_BLOCK} or {@link StatementKind#CREATE_FUNCTION}; any other kind has none
     * @return {@code [from, to)} text ranges of the bodies, without their dollar tags; empty for another language
     */
    static List<int[]> bodies(List<SqlToken> toks, int a, int b, StatementKind kind) {
        List<int[]> out = new ArrayList<>();
        if ((kind != StatementKind.DO_BLOCK && kind != StatementKind.CREATE_FUNCTION) || !bodyLanguageOk(toks, a, b)) {
            return out;
        }
        for (int i = a; i < b; i++) {
            SqlToken t = toks.get(i);
            if (t.type() == SqlToken.Type.DOLLAR_STRING
                    && (kind == StatementKind.DO_BLOCK
                            || (i > a && toks.get(i - 1).is("AS")))) {
                int tag = t.dollarTagLength();
                int from = t.start() + tag;
                int to = t.text().length() >= 2 * tag
                                && t.text().endsWith(t.text().substring(0, tag))
                        ? t.end() - tag
                        : t.end();
                out.add(new int[] {from, Math.max(from, to)});
            }
        }
        return out;
    }

    private static boolean bodyLanguageOk(List<SqlToken> toks, int a, int b) {
        for (int i = a; i + 1 < b; i++) {
            if (toks.get(i).is("LANGUAGE")) {
                String lang = toks.get(i + 1).identName();
                if (lang == null && toks.get(i + 1).type() == SqlToken.Type.STRING) {
                    lang = toks.get(i + 1).text().replace("'", "").toLowerCase(Locale.ROOT);
                }
                if (lang != null && !lang.equals("plpgsql") && !lang.equals("sql")) {
                    return false;
                }
            }
        }
        return true;
    }

    /** @return the kind of statement {@code toks[a, b)} from its leading key words */
    static StatementKind kindOf(List<SqlToken> toks, int a, int b) {
        SqlToken first = toks.get(a);
        if (first.isPunct("{")) {
            return StatementKind.CALL;
        }
        int i = a;
        while (i < b && toks.get(i).isPunct("(")) {
            i++;
        }
        if (i >= b || toks.get(i).type() != SqlToken.Type.IDENT) {
            return StatementKind.OTHER;
        }
        String w = toks.get(i).text().toUpperCase(Locale.ROOT);
        switch (w) {
            case "SELECT", "VALUES", "TABLE", "PERFORM":
                return StatementKind.SELECT;
            case "INSERT":
                return StatementKind.INSERT;
            case "UPDATE":
                return StatementKind.UPDATE;
            case "DELETE":
                return StatementKind.DELETE;
            case "BEGIN", "START":
                return StatementKind.BEGIN;
            case "COMMIT", "END":
                return StatementKind.COMMIT;
            case "ROLLBACK", "ABORT":
                return StatementKind.ROLLBACK;
            case "SET":
                return StatementKind.SET;
            case "DO":
                return StatementKind.DO_BLOCK;
            case "CALL":
                return StatementKind.CALL;
            case "CREATE": {
                int j = i + 1;
                if (j + 1 < b && toks.get(j).is("OR") && toks.get(j + 1).is("REPLACE")) {
                    j += 2;
                }
                return j < b && (toks.get(j).is("FUNCTION") || toks.get(j).is("PROCEDURE"))
                        ? StatementKind.CREATE_FUNCTION
                        : StatementKind.OTHER;
            }
            case "WITH": {
                int depth = 0;
                for (int j = i + 1; j < b; j++) {
                    SqlToken t = toks.get(j);
                    if (t.isPunct("(")) {
                        depth++;
                    } else if (t.isPunct(")")) {
                        depth = Math.max(0, depth - 1);
                    } else if (depth == 0) {
                        if (t.is("INSERT")) {
                            return StatementKind.INSERT;
                        } else if (t.is("UPDATE")) {
                            return StatementKind.UPDATE;
                        } else if (t.is("DELETE")) {
                            return StatementKind.DELETE;
                        } else if (t.is("SELECT") || t.is("VALUES")) {
                            return StatementKind.SELECT;
                        }
                    }
                }
                return StatementKind.SELECT;
            }
            default:
                return StatementKind.OTHER;
        }
    }
}
