package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

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
        List<VariableDeclarator> candidates = declarators(scope).getOrDefault(name, List.of());
        VariableDeclarator best = null;
        for (VariableDeclarator v : candidates) {
            if (v.getBegin().map(p -> p.line).orElse(0) <= line) {
                best = v;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The index of one callable, built by one walk of its body: its local variable declarators (fields
     * of local and anonymous classes left out) by name, its method calls in the order of the tree
     * ({@link Node#findAll}'s pre-order) and by name, its name expressions by name, and the names
     * assigned by an {@code =} or compound assignment, and each call's position in tree order. Built once per
     * callable while {@link #withSymbolTables} runs, so a look-up per lock call costs what the name
     * selects, not a walk of the whole body: a 5,000-statement method does not cost time quadratic in
     * its size.
     */
    private record Index(
            Map<String, List<VariableDeclarator>> declarators,
            List<MethodCallExpr> calls,
            Map<String, List<MethodCallExpr>> callsByName,
            Map<String, List<NameExpr>> namesByName,
            Set<String> assignedNames,
            Map<MethodCallExpr, Integer> order) {

        static Index of(Node scope) {
            Map<String, List<VariableDeclarator>> declarators = new HashMap<>();
            List<MethodCallExpr> calls = new ArrayList<>();
            Map<String, List<MethodCallExpr>> callsByName = new HashMap<>();
            Map<String, List<NameExpr>> namesByName = new HashMap<>();
            Set<String> assignedNames = new HashSet<>();
            scope.walk(Node.TreeTraversal.PREORDER, n -> {
                if (n instanceof VariableDeclarator v
                        && !(v.getParentNode().orElse(null) instanceof FieldDeclaration)) {
                    declarators
                            .computeIfAbsent(v.getNameAsString(), k -> new ArrayList<>())
                            .add(v);
                } else if (n instanceof MethodCallExpr m) {
                    calls.add(m);
                    callsByName
                            .computeIfAbsent(m.getNameAsString(), k -> new ArrayList<>())
                            .add(m);
                } else if (n instanceof NameExpr e) {
                    namesByName
                            .computeIfAbsent(e.getNameAsString(), k -> new ArrayList<>())
                            .add(e);
                } else if (n instanceof AssignExpr a && a.getTarget() instanceof NameExpr t) {
                    assignedNames.add(t.getNameAsString());
                }
            });
            Map<MethodCallExpr, Integer> order = new IdentityHashMap<>();
            for (MethodCallExpr m : calls) {
                order.put(m, order.size());
            }
            return new Index(declarators, List.copyOf(calls), callsByName, namesByName, assignedNames, order);
        }
    }

    /** Indexes of the callables of the file being extracted on this thread, or null outside one. */
    private static final ThreadLocal<Map<Node, Index>> SYMBOLS = new ThreadLocal<>();

    private static Index index(Node scope) {
        Map<Node, Index> cache = SYMBOLS.get();
        return cache == null ? Index.of(scope) : cache.computeIfAbsent(scope, Index::of);
    }

    private static Map<String, List<VariableDeclarator>> declarators(Node scope) {
        return index(scope).declarators();
    }

    /**
     * @param scope a callable ({@link #callableOf}), a type, a file or any node
     * @return the method calls under it in tree order, as {@code scope.findAll(MethodCallExpr.class)};
     *     read from an index when {@code scope} is a callable, type or file and {@link #withSymbolTables} runs
     */
    static List<MethodCallExpr> calls(Node scope) {
        return indexed(scope) ? index(scope).calls() : scope.findAll(MethodCallExpr.class);
    }

    /**
     * @param scope a callable or any node
     * @param name  a method name
     * @return the calls of that name under it, in tree order
     */
    static List<MethodCallExpr> callsNamed(Node scope, String name) {
        if (indexed(scope)) {
            return index(scope).callsByName().getOrDefault(name, List.of());
        }
        return scope.findAll(MethodCallExpr.class, m -> m.getNameAsString().equals(name));
    }

    /**
     * The arguments a method receives at one parameter from the calls of it under a node: calls by the method's name
     * with its number of arguments (other overloads of that arity included, as the analysis cannot tell them apart).
     *
     * @param method the method
     * @param index  the parameter's position
     * @param scope  where to look for calls: the method's type or its file
     * @return the argument at {@code index} of each such call, in tree order; empty when there is no call
     */
    static List<Expression> argumentsAtEveryCall(MethodDeclaration method, int index, Node scope) {
        List<Expression> out = new ArrayList<>();
        for (MethodCallExpr call : callsNamed(scope, method.getNameAsString())) {
            if (call.getArguments().size() == method.getParameters().size()) {
                out.add(call.getArgument(index));
            }
        }
        return out;
    }

    /**
     * @param scope a callable or any node
     * @param names method names
     * @return the calls of any of those names under it, in tree order (as {@link #calls} filtered)
     */
    static List<MethodCallExpr> callsNamed(Node scope, Collection<String> names) {
        if (!indexed(scope)) {
            return scope.findAll(MethodCallExpr.class, m -> names.contains(m.getNameAsString()));
        }
        Index index = index(scope);
        List<MethodCallExpr> out = new ArrayList<>();
        for (String name : new HashSet<>(names)) {
            out.addAll(index.callsByName().getOrDefault(name, List.of()));
        }
        out.sort(Comparator.comparingInt(index.order()::get));
        return out;
    }

    /**
     * @param scope a callable or any node
     * @param name  a simple name
     * @return the name expressions of that name under it, in tree order
     */
    static List<NameExpr> names(Node scope, String name) {
        if (indexed(scope)) {
            return index(scope).namesByName().getOrDefault(name, List.of());
        }
        return scope.findAll(NameExpr.class, e -> e.getNameAsString().equals(name));
    }

    /** Callables, types and files get an index: the scopes a look-up per lock call walks. */
    private static boolean indexed(Node n) {
        return n instanceof CallableDeclaration<?>
                || n instanceof InitializerDeclaration
                || n instanceof TypeDeclaration<?>
                || n instanceof CompilationUnit;
    }

    /**
     * Runs one file's extraction with an index per callable, built on first use and dropped at the
     * end, so no syntax tree outlives its file. Nested calls share the outer indexes.
     *
     * @param work the extraction
     * @return what it returns
     */
    static <T> T withSymbolTables(Supplier<T> work) {
        return withSymbolTables(null, work);
    }

    /**
     * As {@link #withSymbolTables(Supplier)}, with the project's types for the fields a class inherits
     * ({@link #declaredType}: {@code jdbcTemplate} declared in an abstract base class of another file).
     *
     * @param types the project's outlined types, or null for the file's own only
     * @param work  the extraction
     * @return what it returns
     */
    static <T> T withSymbolTables(ConstantIndex types, Supplier<T> work) {
        boolean outer = SYMBOLS.get() == null;
        boolean typesHere = types != null && TYPES.get() == null;
        if (outer) {
            SYMBOLS.set(new IdentityHashMap<>());
        }
        if (typesHere) {
            TYPES.set(types);
        }
        try {
            return work.get();
        } finally {
            if (outer) {
                SYMBOLS.remove();
            }
            if (typesHere) {
                TYPES.remove();
            }
        }
    }

    /**
     * @return the type as written in {@code declaring}'s file, qualified by that file's single-type import
     *     of its simple name when there is one: the using file may not import it
     */
    private static String qualified(String type, Node declaring) {
        String simple = simpleTypeName(type);
        if (type.contains(".")) {
            return type;
        }
        return declaring
                .findCompilationUnit()
                .flatMap(cu -> cu.getImports().stream()
                        .filter(i -> !i.isAsterisk() && !i.isStatic())
                        .map(i -> i.getNameAsString())
                        .filter(i -> i.endsWith("." + simple))
                        .findFirst())
                .map(q -> q + type.substring(simple.length()))
                .orElse(type);
    }

    /** The project's types while {@link #withSymbolTables(ConstantIndex, Supplier)} runs on this thread. */
    private static final ThreadLocal<ConstantIndex> TYPES = new ThreadLocal<>();

    /** How many super classes up {@link #inheritedFieldType} looks. */
    private static final int MAX_SUPER_DEPTH = 4;

    /**
     * @param type a type declaration of the file being analysed
     * @param name a simple name used in its bodies
     * @return the declared type of a field {@code name} that {@code type} inherits from a super class of
     *     the project (its own fields are looked at by the caller), qualified as its declaring file imports
     *     it; null when none is known, or when no {@link #withSymbolTables} runs on this thread
     */
    public static String inheritedFieldType(TypeDeclaration<?> type, String name) {
        ConstantIndex types = TYPES.get();
        if (types == null || !(type instanceof ClassOrInterfaceDeclaration start)) {
            return null;
        }
        ClassOrInterfaceDeclaration cur = start;
        for (int depth = 0; depth < MAX_SUPER_DEPTH && cur.getExtendedTypes().isNonEmpty(); depth++) {
            List<TypeDeclaration<?>> supers =
                    types.types(cur.getExtendedTypes().get(0).getNameAsString());
            if (supers.size() != 1 || !(supers.get(0) instanceof ClassOrInterfaceDeclaration next) || next == cur) {
                return null; // unknown or ambiguous by simple name: not decided here
            }
            Optional<FieldDeclaration> f = next.getFieldByName(name);
            if (f.isPresent()) {
                return f.get().isPrivate()
                        ? null
                        : qualified(f.get().getElementType().asString(), next);
            }
            cur = next;
        }
        return null;
    }

    /**
     * Whether a call of a project method cannot fail: the method's body only returns or assigns a field, a
     * parameter, a literal or {@code this} (a getter or setter), or the method is one the compiler writes that does
     * that (a record component's accessor, Lombok's {@code @Getter}, {@code @Data} or {@code @Value} getter of a
     * field). Such a call between a lock and the {@code try} that releases it cannot skip the release.
     *
     * @param type   the declared type of the receiver, simple or qualified ({@code Session},
     *               {@code com.x.Session}), or the calling method's own type for a call on {@code this}
     * @param method the method's name
     * @param arity  its number of arguments
     * @return true when exactly one project type has that simple name, it is a class, record or enum (an
     *     interface's method can be any implementation), and its method of that name and arity is such a method;
     *     false when unknown, or when no {@link #withSymbolTables(ConstantIndex, Supplier)} runs on this thread
     */
    public static boolean cannotFail(String type, String method, int arity) {
        ConstantIndex types = TYPES.get();
        if (types == null || type == null) {
            return false;
        }
        List<TypeDeclaration<?>> found = types.types(simpleTypeName(type));
        if (found.size() != 1 || (found.get(0) instanceof ClassOrInterfaceDeclaration c && c.isInterface())) {
            return false;
        }
        TypeDeclaration<?> t = found.get(0);
        List<MethodDeclaration> declared = t.getMethodsByName(method).stream()
                .filter(m -> m.getParameters().size() == arity)
                .toList();
        if (declared.size() == 1) {
            return declared.get(0).getBody().map(JavaScopes::onlyMovesValues).orElse(false);
        }
        if (!declared.isEmpty() || arity != 0) {
            return false;
        }
        if (t instanceof RecordDeclaration r) {
            return r.getParameters().stream().anyMatch(p -> p.getNameAsString().equals(method));
        }
        String field = method.startsWith("get") && method.length() > 3
                ? method.substring(3)
                : method.startsWith("is") && method.length() > 2 ? method.substring(2) : null;
        if (field == null) {
            return false;
        }
        String name = Character.toLowerCase(field.charAt(0)) + field.substring(1);
        boolean typeGetters =
                LOMBOK_GETTERS.stream().anyMatch(a -> t.getAnnotationByName(a).isPresent());
        return t.getFieldByName(name)
                .filter(f -> typeGetters || f.getAnnotationByName("Getter").isPresent())
                .isPresent();
    }

    /** Lombok's annotations that give a class a getter for every field. */
    private static final List<String> LOMBOK_GETTERS = List.of("Getter", "Data", "Value");

    /**
     * @return whether the body has statements and every one returns or assigns a value that needs no evaluation
     *     that can fail (an empty body is a hook or a stub meant to be overridden, not a getter)
     */
    private static boolean onlyMovesValues(BlockStmt body) {
        if (body.getStatements().isEmpty()) {
            return false;
        }
        for (Statement s : body.getStatements()) {
            boolean returns = s instanceof ReturnStmt r
                    && r.getExpression().map(JavaScopes::plainValue).orElse(true);
            boolean stores = s instanceof ExpressionStmt x
                    && x.getExpression() instanceof AssignExpr a
                    && a.getOperator() == AssignExpr.Operator.ASSIGN
                    && plainValue(a.getTarget())
                    && plainValue(a.getValue());
            boolean moves = returns || stores;
            if (!moves) {
                return false;
            }
        }
        return true;
    }

    /** @return whether the expression is a name, a field of {@code this}, {@code this} or a literal */
    private static boolean plainValue(Expression e) {
        return e instanceof NameExpr
                || e instanceof ThisExpr
                || e instanceof LiteralExpr
                || (e instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr);
    }

    /**
     * @param e an expression
     * @return true for a literal (negated too: {@code -5}) or a value named like a constant
     *     ({@code LIMIT}, {@code Kind.A}, {@code Keys.NIGHTLY}): a value every evaluation gives the same
     */
    static boolean isConstantLike(Expression e) {
        if (e instanceof LiteralExpr || (e instanceof UnaryExpr u && u.getExpression() instanceof LiteralExpr)) {
            return true;
        }
        String name = e instanceof NameExpr n
                ? n.getNameAsString()
                : e instanceof FieldAccessExpr f ? f.getNameAsString() : null;
        return name != null && CONSTANT_NAME.matcher(name).matches();
    }

    private static final Pattern CONSTANT_NAME = Pattern.compile("[A-Z][A-Z0-9_]*");

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
        return scope != null && index(scope).assignedNames().contains(v.getNameAsString());
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
                String inherited = inheritedFieldType(t, name);
                if (inherited != null) {
                    return inherited;
                }
            }
        }
        return null;
    }

    /**
     * The declared type of a call's receiver when it is a variable: a local, parameter or field by name
     * ({@code dialect}), or a field through {@code this} ({@code this.dialect}).
     *
     * @param scope a call's receiver
     * @return the simple name of its declared type, e.g. {@code PostgresLockDialect}; null for any other
     *     receiver or an undeclared ({@code var} without a constructor call) one
     */
    static String receiverTypeName(Expression scope) {
        String name = scope instanceof NameExpr n
                ? n.getNameAsString()
                : scope instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr ? f.getNameAsString() : null;
        String declared = name == null ? null : declaredType(name, scope);
        return declared == null ? null : simpleTypeName(declared);
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
