package io.github.pgadvisorylint.core.java;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import io.github.pgadvisorylint.core.model.ConnectionOrigin;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Where the Spring beans a lock site's connection is injected from connect ({@link ConnectionOrigin#bean()}), read
 * from their {@code @Bean} methods:
 *
 * <ul>
 *   <li>{@code @ConfigurationProperties("app.locks.datasource")} on the method: the configured
 *       {@code app.locks.datasource.url} or {@code .jdbc-url} (Spring Boot binds either, relaxed);
 *   <li>a URL the body sets: {@code setJdbcUrl(..)}, {@code setUrl(..)}, {@code .url(..)} of a builder, read like a
 *       {@code DriverManager} URL (a literal, a constant, an {@code @Value} parameter, {@code env.getProperty(..)});
 *   <li>otherwise a qualified parameter the bean is built from ({@code new JdbcTemplate(lockDataSource)} of a
 *       parameter {@code @Qualifier("lockDataSource")}), followed up to three beans deep.
 * </ul>
 *
 * A bean is known by its method's name, the names {@code @Bean} gives, and a {@code @Qualifier} on the method. A
 * file that does not parse is skipped. Stateless.
 */
public final class DataSourceBeans {

    /** Calls of a builder that set its URL (a pool's setters are {@link ConnectionOrigins#URL_SETTERS}). */
    private static final Set<String> BUILDER_URL = Set.of("url", "jdbcUrl");

    /** Beans followed through qualified parameters. */
    private static final int MAX_DEPTH = 3;

    private DataSourceBeans() {}

    /**
     * @param files Java files that may define the beans (those whose text holds {@code @Bean} and a name asked for)
     * @param names the bean names asked for
     * @return for each name a bean definition is found for, the origins its URL may come from, in the order they are
     *     to be tried (a configured key, then a URL the code writes); names without a definition that says are absent
     */
    public static Map<String, List<ConnectionOrigin>> origins(List<SourceFile> files, Set<String> names) {
        Map<String, Definition> byName = new LinkedHashMap<>();
        JavaParser parser = new JavaParser(JavaFrontEnd.parserConfiguration());
        for (SourceFile file : files) {
            ParseResult<CompilationUnit> parsed;
            try {
                parsed = parser.parse(file.text());
            } catch (RuntimeException | StackOverflowError e) {
                continue; // not Java this parser reads: no definitions from it
            }
            if (parsed.getResult().isEmpty()) {
                continue;
            }
            Function<Node, SourceRegion> region = n -> n.getRange()
                    .map(r -> file.region(
                            file.offsetOf(r.begin.line, r.begin.column), file.offsetOf(r.end.line, r.end.column) + 1))
                    .orElse(SourceRegion.line(file.path(), 1));
            for (MethodDeclaration m : parsed.getResult().get().findAll(MethodDeclaration.class)) {
                if (m.getAnnotationByName("Bean").isEmpty()) {
                    continue;
                }
                for (String name : beanNames(m)) {
                    byName.putIfAbsent(name, new Definition(m, region));
                }
            }
        }
        Map<String, List<ConnectionOrigin>> out = new TreeMap<>();
        for (String name : names) {
            List<ConnectionOrigin> found = resolve(name, byName, 0, new HashSet<>());
            if (!found.isEmpty()) {
                out.put(name, List.copyOf(found));
            }
        }
        return out;
    }

    private record Definition(MethodDeclaration method, Function<Node, SourceRegion> region) {}

    private static List<ConnectionOrigin> resolve(
            String name, Map<String, Definition> byName, int depth, Set<String> seen) {
        Definition d = byName.get(name);
        if (d == null || depth > MAX_DEPTH || !seen.add(name)) {
            return List.of();
        }
        List<ConnectionOrigin> out = new ArrayList<>();
        MethodDeclaration m = d.method();
        for (AnnotationExpr a : m.getAnnotations()) {
            if (a.getName().getIdentifier().equals("ConfigurationProperties")) {
                for (String prefix : strings(a, "prefix", "value")) {
                    for (String property : List.of(".url", ".jdbc-url")) {
                        out.add(new ConnectionOrigin(
                                null, prefix + property, d.region().apply(a)));
                    }
                }
            }
        }
        for (MethodCallExpr call : m.findAll(MethodCallExpr.class)) {
            if ((ConnectionOrigins.URL_SETTERS.contains(call.getNameAsString())
                            || BUILDER_URL.contains(call.getNameAsString()))
                    && call.getArguments().size() == 1) {
                ConnectionOrigin o = ConnectionOrigins.url(call.getArgument(0), call, d.region(), 0);
                if (o != null) {
                    out.add(o);
                }
            }
        }
        if (out.isEmpty()) {
            for (Parameter p : m.getParameters()) {
                for (AnnotationExpr a : p.getAnnotations()) {
                    if (a.getName().getIdentifier().equals("Qualifier")) {
                        for (String next : strings(a, "value")) {
                            out.addAll(resolve(next, byName, depth + 1, seen));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** @return the names a {@code @Bean} method defines: its {@code @Bean} names, else its own; and a qualifier */
    private static List<String> beanNames(MethodDeclaration m) {
        List<String> out = new ArrayList<>();
        m.getAnnotationByName("Bean").ifPresent(a -> out.addAll(strings(a, "name", "value")));
        if (out.isEmpty()) {
            out.add(m.getNameAsString());
        }
        m.getAnnotationByName("Qualifier").ifPresent(a -> out.addAll(strings(a, "value")));
        return out;
    }

    /** @return the string literals an annotation gives for one of the members (a single member counts as value) */
    private static List<String> strings(AnnotationExpr a, String... members) {
        List<Expression> values = new ArrayList<>();
        if (a instanceof SingleMemberAnnotationExpr s) {
            values.add(s.getMemberValue());
        } else if (a instanceof NormalAnnotationExpr n) {
            for (MemberValuePair p : n.getPairs()) {
                if (List.of(members).contains(p.getNameAsString())) {
                    values.add(p.getValue());
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (Expression v : values) {
            List<Expression> items = v instanceof ArrayInitializerExpr arr ? arr.getValues() : List.of(v);
            for (Expression item : items) {
                if (item instanceof StringLiteralExpr s && !s.asString().isBlank()) {
                    out.add(s.asString().strip());
                }
            }
        }
        return out;
    }
}
