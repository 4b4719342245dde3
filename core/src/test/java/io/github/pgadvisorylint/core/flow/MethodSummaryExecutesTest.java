package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link MethodSummary#executes()}: the caller's connections a callee runs statements on, itself or through
 * its own callees, so that a statement failing there aborts the caller's transaction (F18).
 */
class MethodSummaryExecutesTest {

    private static Map<String, MethodSummary> summaries(String source) {
        List<MethodFlow> flows = TinyGraphs.lower(source);
        LockStateAnalysis analysis = new LockStateAnalysis(flows, Map.of());
        analysis.run();
        return analysis.summaries().stream().collect(Collectors.toMap(MethodSummary::key, s -> s));
    }

    @Test
    void aHelperCalledUnderALockSummarisesTheConnectionsItRunsStatementsOn() {
        Map<String, MethodSummary> s = summaries("""
                class Batches {
                    java.sql.Connection shared;
                    void settle(java.sql.Connection c, java.sql.Statement st) throws Exception {
                        st.execute("SELECT pg_advisory_lock(1)");
                        try {
                            mark(c);
                            viaField();
                            check(7);
                        } finally {
                            st.execute("SELECT pg_advisory_unlock(1)");
                        }
                    }
                    void mark(java.sql.Connection c) throws Exception {
                        c.createStatement().executeUpdate("UPDATE batches SET done = true");
                    }
                    void viaField() throws Exception {
                        mark(shared);
                    }
                    void check(long id) {
                        if (id < 0) {
                            throw new IllegalArgumentException();
                        }
                    }
                    void neverCalledUnderALock(java.sql.Connection c) throws Exception {
                        c.createStatement().executeUpdate("DELETE FROM batches");
                    }
                }
                """);
        assertThat(s.get("Batches.mark/1").executes())
                .as("a statement on its parameter")
                .containsExactly("#0");
        assertThat(s.get("Batches.viaField/0").executes())
                .as("through a callee, on a field of the receiver")
                .containsExactly("#this.shared");
        assertThat(s).as("a method that runs no statement is not followed").doesNotContainKey("Batches.check/1");
        assertThat(s).as("nor is one no lock-using method calls").doesNotContainKey("Batches.neverCalledUnderALock/1");
    }
}
