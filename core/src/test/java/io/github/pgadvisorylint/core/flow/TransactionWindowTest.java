package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The window of a transaction-level lock's transaction, on tiny graphs of one method each. */
class TransactionWindowTest {

    /** @return the gap in the first method of {@code source}, ends being its commits and work its failing calls */
    private static Optional<TransactionWindow.Gap> gap(String source) {
        return window(source, false);
    }

    /** As {@link #gap}, for the same work run again after a commit ({@link TransactionWindow#workAgainAfterEnd}). */
    private static Optional<TransactionWindow.Gap> again(String source) {
        return window(source, true);
    }

    private static Optional<TransactionWindow.Gap> window(String source, boolean again) {
        MethodFlow flow = TinyGraphs.lower(source).get(0);
        int lock = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.LOCK)
                .findFirst()
                .orElseThrow()
                .id();
        IntPredicate ends = id -> flow.nodes().get(id).event().kind() == FlowEvent.Kind.END;
        Predicate<FlowNode> work = n -> n.event().kind() == FlowEvent.Kind.EXECUTE
                || (n.event().kind() == FlowEvent.Kind.CALL
                        && !n.event().callee().isEmpty()
                        && !n.onException().isEmpty());
        IntPredicate locks = id -> flow.nodes().get(id).event().kind() == FlowEvent.Kind.LOCK;
        return again
                ? TransactionWindow.workAgainAfterEnd(flow, lock, ends, work, locks)
                : TransactionWindow.endsBeforeWork(flow, lock, ends, work, locks);
    }

    private static String callee(String source, int node) {
        return TinyGraphs.lower(source)
                .get(0)
                .nodes()
                .get(node)
                .event()
                .callee()
                .get(0);
    }

    @Test
    void aCommitRightAfterTheLockWithWorkAfterItIsAGap() {
        String source = """
                class Turns {
                    void claim(java.sql.Connection c) throws Exception {
                        c.setAutoCommit(false);
                        c.createStatement().execute("SELECT pg_advisory_xact_lock(7)");
                        c.commit();
                        runTurn();
                    }
                    void runTurn() {}
                }
                """;
        Optional<TransactionWindow.Gap> gap = gap(source);

        assertThat(gap).isPresent();
        assertThat(callee(source, gap.get().work())).isEqualTo("Turns.runTurn/0");
    }

    @Test
    void workBetweenTheLockAndTheCommitIsCovered() {
        assertThat(gap("""
                        class Turns {
                            void claim(java.sql.Connection c) throws Exception {
                                c.setAutoCommit(false);
                                c.createStatement().execute("SELECT pg_advisory_xact_lock(7)");
                                runTurn();
                                c.commit();
                                runTurn();
                            }
                            void runTurn() {}
                        }
                        """)).isEmpty();
    }

    @Test
    void aCommitWithNothingAfterItIsAWaitNotAGap() {
        assertThat(gap("""
                        class Turns {
                            void awaitHolder(java.sql.Connection c) throws Exception {
                                c.setAutoCommit(false);
                                c.createStatement().execute("SELECT pg_advisory_xact_lock(7)");
                                c.commit();
                            }
                        }
                        """)).isEmpty();
    }

    @Test
    void aBranchWithWorkBeforeItsCommitIsCovered() {
        assertThat(gap("""
                        class Turns {
                            void claim(java.sql.Connection c, boolean now) throws Exception {
                                c.setAutoCommit(false);
                                c.createStatement().execute("SELECT pg_advisory_xact_lock(7)");
                                if (now) {
                                    runTurn();
                                }
                                c.commit();
                                runTurn();
                            }
                            void runTurn() {}
                        }
                        """)).isEmpty();
    }

    @Test
    void aLockTakenAgainAfterTheCommitCoversTheWorkAfterIt() {
        assertThat(gap("""
                        class Turns {
                            void twoTurns(java.sql.Connection c) throws Exception {
                                c.setAutoCommit(false);
                                c.createStatement().execute("SELECT pg_advisory_xact_lock(7)");
                                c.commit();
                                c.createStatement().execute("SELECT pg_advisory_xact_lock(8)");
                                runTurn();
                                c.commit();
                            }
                            void runTurn() {}
                        }
                        """)).isEmpty();
    }

    @Test
    void aCommitInsideTheLoopLetsTheNextRoundsRunWithoutTheLock() {
        String source = """
                class Batches {
                    void moveAll(java.sql.Connection c, int batches) throws Exception {
                        c.setAutoCommit(false);
                        c.createStatement().execute("SELECT pg_advisory_xact_lock(7)");
                        for (int i = 0; i < batches; i++) {
                            moveBatch();
                            c.commit();
                        }
                    }
                    boolean moreRows() { return true; }
                    void moveBatch() {}
                }
                """;
        Optional<TransactionWindow.Gap> gap = again(source);

        assertThat(gap).isPresent();
        assertThat(callee(source, gap.get().work())).isEqualTo("Batches.moveBatch/0");
    }

    @Test
    void aLoopThatLocksEachRoundIsCovered() {
        assertThat(again("""
                        class Batches {
                            void moveAll(java.sql.Connection c) throws Exception {
                                c.setAutoCommit(false);
                                while (moreRows()) {
                                    c.createStatement().execute("SELECT pg_advisory_xact_lock(7)");
                                    moveBatch();
                                    c.commit();
                                }
                            }
                            boolean moreRows() { return true; }
                            void moveBatch() {}
                        }
                        """)).isEmpty();
    }

    @Test
    void oneCommitAfterTheLoopIsCovered() {
        assertThat(again("""
                        class Batches {
                            void moveAll(java.sql.Connection c) throws Exception {
                                c.setAutoCommit(false);
                                c.createStatement().execute("SELECT pg_advisory_xact_lock(7)");
                                while (moreRows()) {
                                    moveBatch();
                                }
                                c.commit();
                            }
                            boolean moreRows() { return true; }
                            void moveBatch() {}
                        }
                        """)).isEmpty();
    }
}
