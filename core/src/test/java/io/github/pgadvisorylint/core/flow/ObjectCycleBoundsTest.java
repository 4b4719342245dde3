package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Calls around a cycle of objects ({@code A.m} calls {@code b.m} on each of its fields, each {@code B.m}
 * calls {@code a.m} back): every round of the fixpoint would lengthen the access paths of the holds a
 * summary reports ({@code this.b0.a1.b2.st}), and the states multiplied with them (a breaker's tree of 3 + 3
 * such classes took 80 s). Summaries keep paths of at most three fields; the caller's safety limit can stop
 * a run.
 */
class ObjectCycleBoundsTest {

    /** Classes {@code A0..A(n-1)} and {@code B0..B(n-1)}: each locks its own key around calls to the other side. */
    private static String cycle(int n) {
        StringBuilder out = new StringBuilder();
        for (String[] side : new String[][] {{"A", "B", "0"}, {"B", "A", "100"}}) {
            for (int i = 0; i < n; i++) {
                StringBuilder fields = new StringBuilder();
                StringBuilder calls = new StringBuilder();
                for (int j = 0; j < n; j++) {
                    fields.append(side[1])
                            .append(j)
                            .append(' ')
                            .append(side[1].toLowerCase(Locale.ROOT))
                            .append(j)
                            .append("; ");
                    calls.append(side[1].toLowerCase(Locale.ROOT)).append(j).append(".m(); ");
                }
                int key = Integer.parseInt(side[2]) + i;
                out.append("""
                        class %s%d {
                            java.sql.Statement st; %s
                            void m() throws Exception {
                                st.execute("SELECT pg_advisory_lock(%d)");
                                try { %s} finally { st.execute("SELECT pg_advisory_unlock(%d)"); }
                            }
                        }
                        """.formatted(side[0], i, fields, key, calls, key));
            }
        }
        return out.toString();
    }

    /**
     * Lowers {@code source} as the extractor sees it: every statement naming {@code pg_advisory} is a site, and
     * so is every call of {@code m()} (a call of a lock helper is a site of the helper's lock, with the key its
     * callee locks).
     */
    private static List<MethodFlow> lower(String source, Map<String, LockSite> sites) {
        CompilationUnit unit = StaticJavaParser.parse(source);
        IdentityHashMap<Node, List<String>> byNode = new IdentityHashMap<>();
        Set<Node> helperCalls = new HashSet<>();
        for (MethodCallExpr call : unit.findAll(MethodCallExpr.class)) {
            String sql =
                    call.getArguments().isEmpty() ? "" : call.getArgument(0).toString();
            boolean helper = call.getNameAsString().equals("m");
            if (!helper && !sql.contains("pg_advisory")) {
                continue;
            }
            // a statement's key is its literal; a helper call's is the key its callee locks (b1.m() locks 101)
            String receiver = call.getScope().map(Object::toString).orElse("");
            long key = helper
                    ? (receiver.startsWith("b") ? 100 : 0) + Long.parseLong(receiver.substring(1))
                    : Long.parseLong(sql.replaceAll("[^0-9]", ""));
            String id = "site-" + byNode.size();
            byNode.put(call, List.of(id));
            if (helper) {
                helperCalls.add(call);
            }
            sites.put(
                    id,
                    new LockSite(
                            id,
                            sql.contains("unlock")
                                    ? AdvisoryFunction.PG_ADVISORY_UNLOCK
                                    : AdvisoryFunction.PG_ADVISORY_LOCK,
                            new LockKey(KeySpace.BIGINT, List.of(KeyPart.known(key, String.valueOf(key), null))),
                            SourceRegion.line("All.java", 1),
                            null,
                            Language.JAVA,
                            ExecutionApi.JDBC_STATEMENT,
                            new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1"),
                            null));
        }
        return FlowLowering.lower(unit, byNode, helperCalls, c -> Set.of(), n -> null, n -> {});
    }

    @Test
    void summariesAroundACycleOfObjectsKeepShortAccessPaths() {
        Map<String, LockSite> sites = new HashMap<>();
        LockStateAnalysis analysis = new LockStateAnalysis(lower(cycle(3), sites), sites);
        LockStateAnalysis.Result result = analysis.run();
        assertThat(result.leftOut()).isEmpty();
        List<PathState.Hold> acquired = analysis.summaries().stream()
                .flatMap(s -> s.cases().stream())
                .flatMap(c -> c.acquires().stream())
                .toList();
        assertThat(acquired)
                .allSatisfy(a -> assertThat(a.connection().chars().filter(ch -> ch == '.'))
                        .as(a.toString())
                        .hasSizeLessThanOrEqualTo(3));
    }

    @Test
    void theCheckpointIsCalledAndItsExceptionStopsTheRun() {
        Map<String, LockSite> sites = new HashMap<>();
        List<MethodFlow> flows = lower(cycle(3), sites);
        AtomicInteger calls = new AtomicInteger();
        LockStateAnalysis counted = new LockStateAnalysis(flows, sites, calls::incrementAndGet);
        counted.run();
        assertThat(calls.get()).as("called while the paths are followed").isPositive();

        LockStateAnalysis stopped = new LockStateAnalysis(flows, sites, () -> {
            throw new IllegalStateException("over the limit");
        });
        assertThatThrownBy(stopped::run)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("over the limit");
    }
}
