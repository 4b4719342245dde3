package io.github.pgadvisorylint.core.flow;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The auto-commit default of the connection pools a file builds in code, by the name of the variable or field
 * that holds the pool: HikariCP's {@code setAutoCommit(b)} on a {@code HikariConfig} or {@code HikariDataSource},
 * DBCP2's and Tomcat JDBC's {@code setDefaultAutoCommit(b)} on their data sources. A pool built from a
 * {@code HikariConfig} ({@code new HikariDataSource(config)}) has the config's setting, and auto-commit on (the
 * pools' default) when the config sets none. A connection borrowed from such a pool starts in the setting's state
 * whatever the project's configuration says of its main pool: the setting is per source (RULES.md F18).
 */
final class PoolSettings {

    /** The setters of a pool's auto-commit default: HikariCP's, and DBCP2's and Tomcat JDBC's. */
    private static final Set<String> SETTERS = Set.of("setAutoCommit", "setDefaultAutoCommit");

    private static final Set<String> POOLS = Set.of("HikariDataSource", "BasicDataSource");

    private PoolSettings() {}

    /**
     * @param unit    a compilation unit
     * @param regions where a node is in the file
     * @return by variable or field name, the auto-commit setting of the pool it holds; empty when the file builds
     *     no pool
     */
    static Map<String, AutoCommitSetting> of(CompilationUnit unit, Function<Node, SourceRegion> regions) {
        Map<String, AutoCommitSetting> byName = new HashMap<>();
        for (MethodCallExpr m : unit.findAll(MethodCallExpr.class)) {
            if (!SETTERS.contains(m.getNameAsString())
                    || m.getArguments().size() != 1
                    || !(m.getArgument(0) instanceof BooleanLiteralExpr b)) {
                continue;
            }
            String name = m.getScope().map(PoolSettings::name).orElse(null);
            SourceRegion at = regions.apply(m);
            if (name != null && at != null) {
                byName.put(
                        name,
                        new AutoCommitSetting(
                                b.getValue(), name + "." + m.getNameAsString() + "(" + b.getValue() + ")", at));
            }
        }
        Map<String, AutoCommitSetting> out = new HashMap<>(byName);
        for (ObjectCreationExpr o : unit.findAll(ObjectCreationExpr.class)) {
            String type = o.getType().getNameAsString();
            if (!POOLS.contains(type)) {
                continue;
            }
            String holder = holder(o);
            if (holder == null || out.containsKey(holder)) {
                continue;
            }
            String config = o.getArguments().size() == 1 ? name(o.getArgument(0)) : null;
            SourceRegion at = regions.apply(o);
            if (config != null && byName.containsKey(config)) {
                out.put(holder, byName.get(config));
            } else if (at != null && builtHere(o, config) && !boundToProperties(o)) {
                out.put(
                        holder,
                        new AutoCommitSetting(
                                true,
                                "new " + type + "(..) without an auto-commit setter: on, the pool's default",
                                at));
            }
        }
        return out;
    }

    /**
     * @return whether the pool's settings are all in the code: created with no argument, or from a config the same
     *     method creates ({@code new HikariConfig()}), not one handed in (a bean Spring may have bound to properties)
     */
    private static boolean builtHere(ObjectCreationExpr o, String config) {
        if (o.getArguments().isEmpty()) {
            return true;
        }
        if (config == null) {
            return false;
        }
        return o.findAncestor(CallableDeclaration.class)
                .map(c -> c.findAll(VariableDeclarator.class).stream()
                        .anyMatch(v -> v.getNameAsString().equals(config)
                                && v.getInitializer()
                                        .filter(ObjectCreationExpr.class::isInstance)
                                        .isPresent()))
                .orElse(false);
    }

    /** @return whether the method creating the pool binds it to configuration ({@code @ConfigurationProperties}) */
    private static boolean boundToProperties(ObjectCreationExpr o) {
        Optional<CallableDeclaration> callable = o.findAncestor(CallableDeclaration.class);
        return callable.isPresent()
                && callable.get().getAnnotations().stream()
                        .anyMatch(a -> ((AnnotationExpr) a).getNameAsString().endsWith("ConfigurationProperties"));
    }

    /** @return the variable or field a pool created here is stored in, or null */
    private static String holder(ObjectCreationExpr o) {
        Node parent = o.getParentNode().orElse(null);
        if (parent instanceof VariableDeclarator v) {
            return v.getNameAsString();
        }
        if (parent instanceof AssignExpr a && a.getValue() == o) {
            return name(a.getTarget());
        }
        return null;
    }

    /** @return the name {@code x} or {@code this.x} stands for, or null */
    private static String name(Expression e) {
        if (e instanceof NameExpr n) {
            return n.getNameAsString();
        }
        if (e instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr) {
            return f.getNameAsString();
        }
        return null;
    }
}
