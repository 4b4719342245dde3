package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.pgadvisorylint.core.flow.PathState.Hold;
import io.github.pgadvisorylint.core.flow.PathState.Release;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The summary builder on a tiny graph: exit states written by hand become what a caller sees, in paths
 * relative to the callee.
 */
class SummaryBuilderTest {

    private static final MethodFlow FLOW = TinyGraphs.lower("""
                    class Locks {
                        java.sql.Connection conn;
                        boolean take(java.sql.Connection c, Lock lock) { return true; }
                    }
                    """).get(0);

    private static PathState.Mutable exit() {
        return PathState.ENTRY.edit();
    }

    @Test
    void holdsOnParametersAndFieldsBecomeRelativePathsAndLocalsDropOut() {
        PathState.Mutable m = exit();
        m.held.put(new Hold("c", "site-0"), 1);
        m.held.put(new Hold("lock.conn", "site-1"), 2);
        m.held.put(new Hold("this.conn", "site-2"), 1);
        m.held.put(new Hold("@5", "site-3"), 1); // a connection opened here and neither returned nor stored
        m.bools.put("$return", true);
        m.alias.put("this.conn", "c");

        MethodSummary summary = SummaryBuilder.build(
                FLOW, List.of(m.done()), List.of(), Set.of(), Set.of(), Set.of(), Set.of(), Set.of());

        assertThat(summary.key()).isEqualTo("Locks.take/2");
        assertThat(summary.cases()).hasSize(1);
        MethodSummary.Case c = summary.cases().get(0);
        assertThat(c.acquires())
                .containsExactly(
                        new Hold("#0", "site-0"), new Hold("#1.conn", "site-1"), new Hold("#this.conn", "site-2"));
        assertThat(c.returnValue()).isTrue();
        assertThat(c.fields()).containsExactly(new MethodSummary.FieldBinding("#this.conn", "#0"));
        assertThat(c.returnsNew()).isNull();
    }

    @Test
    void aReturnedConnectionCarriesItsKindAndHoldsAndAClosedOneDoesNot() {
        PathState.Mutable open = exit();
        open.kinds.put("@4", ConnectionKind.POOLED);
        open.held.put(new Hold("@4", "site-0"), 1);
        open.returned = "@4";
        PathState.Mutable closed = exit();
        closed.kinds.put("@4", ConnectionKind.UNPOOLED);
        closed.closed.put("@4", 9);
        closed.returned = "@4";
        closed.bools.put("$return", false);

        MethodSummary summary = SummaryBuilder.build(
                FLOW, List.of(open.done(), closed.done()), List.of(), Set.of(), Set.of(), Set.of(), Set.of(), Set.of());

        assertThat(summary.cases())
                .extracting(MethodSummary.Case::returnsNew, MethodSummary.Case::returnHeld)
                .containsExactlyInAnyOrder(tuple(ConnectionKind.POOLED, List.of("site-0")), tuple(null, List.of()));
    }

    @Test
    void aReleaseOnOneExitIsAReleaseOnEveryExitAndTheHelperIsGuarded() {
        PathState.Mutable released = exit();
        released.outer.add(new Release("#0", "site-4")); // releases are relative when the state records them
        PathState.Mutable checkedFirst = exit();
        checkedFirst.bools.put("$return", false);

        MethodSummary summary = SummaryBuilder.build(
                FLOW,
                List.of(released.done(), checkedFirst.done()),
                List.of(),
                Set.of(),
                Set.of(),
                Set.of(),
                Set.of(),
                Set.of());

        assertThat(summary.cases()).hasSize(2);
        assertThat(summary.cases())
                .allSatisfy(c -> assertThat(c.releases()).containsExactly(new Release("#0", "site-4")));
        assertThat(summary.guarded())
                .as("one exit released nothing: it checked first")
                .isTrue();
    }

    @Test
    void theExceptionalExitGivesThrownHoldsAndFailedTryLocks() {
        PathState.Mutable thrown = exit();
        thrown.held.put(new Hold("c", "site-0"), 1);
        thrown.failed.add("site-1");

        MethodSummary summary = SummaryBuilder.build(
                FLOW,
                List.of(),
                List.of(thrown.done()),
                Set.of("site-2"),
                Set.of("#0"),
                Set.of(new Hold("#0", "x")),
                Set.of("#0"),
                Set.of(new MethodSummary.Kept("#0.db", ConnectionKind.UNPOOLED, true)));

        assertThat(summary.cases()).isEmpty();
        assertThat(summary.thrown()).containsExactly(new Hold("#0", "site-0"));
        assertThat(summary.thrownFailed()).containsExactly("site-1", "site-2");
        assertThat(summary.executes()).containsExactly("#0");
        assertThat(summary.xactLocks()).containsExactly(new Hold("#0", "x"));
        assertThat(summary.ends()).containsExactly("#0");
        assertThat(summary.kept()).containsExactly(new MethodSummary.Kept("#0.db", ConnectionKind.UNPOOLED, true));
    }

    @Test
    void failedTryLocksDroppedBeforeAThrowCountOnlyWhenTheMethodCanThrow() {
        MethodSummary summary = SummaryBuilder.build(
                FLOW, List.of(exit().done()), List.of(), Set.of("site-2"), Set.of(), Set.of(), Set.of(), Set.of());

        assertThat(summary.thrownFailed()).isEmpty();
        assertThat(summary.isEmpty()).isTrue();
    }

    @Test
    void summariesKeepShortPathsAndAtMostEightCases() {
        assertThat(SummaryBuilder.relative(FLOW, "lock.a.b.c")).isEqualTo("#1.a.b.c");
        assertThat(SummaryBuilder.relative(FLOW, "lock.a.b.c.d")).isNull();
        assertThat(SummaryBuilder.relative(FLOW, "other")).isNull();
        List<PathState> exits = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            PathState.Mutable m = exit();
            m.held.put(new Hold("c", "site-" + i), 1);
            exits.add(m.done());
        }

        MethodSummary summary =
                SummaryBuilder.build(FLOW, exits, List.of(), Set.of(), Set.of(), Set.of(), Set.of(), Set.of());

        assertThat(summary.cases()).hasSize(SummaryBuilder.MAX_CASES);
    }
}
