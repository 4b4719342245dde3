package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The window of a transaction-level lock's transaction, on tiny graphs of one method each. */
class TransactionWindowTest {

    /** @return the gap in the first method of {@code source}, ends being its commits and work its failing calls */
    private static Optional<TransactionWindow.Gap> gap(String source) {
        MethodFlow flow = TinyGraphs.lower(source).get(0);
        int lock = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.LOCK)
                .findFirst()
                .orElseThrow()
                .id();
        return TransactionWindow.endsBeforeWork(
                flow,
                lock,
                id -> flow.nodes().get(id).event().kind() == FlowEvent.Kind.END,
                n -> n.event().kind() == FlowEvent.Kind.EXECUTE
                        || (n.event().kind() == FlowEvent.Kind.CALL
                                && !n.event().callee().isEmpty()
                                && !n.onException().isEmpty()));
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
}
