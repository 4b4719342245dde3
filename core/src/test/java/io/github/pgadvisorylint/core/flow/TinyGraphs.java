package io.github.pgadvisorylint.core.flow;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.MethodCallExpr;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Method graphs of a small source text for the unit tests of {@code core.flow}. */
final class TinyGraphs {

    private TinyGraphs() {}

    /**
     * @param source Java text; every call with an argument naming {@code pg_advisory} is a lock site
     *               ({@code site-0}, {@code site-1}, ... in source order)
     * @param facts  the words a method's modifiers get ({@code transactional})
     * @return the graphs, in source order
     */
    static List<MethodFlow> lower(String source, Function<CallableDeclaration<?>, Set<String>> facts) {
        CompilationUnit unit = StaticJavaParser.parse(source);
        IdentityHashMap<Node, List<String>> sites = new IdentityHashMap<>();
        for (MethodCallExpr call : unit.findAll(MethodCallExpr.class)) {
            call.getArguments().stream()
                    .filter(a -> a.toString().contains("pg_advisory"))
                    .findFirst()
                    .ifPresent(a -> sites.put(call, List.of("site-" + sites.size())));
        }
        return FlowLowering.lower(unit, sites, new HashSet<>(), facts, n -> null, n -> {});
    }

    /** @return the graphs of {@code source}, no method with facts */
    static List<MethodFlow> lower(String source) {
        return lower(source, c -> Set.of());
    }
}
