package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.PathFinding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bounds of the lock-state analysis (issue 27): lock/unlock pairs whose holds never interact cost
 * linear work, so a bug after fifty correct pairs is still proved; and a method that really exceeds a
 * bound is said, as a {@code method-budget} warning naming it and the bound, never dropped in silence.
 */
class PathStateBoundsTest {

    @TempDir
    Path root;

    /** A pair as teams write it: the try-lock's boolean in a local, the unlock in a finally guarded by it. */
    private static String pair(int i) {
        return """
                        boolean got%1$d = tryLock(conn, %2$d);
                        try {
                            if (got%1$d) {
                                work(conn, %1$d);
                            }
                        } finally {
                            if (got%1$d) {
                                unlock(conn, %2$d);
                            }
                        }
                """.formatted(i, 100 + i);
    }

    private static String jobClass(String body) {
        return """
                package com.example;

                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.ResultSet;
                import java.sql.SQLException;
                import javax.sql.DataSource;

                class Job {
                    private final DataSource ds;

                    Job(DataSource ds) {
                        this.ds = ds;
                    }

                    void run() throws SQLException {
                        try (Connection conn = ds.getConnection()) {
                %s
                        }
                    }

                    private boolean tryLock(Connection c, long key) throws SQLException {
                        try (PreparedStatement p = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                            p.setLong(1, key);
                            try (ResultSet rs = p.executeQuery()) {
                                return rs.next() && rs.getBoolean(1);
                            }
                        }
                    }

                    private void unlock(Connection c, long key) throws SQLException {
                        try (PreparedStatement p = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                            p.setLong(1, key);
                            p.execute();
                        }
                    }

                    private void work(Connection c, int i) throws SQLException {
                        try (PreparedStatement p = c.prepareStatement("UPDATE t SET x = 1 WHERE id = ?")) {
                            p.setInt(1, i);
                            p.executeUpdate();
                        }
                    }
                }
                """.formatted(body);
    }

    private AnalysisResult analyze(String body) throws Exception {
        Files.writeString(root.resolve("Job.java"), jobClass(body));
        return Analyzer.builder().threads(1).build().analyze(root, List.of(root));
    }

    @Test
    void aBugAfterFiftyCorrectPairsIsStillProved() throws Exception {
        String pairs =
                IntStream.range(0, 50).mapToObj(PathStateBoundsTest::pair).collect(Collectors.joining());
        // the bug: the unlock in finally also runs when the try-lock returned false
        String bug = """
                        boolean got = tryLock(conn, 999);
                        try {
                            work(conn, 999);
                        } finally {
                            unlock(conn, 999);
                        }
                """;
        AnalysisResult r = analyze(pairs + bug);
        assertThat(r.notifications()).extracting(Notification::kind).doesNotContain(LockPaths.METHOD_BUDGET);
        assertThat(r.model().pathFindings())
                .filteredOn(f -> f.kind() == PathFinding.Kind.RELEASE_WITHOUT_HOLD)
                .singleElement()
                .satisfies(f -> assertThat(f.release().display()).contains("999"));
    }

    @Test
    void fiftyCorrectPairsProveNothing() throws Exception {
        String pairs =
                IntStream.range(0, 50).mapToObj(PathStateBoundsTest::pair).collect(Collectors.joining());
        AnalysisResult r = analyze(pairs);
        assertThat(r.notifications()).isEmpty();
        assertThat(r.model().pathFindings()).isEmpty();
    }

    @Test
    void holdsThatAllInteractExceedTheBoundAndAreSaid() throws Exception {
        // twelve try-locks held at once: each doubles the states, and every one is still read at the end
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            body.append("            boolean got%1$d = tryLock(conn, %2$d);\n".formatted(i, 100 + i));
        }
        body.append("            work(conn, 0);\n");
        for (int i = 0; i < 12; i++) {
            body.append("            if (got%1$d) { unlock(conn, %2$d); }\n".formatted(i, 100 + i));
        }
        AnalysisResult r = analyze(body.toString());
        assertThat(r.notifications())
                .filteredOn(n -> n.kind().equals(LockPaths.METHOD_BUDGET))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.level()).isEqualTo(Severity.WARNING);
                    assertThat(n.region().path()).isEqualTo("Job.java");
                    assertThat(n.message())
                            .contains("Job.run/0")
                            .contains("more than " + LockStateAnalysis.MAX_STATES + " path states");
                });
    }

    /**
     * A thousand pairs whose work can throw before the unlock (no finally): each reaches the exceptional
     * exit with its own hold. The exits are bounded on their own ({@link LockStateAnalysis#MAX_EXIT_STATES}),
     * so the method is analysed whole and every leak is a path fact, where the 96-state bound of one node
     * left it out after about forty pairs.
     */
    @Test
    void aThousandLeakingPairsAreAnalysedWhole() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            body.append("            boolean got%1$d = tryLock(conn, %2$d);\n".formatted(i, 100 + i));
            body.append("            work(conn, %1$d);\n".formatted(i));
            body.append("            if (got%1$d) { unlock(conn, %2$d); }\n".formatted(i, 100 + i));
        }
        AnalysisResult r = analyze(body.toString());
        assertThat(r.notifications()).extracting(Notification::kind).doesNotContain(LockPaths.METHOD_BUDGET);
        assertThat(r.model().pathFindings()).isNotEmpty();
    }

    /**
     * Found by the fourth adversarial pass (issue 27): 2,000 lock calls held at once in one method made two
     * million lock-order edges (95 s, 2.8 GB). A method's edges are bounded, and the bound is said.
     */
    @Test
    void lockOrderEdgesOfOneMethodAreBoundedAndSaid() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 800; i++) {
            body.append("            conn.createStatement().execute(\"SELECT pg_advisory_lock(%d)\");\n".formatted(i));
        }
        AnalysisResult r = analyze(body.toString());
        assertThat(r.model().orderEdges()).hasSizeLessThanOrEqualTo(262_144);
        assertThat(r.notifications())
                .filteredOn(n ->
                        n.kind().equals(LockPaths.METHOD_BUDGET) && n.message().contains("lock-order"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("lock-order analysis left out part of Job.run/0")
                        .contains("more than 262144 pairs of locks"));
    }
    /**
     * Found by a breaker: a chain of 3,000 {@code else if} arms with a lock in each took 80 s in the lock-order
     * analysis (every pair of arms walked the nesting between them). The steps spent on one method's pairs are
     * bounded and the bound is said; a chain of 40 arms stays under it.
     */
    @Test
    void lockOrderStepsOfOneMethodAreBoundedAndSaid() throws Exception {
        AnalysisResult small = analyze(elseIfChain(40));
        assertThat(small.notifications()).extracting(Notification::kind).doesNotContain(LockPaths.METHOD_BUDGET);
        AnalysisResult large = analyze(elseIfChain(700));
        assertThat(large.notifications())
                .filteredOn(n ->
                        n.kind().equals(LockPaths.METHOD_BUDGET) && n.message().contains("lock-order"))
                .singleElement()
                .satisfies(n -> assertThat(n.message()).contains("more than 20000000 steps"));
    }

    /** {@code if (x == 0) lock(0) else if (x == 1) lock(1) ...}, in {@code Job.run}, on a local {@code x}. */
    private static String elseIfChain(int arms) {
        StringBuilder body = new StringBuilder("            int x = conn.getTransactionIsolation();\n            ");
        for (int i = 0; i < arms; i++) {
            body.append("if (x == %1$d) { conn.createStatement().execute(\"SELECT pg_advisory_lock(%1$d)\"); } else "
                    .formatted(i));
        }
        body.append("{ }\n");
        return body.toString();
    }
}
