package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** Name look-ups inside one method body, shared by the string and key evaluators. */
final class JavaScopes {

    private JavaScopes() {}

    /** @return the method, constructor or initializer holding the node, or null */
    static Node callableOf(Node n) {
        Node cur = n;
        while (cur != null) {
            if (cur instanceof CallableDeclaration<?> || cur instanceof InitializerDeclaration) {
                return cur;
            }
            cur = cur.getParentNode().orElse(null);
        }
        return null;
    }

    /**
     * @param name a simple name
     * @param use  where it is read
     * @return the local variable of that name declared in the enclosing body before the use, or empty
     */
    static Optional<VariableDeclarator> local(String name, Node use) {
        Node scope = callableOf(use);
        if (scope == null) {
            return Optional.empty();
        }
        int line = use.getBegin().map(p -> p.line).orElse(Integer.MAX_VALUE);
        Map<Node, Map<String, List<VariableDeclarator>>> cache = SYMBOLS.get();
        List<VariableDeclarator> candidates = cache == null
                ? declarators(scope).getOrDefault(name, List.of())
                : cache.computeIfAbsent(scope, JavaScopes::declarators).getOrDefault(name, List.of());
        VariableDeclarator best = null;
        for (VariableDeclarator v : candidates) {
            if (v.getBegin().map(p -> p.line).orElse(0) <= line) {
                best = v;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The symbol table of one callable: its local variable declarators (fields of local and anonymous
     * classes left out) by name, in the order of the tree. Built once per callable while
     * {@link #withSymbolTables} runs, so a look-up costs the declarators of one name, not a walk of the
     * whole body: a 5,000-statement method no longer costs time quadratic in its size.
     */
    private static Map<String, List<VariableDeclarator>> declarators(Node scope) {
        Map<String, List<VariableDeclarator>> byName = new HashMap<>();
        for (VariableDeclarator v : scope.findAll(VariableDeclarator.class)) {
            if (!(v.getParentNode().orElse(null) instanceof FieldDeclaration)) {
                byName.computeIfAbsent(v.getNameAsString(), k -> new ArrayList<>())
                        .add(v);
            }
        }
        return byName;
    }

    /** Symbol tables of the callables of the file being extracted on this thread, or null outside one. */
    private static final ThreadLocal<Map<Node, Map<String, List<VariableDeclarator>>>> SYMBOLS = new ThreadLocal<>();

    /**
     * Runs one file's extraction with a symbol table per callable, built on first use and dropped at the
     * end, so no syntax tree outlives its file. Nested calls share the outer tables.
     *
     * @param work the extraction
     * @return what it returns
     */
    static <T> T withSymbolTables(Supplier<T> work) {
        if (SYMBOLS.get() != null) {
            return work.get();
        }
        SYMBOLS.set(new IdentityHashMap<>());
        try {
            return work.get();
        } finally {
            SYMBOLS.remove();
        }
    }

    /** @return true when the name is a parameter of an enclosing method or lambda (which shadows fields) */
    static boolean isParameter(String name, Node use) {
        Node cur = use;
        while (cur != null) {
            if (cur instanceof CallableDeclaration<?> c
                    && c.getParameters().stream()
                            .anyMatch(p -> p.getNameAsString().equals(name))) {
                return true;
            }
            if (cur instanceof LambdaExpr l
                    && l.getParameters().stream()
                            .anyMatch(p -> p.getNameAsString().equals(name))) {
                return true;
            }
            if (cur instanceof TypeDeclaration<?>) {
                return false;
            }
            cur = cur.getParentNode().orElse(null);
        }
        return false;
    }

    /** @return true when the local variable is assigned again after its declaration (not effectively final) */
    static boolean reassigned(VariableDeclarator v) {
        Node scope = callableOf(v);
        return scope != null
                && scope.findAll(AssignExpr.class).stream()
                        .anyMatch(a -> a.getTarget() instanceof NameExpr n
                                && n.getNameAsString().equals(v.getNameAsString()));
    }

    /**
     * @param name a simple name
     * @param use  where it is read
     * @return the declared type of the local (a {@code var} local initialised with {@code new T(..)}
     *     gives {@code T}), parameter or field of that name visible from the node, as written; null when
     *     not found
     */
    static String declaredType(String name, Node use) {
        Optional<VariableDeclarator> local = local(name, use);
        if (local.isPresent()) {
            if (!local.get().getType().isVarType()) {
                return local.get().getType().asString();
            }
            return local.get()
                    .getInitializer()
                    .filter(i -> i instanceof ObjectCreationExpr)
                    .map(i -> ((ObjectCreationExpr) i).getType().asString())
                    .orElse(null);
        }
        for (Node cur = use; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof CallableDeclaration<?> c) {
                for (Parameter p : c.getParameters()) {
                    if (p.getNameAsString().equals(name)) {
                        return p.getType().asString();
                    }
                }
            }
            if (cur instanceof LambdaExpr l) {
                for (Parameter p : l.getParameters()) {
                    if (p.getNameAsString().equals(name)) {
                        return p.getType().isUnknownType() ? null : p.getType().asString();
                    }
                }
            }
            if (cur instanceof TypeDeclaration<?> t) {
                Optional<FieldDeclaration> f = t.getFieldByName(name);
                if (f.isPresent()) {
                    return f.get().getElementType().asString();
                }
            }
        }
        return null;
    }

    /**
     * @param type a type as written, e.g. {@code com.acme.Locks<String>} or {@code Locks[]}
     * @return its simple name without type arguments or array brackets, e.g. {@code Locks}
     */
    static String simpleTypeName(String type) {
        String t = type;
        int lt = t.indexOf('<');
        if (lt >= 0) {
            t = t.substring(0, lt);
        }
        t = t.replace("[]", "").trim();
        return t.substring(t.lastIndexOf('.') + 1);
    }
}
