package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.ResultUse;
import io.github.pgadvisorylint.core.model.SiteUsage;
import io.github.pgadvisorylint.core.model.TimeoutEvidence;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The {@link SiteUsage} of a lock call in SQL text (a {@code .sql} script, or a string a Java call
 * executes): the timeout in force from earlier settings in the same text or from the
 * {@code CREATE FUNCTION ... SET lock_timeout} clause around it (F12), and for a try-lock in PL/pgSQL
 * {@code PERFORM}, a result that is never read. Stateless.
 */
public final class SqlSiteUsage {

    private SqlSiteUsage() {}

    /**
     * @param text     the analysed SQL text
     * @param analysis its analysis
     * @param call     one of its lock calls
     * @param regionOf maps a text range {@code [from, to)} to a file region, or null when it cannot
     * @return the usage; never null
     */
    public static SiteUsage of(
            String text, SqlAnalysis analysis, SqlLockCall call, BiFunction<Integer, Integer, SourceRegion> regionOf) {
        return of(text, analysis, SqlTimeouts.timeline(text, analysis.statements()), call, regionOf);
    }

    /**
     * The usage of one of many calls in one text: the timeline is read once for all of them, so a
     * script with thousands of lock calls costs time linear in its length.
     *
     * @param text     the analysed SQL text
     * @param analysis its analysis
     * @param timeline {@link SqlTimeouts#timeline} of the text and its statements
     * @param call     one of its lock calls
     * @param regionOf maps a text range {@code [from, to)} to a file region, or null when it cannot
     * @return the usage; never null
     */
    public static SiteUsage of(
            String text,
            SqlAnalysis analysis,
            SqlTimeouts.Timeline timeline,
            SqlLockCall call,
            BiFunction<Integer, Integer, SourceRegion> regionOf) {
        TimeoutEvidence timeout = timeout(text, analysis, timeline, call, regionOf);
        ResultUse result = ResultUse.UNKNOWN;
        String note = "";
        String stmt = call.context().statementText().stripLeading().toLowerCase(Locale.ROOT);
        if (call.function().operation() == LockOperation.TRY_ACQUIRE
                && stmt.startsWith("perform")
                && stmt.substring(7).stripLeading().startsWith(call.function().sqlName())) {
            result = ResultUse.NEVER_READ;
            note = "PERFORM discards the value";
        }
        boolean topLevel = call.statementIndex() < analysis.statements().size()
                && analysis.statements().get(call.statementIndex()).kind() != StatementKind.DO_BLOCK
                && analysis.statements().get(call.statementIndex()).kind() != StatementKind.CREATE_FUNCTION;
        return new SiteUsage(result, note, null, timeout, topLevel, false);
    }

    private static TimeoutEvidence timeout(
            String text,
            SqlAnalysis analysis,
            SqlTimeouts.Timeline timeline,
            SqlLockCall call,
            BiFunction<Integer, Integer, SourceRegion> regionOf) {
        Optional<SqlTimeouts.Setting> before = timeline.inForce(call.nameStart());
        if (before.isPresent()) {
            SqlTimeouts.Setting s = before.get();
            return new TimeoutEvidence(
                    TimeoutEvidence.Kind.SQL_SET,
                    (s.local() ? "a local " : "") + s.setting() + " = " + s.value() + " set earlier in the same SQL",
                    regionOf.apply(s.start(), s.end()));
        }
        if (call.statementIndex() < analysis.statements().size()) {
            SqlStatement st = analysis.statements().get(call.statementIndex());
            if (st.kind() == StatementKind.CREATE_FUNCTION) {
                String whole = text.substring(st.start(), Math.min(text.length(), st.end()));
                Optional<SqlTimeouts.Setting> clause = SqlTimeouts.lastBefore(whole, whole.length());
                if (clause.isPresent()) {
                    return new TimeoutEvidence(
                            TimeoutEvidence.Kind.FUNCTION_SETTING,
                            "the function sets " + clause.get().setting() + " = "
                                    + clause.get().value(),
                            regionOf.apply(
                                    st.start() + clause.get().start(),
                                    st.start() + clause.get().end()));
                }
            }
        }
        return null;
    }
}
