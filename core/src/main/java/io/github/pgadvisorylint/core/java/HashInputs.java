package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import io.github.pgadvisorylint.core.model.KeyPopulation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link KeyPopulation} of the Java expression a lock key hashes: what the code says about how many
 * distinct values it takes. Read from the expression alone, its locals' initializers, and the
 * declarations of the parameters and fields it names:
 * <ul>
 *   <li>a handful: {@code System.getenv}/{@code getProperty}, a field or parameter annotated
 *       {@code @Value}/{@code @ConfigProperty} (or assigned, in every constructor, from such a constructor
 *       parameter), an enum constant's {@code name()}, a class name, a
 *       parameter of a private method that every call in its file passes a constant;
 *   <li>many: a {@code UUID}, or a name whose words say entity ({@code tenantSlug}, {@code orderId});
 *   <li>otherwise by the words of the names read ({@link KeyPopulation#ofIdentifiers}).
 * </ul>
 * Literals take no part: {@code ("jobs-" + topic)} is as many as {@code topic}.
 */
final class HashInputs {

    private static final int MAX_DEPTH = 4;
    private static final Set<String> PASS_THROUGH = Set.of(
            "toString",
            "toLowerCase",
            "toUpperCase",
            "trim",
            "strip",
            "intern",
            "valueOf",
            "getBytes",
            "concat",
            "join",
            "format",
            "formatted",
            "toUnsignedString",
            "requireNonNull");
    private static final Set<String> CONFIG_ANNOTATIONS = Set.of("Value", "ConfigProperty", "Property");
    private static final KeyPopulation CONFIG = KeyPopulation.few("a configuration value");

    private HashInputs() {}

    /**
     * @param inputs the hashed expressions (one for {@code s.hashCode()}, several for {@code Objects.hash})
     * @return their combined population: many when one is, a handful when all are
     */
    static KeyPopulation of(List<? extends Expression> inputs) {
        List<KeyPopulation> leaves = new ArrayList<>();
        for (Expression e : inputs) {
            leaves(e, 0, leaves);
        }
        return KeyPopulation.combine(leaves);
    }

    /** @return the population of one hashed expression */
    static KeyPopulation of(Expression input) {
        return of(List.of(input));
    }

    private static void leaves(Expression e, int depth, List<KeyPopulation> out) {
        if (e == null || e instanceof LiteralExpr || e instanceof ClassExpr) {
            return;
        }
        if (depth > MAX_DEPTH) {
            out.add(KeyPopulation.UNKNOWN);
            return;
        }
        if (e instanceof EnclosedExpr p) {
            leaves(p.getInner(), depth + 1, out);
        } else if (e instanceof CastExpr c) {
            leaves(c.getExpression(), depth + 1, out);
        } else if (e instanceof BinaryExpr b) {
            leaves(b.getLeft(), depth + 1, out);
            leaves(b.getRight(), depth + 1, out);
        } else if (e instanceof ConditionalExpr c) {
            leaves(c.getThenExpr(), depth + 1, out);
            leaves(c.getElseExpr(), depth + 1, out);
        } else if (e instanceof MethodCallExpr m) {
            out.add(call(m, depth));
        } else if (e instanceof NameExpr n) {
            out.add(name(n.getNameAsString(), n, depth));
        } else if (e instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr) {
            out.add(field(f.getNameAsString(), f));
        } else if (e instanceof FieldAccessExpr f) {
            out.add(KeyPopulation.ofIdentifiers(identifiers(f)));
        } else {
            out.add(KeyPopulation.UNKNOWN);
        }
    }

    private static KeyPopulation call(MethodCallExpr m, int depth) {
        String name = m.getNameAsString();
        String scope = m.getScope().map(Node::toString).orElse("");
        if ((name.equals("getenv") && scope.equals("System"))
                || (name.equals("getProperty")
                        && (scope.equals("System")
                                || scope.toLowerCase(Locale.ROOT).contains("env")))) {
            return CONFIG;
        }
        if (name.equals("randomUUID")) {
            return KeyPopulation.many("a UUID, one key per value");
        }
        if (m.getArguments().isEmpty() && name.equals("name")) {
            return KeyPopulation.few("an enum constant's name");
        }
        if ((name.equals("getName") || name.equals("getSimpleName"))
                && m.getScope()
                        .filter(s -> s instanceof ClassExpr
                                || (s instanceof MethodCallExpr sc
                                        && sc.getNameAsString().equals("getClass")))
                        .isPresent()) {
            return KeyPopulation.few("a class name");
        }
        if (PASS_THROUGH.contains(name)) {
            List<KeyPopulation> parts = new ArrayList<>();
            m.getScope()
                    .filter(s -> !(s instanceof NameExpr sn
                            && Character.isUpperCase(sn.getNameAsString().charAt(0))))
                    .ifPresent(s -> leaves(s, depth + 1, parts));
            for (Expression a : m.getArguments()) {
                leaves(a, depth + 1, parts);
            }
            return KeyPopulation.combine(parts);
        }
        KeyPopulation words = KeyPopulation.ofIdentifiers(identifiers(m));
        if (words.cardinality() != KeyPopulation.Cardinality.UNKNOWN) {
            return words;
        }
        List<KeyPopulation> parts = new ArrayList<>();
        m.getScope().ifPresent(s -> leaves(s, depth + 1, parts));
        return parts.isEmpty() ? KeyPopulation.UNKNOWN : KeyPopulation.combine(parts);
    }

    private static KeyPopulation name(String name, Node use, int depth) {
        Optional<VariableDeclarator> local = JavaScopes.local(name, use);
        if (local.isPresent()) {
            VariableDeclarator v = local.get();
            if (isUuid(v.getType().asString())) {
                return KeyPopulation.many("a UUID, one key per value");
            }
            if (v.getInitializer().isPresent() && !JavaScopes.reassigned(v)) {
                List<KeyPopulation> parts = new ArrayList<>();
                leaves(v.getInitializer().get(), depth + 1, parts);
                KeyPopulation init = KeyPopulation.combine(parts);
                if (init.cardinality() != KeyPopulation.Cardinality.UNKNOWN || parts.isEmpty()) {
                    return parts.isEmpty() ? KeyPopulation.ofIdentifiers(List.of(name)) : init;
                }
            }
            return KeyPopulation.ofIdentifiers(List.of(name));
        }
        Parameter p = parameter(name, use);
        if (p != null) {
            if (isUuid(p.getType().asString())) {
                return KeyPopulation.many("a UUID, one key per value");
            }
            if (configured(p.getAnnotations())) {
                return CONFIG;
            }
            if (constantAtEveryCall(p)) {
                return KeyPopulation.few("a parameter every call in this file passes a constant");
            }
            return KeyPopulation.ofIdentifiers(
                    List.of(name, JavaScopes.simpleTypeName(p.getType().asString())));
        }
        return field(name, use);
    }

    private static KeyPopulation field(String name, Node use) {
        for (Node cur = use; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof TypeDeclaration<?> t) {
                Optional<FieldDeclaration> fd = t.getFieldByName(name);
                if (fd.isEmpty()) {
                    continue;
                }
                if (isUuid(fd.get().getElementType().asString())) {
                    return KeyPopulation.many("a UUID, one key per value");
                }
                if (configured(fd.get().getAnnotations())) {
                    return CONFIG;
                }
                for (VariableDeclarator v : fd.get().getVariables()) {
                    if (v.getNameAsString().equals(name)
                            && v.getInitializer().filter(i -> call(i) == CONFIG).isPresent()) {
                        return CONFIG;
                    }
                }
                if (configuredByConstructors(t, name)) {
                    return CONFIG;
                }
                return KeyPopulation.ofIdentifiers(List.of(name));
            }
        }
        return KeyPopulation.ofIdentifiers(List.of(name));
    }

    private static KeyPopulation call(Expression e) {
        return e instanceof MethodCallExpr m ? call(m, MAX_DEPTH) : KeyPopulation.UNKNOWN;
    }

    /** The names of a scope chain, outermost last: {@code tenant.getSlug()} gives [tenant, getSlug]. */
    private static List<String> identifiers(Expression e) {
        List<String> out = new ArrayList<>();
        Expression cur = e;
        while (cur != null) {
            if (cur instanceof MethodCallExpr m) {
                out.add(0, m.getNameAsString());
                cur = m.getScope().orElse(null);
            } else if (cur instanceof FieldAccessExpr f) {
                out.add(0, f.getNameAsString());
                cur = f.getScope();
            } else if (cur instanceof NameExpr n) {
                out.add(0, n.getNameAsString());
                String type = JavaScopes.declaredType(n.getNameAsString(), n);
                if (type != null) {
                    out.add(1, JavaScopes.simpleTypeName(type));
                }
                cur = null;
            } else if (cur instanceof EnclosedExpr p) {
                cur = p.getInner();
            } else {
                cur = null;
            }
        }
        return out;
    }

    private static Parameter parameter(String name, Node use) {
        for (Node cur = use; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof CallableDeclaration<?> c) {
                for (Parameter p : c.getParameters()) {
                    if (p.getNameAsString().equals(name)) {
                        return p;
                    }
                }
            }
            if (cur instanceof TypeDeclaration<?>) {
                return null;
            }
        }
        return null;
    }

    /**
     * A parameter of a private method that every call of the method in its file passes a literal or a
     * constant-named value ({@code UPPER_CASE}) at the parameter's place; at least one call.
     */
    private static boolean constantAtEveryCall(Parameter p) {
        if (!(p.getParentNode().orElse(null) instanceof MethodDeclaration md) || !md.isPrivate()) {
            return false;
        }
        List<Expression> passed =
                JavaScopes.argumentsAtEveryCall(md, md.getParameters().indexOf(p), md.findRootNode());
        return !passed.isEmpty() && passed.stream().allMatch(JavaScopes::isConstantLike);
    }

    /**
     * Whether every constructor assignment of a field ({@code this.name = name} or {@code name = name}) copies a
     * constructor parameter annotated {@code @Value}/{@code @ConfigProperty}/{@code @Property}: constructor
     * injection of a configuration value; at least one such assignment, and no other.
     */
    private static boolean configuredByConstructors(TypeDeclaration<?> type, String field) {
        int seen = 0;
        for (ConstructorDeclaration c : type.getConstructors()) {
            for (AssignExpr a : c.findAll(AssignExpr.class)) {
                Expression target = a.getTarget();
                boolean toField = (target instanceof FieldAccessExpr f
                                && f.getScope() instanceof ThisExpr
                                && f.getNameAsString().equals(field))
                        || (target instanceof NameExpr n
                                && n.getNameAsString().equals(field)
                                && c.getParameterByName(field).isEmpty());
                if (!toField) {
                    continue;
                }
                if (!(a.getValue() instanceof NameExpr v)
                        || a.getOperator() != AssignExpr.Operator.ASSIGN
                        || c.getParameterByName(v.getNameAsString())
                                .filter(p -> configured(p.getAnnotations()))
                                .isEmpty()) {
                    return false;
                }
                seen++;
            }
        }
        return seen > 0;
    }

    private static boolean configured(NodeList<AnnotationExpr> annotations) {
        return annotations.stream().anyMatch(a -> CONFIG_ANNOTATIONS.contains(a.getNameAsString()));
    }

    private static boolean isUuid(String type) {
        return type.equals("UUID") || type.equals("java.util.UUID");
    }
}
