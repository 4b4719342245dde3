package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockOperation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Pairs each session-level acquisition in the body of a {@code DO} block or of a PL/pgSQL or SQL function
 * with its unlock in the same body, and says whether an error between them skips the unlock.
 *
 * <p>Why it matters: a body runs as part of one statement. When a statement between the lock and the
 * unlock raises an error (or a {@code RETURN}/{@code EXIT} leaves before the unlock), the error aborts the
 * block, the transaction rolls back, and the session keeps the lock (RULES.md F1: a ROLLBACK does not
 * release a session lock; F18). The session lives on: psql without {@code ON_ERROR_STOP} goes on with
 * the next statement, an application or migration tool returns the connection to its pool. PL/pgSQL's
 * {@code finally} is an {@code EXCEPTION} section: {@code BEGIN work; EXCEPTION WHEN OTHERS THEN PERFORM
 * pg_advisory_unlock(k); RAISE; END} releases on every path (a session unlock is not undone by the
 * rollback of the block's subtransaction either).
 *
 * <p>The analysis is lexical and path-insensitive: blocks ({@code BEGIN ... [EXCEPTION ...] END}, told
 * apart from {@code END IF}, {@code END LOOP}, {@code END CASE} and {@code CASE ... END} expressions),
 * then the steps between the acquisition and the first unlock of the same key (same argument text, or
 * the same literal values; or {@code pg_advisory_unlock_all()}) outside any exception handler. A step is
 * covered when an enclosing block's {@code EXCEPTION} section unlocks that key, or catches
 * {@code OTHERS} without re-raising or returning and ends before the unlock (the flow then reaches it).
 * Steps that cannot fail ({@code RAISE NOTICE}, {@code NULL}, an assignment of a literal, the condition
 * of {@code IF}/{@code WHILE}/{@code CASE}) are not counted. Stateless.
 */
final class PlpgsqlLifecycles {

    /** How an acquisition's unlock in the same body is reached. */
    enum Kind {
        /** Every step between lock and unlock that can fail is covered by an {@code EXCEPTION} handler. */
        HANDLER_COVERS,
        /** Nothing that can fail runs between the lock and the unlock. */
        NOTHING_BETWEEN,
        /** A step between lock and unlock can fail (or leave) with no handler that releases the lock. */
        UNGUARDED
    }

    /**
     * What was found for one acquisition.
     *
     * @param kind       how the unlock is reached
     * @param release    the paired unlock (or {@code pg_advisory_unlock_all()}) call
     * @param stepOffset for {@link Kind#UNGUARDED}, the offset of the first uncovered step in the analysed
     *                   text; else -1
     * @param step       for {@link Kind#UNGUARDED}, that step's first key word, upper case ({@code UPDATE},
     *                   {@code PERFORM}, {@code RETURN}); else empty
     */
    record Pairing(Kind kind, SqlLockCall release, int stepOffset, String step) {}

    /** Levels of RAISE that only report: they never raise an error. */
    private static final Set<String> REPORT_LEVELS = Set.of("DEBUG", "LOG", "INFO", "NOTICE", "WARNING");
    /** Leading key words of steps that only test a condition (their branches are steps of their own). */
    private static final Set<String> CONDITIONS =
            Set.of("IF", "ELSIF", "ELSEIF", "WHILE", "CASE", "WHEN", "ELSE", "LOOP", "DECLARE", "NULL");

    private PlpgsqlLifecycles() {}

    /**
     * @param text     the analysed SQL text
     * @param analysis its analysis
     * @return for every session-level acquisition inside a {@code DO} or function body that has an unlock of
     *     the same key later in that body, the pairing; acquisitions with no such unlock (a function that
     *     locks for its caller) and calls outside bodies are absent. Never null
     */
    static Map<SqlLockCall, Pairing> analyze(String text, SqlAnalysis analysis) {
        Map<SqlLockCall, Pairing> out = new HashMap<>();
        for (int index = 0; index < analysis.statements().size(); index++) {
            SqlStatement st = analysis.statements().get(index);
            if (st.kind() != StatementKind.DO_BLOCK && st.kind() != StatementKind.CREATE_FUNCTION) {
                continue;
            }
            List<SqlLockCall> calls = new ArrayList<>();
            for (SqlLockCall c : analysis.calls()) {
                if (c.statementIndex() == index) {
                    calls.add(c);
                }
            }
            if (calls.stream().noneMatch(PlpgsqlLifecycles::sessionAcquisition)) {
                continue;
            }
            List<SqlToken> stToks = SqlLexer.lex(text, st.start(), st.end());
            for (int[] range : SqlAnalyzer.bodies(stToks, 0, stToks.size(), st.kind())) {
                List<SqlLockCall> inBody = calls.stream()
                        .filter(c -> c.nameStart() >= range[0] && c.nameEnd() <= range[1])
                        .toList();
                if (inBody.stream().anyMatch(PlpgsqlLifecycles::sessionAcquisition)) {
                    new Body(SqlLexer.lex(text, range[0], range[1]), inBody).pairAll(out);
                }
            }
        }
        return out;
    }

    private static boolean sessionAcquisition(SqlLockCall c) {
        return c.function().level() == LockLevel.SESSION
                && c.function().operation().isAcquisition();
    }

    /** {@code BEGIN} at {@code begin}, its {@code EXCEPTION} section from {@code exception} (or -1), up to {@code end}. */
    private record Block(int begin, int exception, int end) {

        boolean handlerHolds(int offset) {
            return exception >= 0 && offset >= exception && offset < end;
        }

        boolean bodyHolds(int offset) {
            return exception >= 0 && offset > begin && offset < exception;
        }
    }

    /** One step: tokens {@code [from, to)} of the body, cut at {@code ;} and at PL/pgSQL control words. */
    private record Step(int from, int to) {}

    /** The lexical structure of one body. */
    private static final class Body {
        private final List<SqlToken> toks;
        private final List<SqlLockCall> calls;
        private final List<Block> blocks = new ArrayList<>();
        private final List<Step> steps = new ArrayList<>();

        Body(List<SqlToken> toks, List<SqlLockCall> calls) {
            this.toks = toks;
            this.calls = calls;
            blocks();
            steps();
        }

        void pairAll(Map<SqlLockCall, Pairing> out) {
            for (SqlLockCall lock : calls) {
                if (!sessionAcquisition(lock)) {
                    continue;
                }
                int lockStep = stepOf(lock.nameStart());
                if (lockStep < 0) {
                    continue; // inside a nested body: not this body's statement
                }
                SqlLockCall unlock = null;
                for (SqlLockCall c : calls) {
                    if (c.nameStart() > lock.nameStart()
                            && c.function().operation().isRelease()
                            && sameKey(lock, c)
                            && handlersAround(c.nameStart()) <= handlersAround(lock.nameStart())
                            && stepOf(c.nameStart()) >= 0) {
                        unlock = c;
                        break;
                    }
                }
                if (unlock == null) {
                    continue;
                }
                out.put(lock, pairing(lock, lockStep, unlock));
            }
        }

        private Pairing pairing(SqlLockCall lock, int lockStep, SqlLockCall unlock) {
            boolean covered = false;
            for (int s = lockStep + 1; s < stepOf(unlock.nameStart()); s++) {
                Step step = steps.get(s);
                int at = toks.get(step.from()).start();
                if (inOtherHandler(at, lock.nameStart())) {
                    continue; // handler code runs only on an error, not on the way to the unlock
                }
                String failing = failing(step);
                if (failing == null) {
                    continue;
                }
                if (coveredAt(at, lock, unlock)) {
                    covered = true;
                    continue;
                }
                return new Pairing(Kind.UNGUARDED, unlock, at, failing);
            }
            return new Pairing(covered ? Kind.HANDLER_COVERS : Kind.NOTHING_BETWEEN, unlock, -1, "");
        }

        /** @return how many exception handlers hold the offset */
        private int handlersAround(int offset) {
            return (int) blocks.stream().filter(b -> b.handlerHolds(offset)).count();
        }

        private boolean inOtherHandler(int offset, int lockOffset) {
            return blocks.stream().anyMatch(b -> b.handlerHolds(offset) && !b.handlerHolds(lockOffset));
        }

        /** An enclosing block's handler unlocks the key, or swallows every error and the unlock follows the block. */
        private boolean coveredAt(int offset, SqlLockCall lock, SqlLockCall unlock) {
            for (Block b : blocks) {
                if (!b.bodyHolds(offset)) {
                    continue;
                }
                for (SqlLockCall c : calls) {
                    if (c.function().operation().isRelease() && b.handlerHolds(c.nameStart()) && sameKey(lock, c)) {
                        return true;
                    }
                }
                if (b.end() <= unlock.nameStart() && swallowsEverything(b)) {
                    return true;
                }
            }
            return false;
        }

        /** {@code WHEN OTHERS} with no {@code RAISE} that raises and no {@code RETURN}: the flow goes on after the block. */
        private boolean swallowsEverything(Block b) {
            boolean others = false;
            for (int i = 0; i < toks.size(); i++) {
                SqlToken t = toks.get(i);
                if (t.start() < b.exception() || t.start() >= b.end()) {
                    continue;
                }
                if (t.is("OTHERS")) {
                    others = true;
                } else if (t.is("RETURN")
                        || (t.is("RAISE")
                                && !(i + 1 < toks.size()
                                        && REPORT_LEVELS.contains(
                                                toks.get(i + 1).text().toUpperCase(Locale.ROOT))))) {
                    return false;
                }
            }
            return others;
        }

        /** @return the step's first key word when it can fail or leave before the unlock, else null */
        private String failing(Step step) {
            int i = step.from();
            while (i < step.to()
                    && (toks.get(i).isPunct("<")
                            || toks.get(i).isPunct(">")
                            || (i > step.from()
                                    && toks.get(i - 1).isPunct("<")
                                    && toks.get(i).type() == SqlToken.Type.IDENT))) {
                i++; // a <<label>>
            }
            if (i < step.to() && toks.get(i).is("END")) {
                return null; // END, END IF, END LOOP, END CASE, END label
            }
            if (i >= step.to()) {
                return null;
            }
            SqlToken first = toks.get(i);
            String word = first.type() == SqlToken.Type.IDENT ? first.text().toUpperCase(Locale.ROOT) : first.text();
            if (CONDITIONS.contains(word)) {
                return null;
            }
            if (word.equals("RAISE")
                    && i + 1 < step.to()
                    && REPORT_LEVELS.contains(toks.get(i + 1).text().toUpperCase(Locale.ROOT))) {
                return null;
            }
            if (step.to() - i == 3
                    && (toks.get(i + 1).isPunct(":=") || toks.get(i + 1).isPunct("="))
                    && literal(toks.get(i + 2))) {
                return null; // v := 1
            }
            return word;
        }

        private static boolean literal(SqlToken t) {
            return t.type() == SqlToken.Type.NUMBER
                    || t.type() == SqlToken.Type.STRING
                    || t.is("TRUE")
                    || t.is("FALSE")
                    || t.is("NULL");
        }

        /** @return the index of the step holding the offset, or -1 */
        private int stepOf(int offset) {
            for (int s = 0; s < steps.size(); s++) {
                Step st = steps.get(s);
                if (offset >= toks.get(st.from()).start()
                        && offset < toks.get(st.to() - 1).end()) {
                    return s;
                }
            }
            return -1;
        }

        private void blocks() {
            Deque<int[]> open = new ArrayDeque<>(); // {kind 0 = BEGIN block, 1 = CASE; begin offset; exception offset}
            for (int i = 0; i < toks.size(); i++) {
                SqlToken t = toks.get(i);
                if (t.is("BEGIN")) {
                    open.push(new int[] {0, t.start(), -1});
                } else if (t.is("CASE")) {
                    open.push(new int[] {1, t.start(), -1});
                } else if (t.is("EXCEPTION") && !(i > 0 && toks.get(i - 1).is("RAISE"))) {
                    if (!open.isEmpty() && open.peek()[0] == 0 && open.peek()[2] < 0) {
                        open.peek()[2] = t.start();
                    }
                } else if (t.is("END")) {
                    SqlToken next = i + 1 < toks.size() ? toks.get(i + 1) : null;
                    if (next != null && (next.is("IF") || next.is("LOOP"))) {
                        i++;
                    } else if (next != null && next.is("CASE")) {
                        i++;
                        if (!open.isEmpty() && open.peek()[0] == 1) {
                            open.pop();
                        }
                    } else if (!open.isEmpty()) {
                        int[] f = open.pop();
                        if (f[0] == 0) {
                            blocks.add(new Block(f[1], f[2], t.end()));
                        }
                    }
                }
            }
            int end = toks.isEmpty() ? 0 : toks.get(toks.size() - 1).end();
            while (!open.isEmpty()) {
                int[] f = open.pop();
                if (f[0] == 0) {
                    blocks.add(new Block(f[1], f[2], end));
                }
            }
        }

        private void steps() {
            for (int[] r : SqlAnalyzer.split(toks, 0, toks.size())) {
                int depth = 0;
                int caseDepth = 0;
                int from = r[0];
                for (int i = r[0]; i <= r[1]; i++) {
                    boolean cut = i == r[1];
                    if (!cut) {
                        SqlToken t = toks.get(i);
                        if (t.isPunct("(")) {
                            depth++;
                        } else if (t.isPunct(")")) {
                            depth = Math.max(0, depth - 1);
                        } else if (depth == 0 && t.is("CASE") && i > from) {
                            caseDepth++; // a CASE expression inside a statement; a CASE statement starts the step
                        } else if (depth == 0 && t.is("END") && caseDepth > 0) {
                            caseDepth--;
                        } else if (depth == 0
                                && (t.is("LOOP")
                                        || t.is("BEGIN")
                                        || t.is("DECLARE")
                                        || (t.is("EXCEPTION")
                                                && !(i > 0 && toks.get(i - 1).is("RAISE")))
                                        || (caseDepth == 0 && (t.is("THEN") || t.is("ELSE"))))) {
                            cut = true;
                        }
                    }
                    if (cut) {
                        if (i > from) {
                            steps.add(new Step(from, i));
                        }
                        from = i + 1;
                    }
                }
            }
        }
    }

    /** Same arity and, argument by argument, the same literal value or the same text (case and spaces ignored). */
    private static boolean sameKey(SqlLockCall lock, SqlLockCall release) {
        if (release.function().operation() == LockOperation.RELEASE_ALL) {
            return true;
        }
        if (lock.arguments().size() != release.arguments().size()) {
            return false;
        }
        for (int i = 0; i < lock.arguments().size(); i++) {
            SqlArgument a = lock.arguments().get(i);
            SqlArgument b = release.arguments().get(i);
            boolean same = (a.value() != null && b.value() != null)
                    ? a.value().equals(b.value())
                    : normalized(a.text()).equals(normalized(b.text()));
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private static String normalized(String s) {
        return s.replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
    }
}
