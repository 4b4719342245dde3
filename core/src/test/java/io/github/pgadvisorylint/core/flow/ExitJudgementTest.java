package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.flow.PathState.Hold;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The exit judgement on a tiny graph: hand-written exit states of one method that locks ({@code site-0}) and
 * unlocks ({@code site-1}) on its parameter's connection, judged with different facts about the method.
 */
class ExitJudgementTest {

    private static final MethodFlow FLOW = TinyGraphs.lower("""
                    class Job {
                        void run(java.sql.Connection c) throws Exception {
                            c.createStatement().execute("SELECT pg_advisory_lock(1)");
                            work(c);
                            c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                        }
                    }
                    """).get(0);

    private static final Map<String, LockSite> SITES = Map.of(
            "site-0", TinyGraphs.site("site-0", AdvisoryFunction.PG_ADVISORY_LOCK, 3),
            "site-1", TinyGraphs.site("site-1", AdvisoryFunction.PG_ADVISORY_UNLOCK, 5));

    private static final ExitJudgement.Facts NO_CALLERS =
            new ExitJudgement.Facts(false, false, null, Map.of(), Set.of(), Map.of());

    /** @return the node whose event runs {@code id} */
    private static int node(String id) {
        for (FlowNode n : FLOW.nodes()) {
            if (n.event().kind() == FlowEvent.Kind.LOCK && n.event().sites().contains(id)) {
                return n.id();
            }
        }
        throw new AssertionError(id + " not in " + FLOW.render());
    }

    private static Map<String, Integer> acquired() {
        return Map.of("site-0", node("site-0"));
    }

    private static Map<String, Set<Integer>> released() {
        return Map.of("site-0", Set.of(node("site-1")));
    }

    private static PathState holding(String connection) {
        PathState.Mutable m = PathState.ENTRY.edit();
        m.held.put(new Hold(connection, "site-0"), 1);
        return m.done();
    }

    private static Map<String, PathFinding> judge(
            Set<PathState> exits, Set<PathState> thrown, Map<String, Set<Integer>> releasedAt, ExitJudgement.Facts f) {
        return new ExitJudgement(FLOW, SITES, exits, thrown, acquired(), releasedAt, f).judge();
    }

    private static Set<PathState> states(PathState... s) {
        return new LinkedHashSet<>(List.of(s));
    }

    @Test
    void aHoldAtTheExceptionalExitOfAMethodNobodyCallsIsALeakOnException() {
        Map<String, PathFinding> found = judge(states(), states(holding("c")), released(), NO_CALLERS);

        assertThat(found).containsOnlyKeys("leak|site-0");
        PathFinding f = found.get("leak|site-0");
        assertThat(f.kind()).isEqualTo(PathFinding.Kind.HELD_ON_EXCEPTION);
        assertThat(f.note()).contains("not in a finally block");
        assertThat(f.steps())
                .extracting(PathFinding.Step::region)
                .containsExactly(SourceRegion.line("Job.java", 3), SourceRegion.line("Job.java", 5));
    }

    @Test
    void aHoldAtTheNormalExitIsALeakOnReturnAndOnTheExceptionPathTheMoreSpecificKindWins() {
        Map<String, PathFinding> found = judge(states(holding("c")), states(holding("c")), released(), NO_CALLERS);

        assertThat(found).containsOnlyKeys("leak|site-0");
        assertThat(found.get("leak|site-0").kind()).isEqualTo(PathFinding.Kind.HELD_ON_EXCEPTION);
    }

    @Test
    void aHoldTheMethodNeverReleasesIsItsCallersObligation() {
        ExitJudgement judgement =
                new ExitJudgement(FLOW, SITES, states(holding("c")), states(), acquired(), Map.of(), NO_CALLERS);

        assertThat(judgement.judge()).isEmpty();
        assertThat(judgement.handedOver()).containsExactly("site-0");
    }

    @Test
    void aCalledMethodHandsItsExceptionPathHoldToTheCallersFinally() {
        ExitJudgement.Facts called = new ExitJudgement.Facts(true, true, null, Map.of(), Set.of(), Map.of());
        ExitJudgement judgement =
                new ExitJudgement(FLOW, SITES, states(), states(holding("c")), acquired(), released(), called);

        assertThat(judgement.judge()).isEmpty();
        assertThat(judgement.handedOver()).containsExactly("site-0");
    }

    @Test
    void anUnlockInAnAbortedTransactionNamesTheCallerWhoseTransactionItIs() {
        PathState.Mutable m = holding("c").edit();
        m.stuck.add("site-0");
        ExitJudgement.Facts inCaller = new ExitJudgement.Facts(
                false, false, new CallingContexts.Caller("Service.sync()", null, null), Map.of(), Set.of(), Map.of());

        PathFinding f = judge(states(), states(m.done()), released(), inCaller).get("leak|site-0");

        assertThat(f.kind()).isEqualTo(PathFinding.Kind.ABORTED_UNLOCK);
        assertThat(f.note()).contains("the transaction of its caller Service.sync()", "25P02");
    }

    @Test
    void anUnlockInThePoolsTransactionSaysWhichSettingOpenedIt() {
        PathState.Mutable m = holding("@7").edit();
        m.kinds.put("@7", ConnectionKind.POOLED);
        m.stuck.add("site-0");
        AutoCommitSetting off = new AutoCommitSetting(
                false, "spring.datasource.hikari.auto-commit=false", SourceRegion.line("application.properties", 2));
        ExitJudgement.Facts pool = new ExitJudgement.Facts(false, false, null, Map.of("@7", off), Set.of(), Map.of());

        PathFinding f = judge(states(), states(m.done()), released(), pool).get("leak|site-0");

        assertThat(f.note()).contains("auto-commit is off: " + off.display());
    }

    @Test
    void aPooledConnectionClosedWithTheLockHeldIsReportedAndAnUnpooledOneIsNot() {
        PathState.Mutable pooled = holding("@7").edit();
        pooled.kinds.put("@7", ConnectionKind.POOLED);
        pooled.closed.put("@7", node("site-1"));
        PathState.Mutable unpooled = holding("@7").edit();
        unpooled.kinds.put("@7", ConnectionKind.UNPOOLED);
        unpooled.closed.put("@7", node("site-1"));

        assertThat(judge(states(pooled.done()), states(), released(), NO_CALLERS)
                        .get("leak|site-0")
                        .kind())
                .isEqualTo(PathFinding.Kind.POOLED_CLOSE);
        assertThat(judge(states(unpooled.done()), states(), released(), NO_CALLERS))
                .isEmpty();
    }

    @Test
    void aLockTakenTwiceBeforeOneUnlockIsStackedUnlessItsKeyChangesPerIteration() {
        PathState.Mutable m = holding("c").edit();
        m.stacked.add("site-0");
        Map<String, PathFinding> found = judge(states(m.done()), states(), released(), NO_CALLERS);

        assertThat(found).containsOnlyKeys("mismatch|site-0");
        assertThat(found.get("mismatch|site-0").kind()).isEqualTo(PathFinding.Kind.STACKED);
        assertThat(judge(
                        states(m.done()),
                        states(),
                        released(),
                        new ExitJudgement.Facts(false, false, null, Map.of(), Set.of("site-0"), Map.of())))
                .isEmpty();
    }

    @Test
    void aSwallowedFailureIsReportedOnlyWhenACallerCarriesOnAfterTheCall() {
        PathState.Mutable m = PathState.ENTRY.edit();
        m.threw.add("site-0");
        Set<PathState> exit = states(m.done());

        assertThat(judge(
                        exit,
                        states(),
                        released(),
                        new ExitJudgement.Facts(true, true, null, Map.of(), Set.of(), Map.of())))
                .containsOnlyKeys("swallowed|site-0");
        assertThat(judge(
                        exit,
                        states(),
                        released(),
                        new ExitJudgement.Facts(true, false, null, Map.of(), Set.of(), Map.of())))
                .isEmpty();
        PathState.Mutable saysSo = m.done().edit();
        saysSo.bools.put("$return", false);
        assertThat(judge(
                        states(saysSo.done()),
                        states(),
                        released(),
                        new ExitJudgement.Facts(true, true, null, Map.of(), Set.of(), Map.of())))
                .as("it returns false: the caller learns it has no lock")
                .isEmpty();
    }

    @Test
    void findingsAreKeyedSoTheSameStatesGiveTheSameMap() {
        Map<String, PathFinding> a = new TreeMap<>(judge(states(), states(holding("c")), released(), NO_CALLERS));
        Map<String, PathFinding> b = new TreeMap<>(judge(states(), states(holding("c")), released(), NO_CALLERS));

        assertThat(a).isEqualTo(b);
    }
}
