package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Transaction-level locks in the lock-state analysis: a helper's lock on its parameter's connection is a
 * summary entry ({@link MethodSummary#xactLocks()}), judged at each call with the caller's transaction state.
 */
class TransactionLevelLocksTest {

    @Test
    void aHelpersLockIsJudgedAtEachCallByTheCallersConnection() {
        CompilationUnit unit = StaticJavaParser.parse("""
                class Jobs {
                    javax.sql.DataSource ds;
                    static void lockTenant(java.sql.Connection c, long t) throws Exception {
                        c.createStatement().execute("SELECT pg_advisory_xact_lock(1)");
                    }
                    void autocommit() throws Exception {
                        try (java.sql.Connection c = ds.getConnection()) {
                            lockTenant(c, 1);
                        }
                    }
                    void inTransaction() throws Exception {
                        try (java.sql.Connection c = ds.getConnection()) {
                            c.setAutoCommit(false);
                            lockTenant(c, 1);
                            c.commit();
                        }
                    }
                    void handedIn(java.sql.Connection c) throws Exception {
                        lockTenant(c, 1);
                    }
                }
                """);
        IdentityHashMap<Node, List<String>> byNode = new IdentityHashMap<>();
        Map<String, LockSite> sites = new HashMap<>();
        for (MethodCallExpr call : unit.findAll(MethodCallExpr.class)) {
            if (call.getArguments().stream().anyMatch(a -> a.toString().contains("pg_advisory_xact_lock"))) {
                LockSite site = new LockSite(
                        "Jobs.java#0",
                        AdvisoryFunction.PG_ADVISORY_XACT_LOCK,
                        new LockKey(KeySpace.BIGINT, List.of(KeyPart.known(1, "1", null))),
                        SourceRegion.line("Jobs.java", 4),
                        null,
                        Language.JAVA,
                        ExecutionApi.JDBC_STATEMENT,
                        new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1"),
                        new JavaContext("Jobs", "lockTenant", "execute", "c", null));
                byNode.put(call, List.of(site.id()));
                sites.put(site.id(), site);
            }
        }
        List<MethodFlow> flows = FlowLowering.lower(
                unit, byNode, new HashSet<>(), c -> Set.of(), n -> SourceRegion.line("Jobs.java", 1), n -> {});
        LockStateAnalysis analysis = new LockStateAnalysis(flows, sites);
        LockStateAnalysis.Result result = analysis.run();
        assertThat(analysis.summaries().stream()
                        .filter(s -> s.key().equals("Jobs.lockTenant/2"))
                        .findFirst()
                        .orElseThrow()
                        .xactLocks())
                .containsExactly(new PathState.Hold("#0", "Jobs.java#0"));
        assertThat(analysis.summaries().stream()
                        .filter(s -> s.key().equals("Jobs.handedIn/1"))
                        .findFirst()
                        .orElseThrow()
                        .xactLocks())
                .as("passed on to the caller's caller")
                .containsExactly(new PathState.Hold("#0", "Jobs.java#0"));
        assertThat(result.findings())
                .as("only the call on the connection left in autocommit")
                .singleElement()
                .satisfies(f -> assertThat(f.kind()).isEqualTo(PathFinding.Kind.XACT_IN_AUTOCOMMIT));
    }
}
