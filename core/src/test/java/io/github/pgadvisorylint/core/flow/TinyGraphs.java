package io.github.pgadvisorylint.core.flow;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.MethodCallExpr;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Method graphs of a small source text for the unit tests of {@code core.flow}. */
final class TinyGraphs {

    private TinyGraphs() {}

    /**
     * @param source Java text; every call with an argument naming an advisory-lock function
     *               ({@code pg_advisory_lock}, {@code pg_try_advisory_lock}, {@code pg_advisory_unlock}) is a lock site
     *               ({@code site-0}, {@code site-1}, ... in source order)
     * @param facts  the words a method's modifiers get ({@code transactional})
     * @return the graphs, in source order
     */
    static List<MethodFlow> lower(String source, Function<CallableDeclaration<?>, Set<String>> facts) {
        CompilationUnit unit = StaticJavaParser.parse(source);
        IdentityHashMap<Node, List<String>> sites = new IdentityHashMap<>();
        for (MethodCallExpr call : unit.findAll(MethodCallExpr.class)) {
            call.getArguments().stream()
                    .filter(a -> a.toString().contains("_advisory_"))
                    .findFirst()
                    .ifPresent(a -> sites.put(call, List.of("site-" + sites.size())));
        }
        return FlowLowering.lower(unit, sites, new HashSet<>(), facts, n -> null, n -> {});
    }

    /**
     * @param id       the site's id ({@code site-0}, ...)
     * @param function the function it calls
     * @param line     its line in {@code Job.java}
     * @return a JDBC statement site of key 1 in {@code Job.run}
     */
    static LockSite site(String id, AdvisoryFunction function, int line) {
        return new LockSite(
                id,
                function,
                new LockKey(KeySpace.BIGINT, List.of(KeyPart.known(1, "1", null))),
                SourceRegion.line("Job.java", line),
                null,
                Language.JAVA,
                ExecutionApi.JDBC_STATEMENT,
                new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1"),
                new JavaContext("Job", "run", "execute", "c", null));
    }

    /** @return the graphs of {@code source}, no method with facts */
    static List<MethodFlow> lower(String source) {
        return lower(source, c -> Set.of());
    }
}
