package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.EnumConstantDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.CharLiteralExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.type.Type;
import io.github.pgadvisorylint.core.model.KeyHash;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeyPopulation;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Checksum;

/**
 * Computes the value of a Java expression used as a lock key, with where the value comes from:
 * integer literals (underscores, {@code L}, hex, octal, binary), {@code final} fields of this file and
 * of other files through the {@link ConstantIndex} (imports, static imports, qualified names, nested
 * types, interface constants, inherited constants), enum constants read through a field or a simple
 * getter, casts (with Java's truncation), unary minus and complement, {@code + - * << >> >>> | & ^},
 * effectively final locals, {@code String.hashCode()} of a constant (Java's algorithm) and
 * {@code CRC32}/{@code Adler32} over a constant's bytes (computed). Other hashes are recorded as
 * hashed-unknown with their width (RULES.md weak-lock-key-hash), followed through locals, casts and
 * widening ({@code (long)}, {@code Math.abs}, {@code Integer.toUnsignedLong}, a mask), fields written
 * once while the object is built, and getters or methods of a type of this analysis whose every
 * {@code return} is such a hash ({@code lock.getKey()}, {@code keyFor(topic)}); a hash of compile-time
 * constants stays a known value, and a 64-bit value (an id, a {@code long} constant) carries no hash.
 * Depth-bounded and cycle-safe; never throws.
 */
final class KeyEvaluator {

    private static final int MAX_DEPTH = 48;

    /** One-argument calls that keep a hash's bits: widening, boxing, sign folding. */
    private static final Set<String> WIDENING = Set.of(
            "Math.abs",
            "Math.absExact",
            "Integer.toUnsignedLong",
            "Long.valueOf",
            "Integer.valueOf",
            "Math.toIntExact",
            "StrictMath.abs");

    /** {@code String} methods that return a {@code String}. */
    private static final Set<String> STRING_RETURNING = Set.of(
            "toLowerCase",
            "toUpperCase",
            "trim",
            "strip",
            "concat",
            "substring",
            "replace",
            "replaceAll",
            "intern",
            "formatted",
            "repeat");

    /** A computed value: 64-bit, whether Java typed it {@code int}, its origin and hash. */
    private record Val(long value, boolean isInt, SourceRegion origin, String originName, KeyHash hash) {
        Val withValue(long v, boolean asInt) {
            return new Val(asInt ? (int) v : v, asInt, origin, originName, hash);
        }
    }

    private final ConstantIndex index;
    /** One string evaluator per compilation unit: building one indexes the unit's constants. */
    private final Map<CompilationUnit, StringEvaluator> stringEvaluators = new IdentityHashMap<>();

    KeyEvaluator(ConstantIndex index) {
        this.index = index;
    }

    /**
     * @param e    the key expression
     * @param file the file holding it
     * @return a known part, a hashed-unknown part, or an unknown part with the expression text
     */
    KeyPart evaluate(Expression e, SourceFile file) {
        String text = e.toString();
        try {
            Val v = eval(e, file, 0, new HashSet<>());
            if (v != null) {
                return KeyPart.known(
                        v.value, text, v.origin != null ? v.origin : region(e, file), v.originName, v.hash);
            }
            KeyHash hash = hashOf(e, file, 0, new HashSet<>());
            if (hash != null) {
                return KeyPart.hashed(KeyPart.Kind.UNKNOWN, text, hash);
            }
        } catch (RuntimeException | StackOverflowError ex) {
            // fall through: unknown
        }
        return KeyPart.of(KeyPart.Kind.UNKNOWN, text);
    }

    private Val eval(Expression e, SourceFile file, int depth, Set<Node> visiting) {
        if (e == null || depth > MAX_DEPTH) {
            return null;
        }
        if (e instanceof IntegerLiteralExpr i) {
            Number n = i.asNumber();
            return new Val(n.intValue(), true, region(e, file), null, null);
        }
        if (e instanceof LongLiteralExpr l) {
            return new Val(l.asNumber().longValue(), false, region(e, file), null, null);
        }
        if (e instanceof CharLiteralExpr c) {
            return new Val(c.asChar(), true, region(e, file), null, null);
        }
        if (e instanceof EnclosedExpr p) {
            return eval(p.getInner(), file, depth + 1, visiting);
        }
        if (e instanceof CastExpr c) {
            Val v = eval(c.getExpression(), file, depth + 1, visiting);
            if (v == null) {
                return null;
            }
            String t = c.getType().asString();
            return switch (t) {
                case "int", "Integer" -> v.withValue((long) (int) v.value, true);
                case "long", "Long" -> v.withValue(v.value, false);
                case "short", "Short" -> v.withValue((short) v.value, true);
                case "byte", "Byte" -> v.withValue((byte) v.value, true);
                case "char" -> v.withValue((char) v.value, true);
                default -> null;
            };
        }
        if (e instanceof UnaryExpr u) {
            Val v = eval(u.getExpression(), file, depth + 1, visiting);
            if (v == null) {
                return null;
            }
            return switch (u.getOperator()) {
                case MINUS -> v.withValue(-v.value, v.isInt);
                case PLUS -> v;
                case BITWISE_COMPLEMENT -> v.withValue(~v.value, v.isInt);
                default -> null;
            };
        }
        if (e instanceof BinaryExpr b) {
            Val l = eval(b.getLeft(), file, depth + 1, visiting);
            Val r = l == null ? null : eval(b.getRight(), file, depth + 1, visiting);
            if (l == null || r == null) {
                return null;
            }
            boolean asInt = l.isInt && r.isInt;
            long a = l.value;
            long c = r.value;
            Long out = switch (b.getOperator()) {
                case PLUS -> a + c;
                case MINUS -> a - c;
                case MULTIPLY -> a * c;
                case BINARY_OR -> a | c;
                case BINARY_AND -> a & c;
                case XOR -> a ^ c;
                case LEFT_SHIFT -> l.isInt ? (long) ((int) a << c) : a << c;
                case SIGNED_RIGHT_SHIFT -> l.isInt ? (long) ((int) a >> c) : a >> c;
                case UNSIGNED_RIGHT_SHIFT -> l.isInt ? (long) ((int) a >>> c) : a >>> c;
                default -> null;
            };
            if (out == null) {
                return null;
            }
            boolean shift = b.getOperator() == BinaryExpr.Operator.LEFT_SHIFT
                    || b.getOperator() == BinaryExpr.Operator.SIGNED_RIGHT_SHIFT
                    || b.getOperator() == BinaryExpr.Operator.UNSIGNED_RIGHT_SHIFT;
            boolean resultInt = shift ? l.isInt : asInt;
            Val origin = l.originName != null ? l : r.originName != null ? r : l;
            return new Val(resultInt ? (int) (long) out : out, resultInt, origin.origin, origin.originName, null);
        }
        if (e instanceof NameExpr n) {
            return name(n, file, depth, visiting);
        }
        if (e instanceof FieldAccessExpr f) {
            Optional<ConstantIndex.Constant> c = qualified(f);
            if (c.isPresent()) {
                return constant(c.get(), depth, visiting);
            }
            // ENUM_CONSTANT.field
            Optional<ConstantIndex.Constant> en =
                    f.getScope() instanceof NameExpr || f.getScope() instanceof FieldAccessExpr
                            ? enumConstant(f.getScope())
                            : Optional.empty();
            if (en.isPresent()) {
                return enumField(en.get(), f.getNameAsString(), depth, visiting);
            }
            return null;
        }
        if (e instanceof MethodCallExpr m) {
            return call(m, file, depth, visiting);
        }
        return null;
    }

    private Val call(MethodCallExpr m, SourceFile file, int depth, Set<Node> visiting) {
        String name = m.getNameAsString();
        if (name.equals("hashCode")
                && m.getArguments().isEmpty()
                && m.getScope().isPresent()) {
            String s = stringValue(m.getScope().get(), file);
            if (s != null) {
                return new Val(
                        s.hashCode(), true, region(m, file), null, new KeyHash(KeyHash.Function.STRING_HASHCODE, s));
            }
            return null;
        }
        if (name.equals("getValue")
                && m.getArguments().isEmpty()
                && m.getScope().orElse(null) instanceof NameExpr n) {
            return checksum(n, m, file);
        }
        if ((name.equals("valueOf") || name.equals("parseLong") || name.equals("parseInt"))
                && m.getArguments().size() == 1
                && m.getScope().isPresent()
                && (m.getScope().get().toString().equals("Long")
                        || m.getScope().get().toString().equals("Integer"))) {
            Val v = eval(m.getArgument(0), file, depth + 1, visiting);
            if (v == null && !name.equals("valueOf")) {
                String s = stringValue(m.getArgument(0), file);
                try {
                    return s == null
                            ? null
                            : new Val(Long.parseLong(s.trim()), name.equals("parseInt"), region(m, file), null, null);
                } catch (NumberFormatException ex) {
                    return null;
                }
            }
            return v == null
                    ? null
                    : v.withValue(v.value, m.getScope().get().toString().equals("Integer"));
        }
        if (m.getArguments().isEmpty() && m.getScope().isPresent()) {
            Optional<ConstantIndex.Constant> en = enumConstant(m.getScope().get());
            if (en.isPresent()) {
                return enumGetter(en.get(), name, depth, visiting);
            }
        }
        return returnedValue(m, file, depth, visiting);
    }

    /** A call being evaluated through its method's body: the method, the call and the caller's file. */
    private record Binding(MethodDeclaration method, MethodCallExpr call, SourceFile callerFile) {}

    /** The calls whose methods are being evaluated, innermost first; at most {@value #MAX_INLINED}. */
    private final Deque<Binding> bindings = new ArrayDeque<>();

    private static final int MAX_INLINED = 4;

    /**
     * The value of a call of a static method of this or another file, or of an instance method of a
     * concrete class ({@link #concreteClassMethod}), that returns an integral key
     * ({@code LockKeys.forShard(1)} with {@code return BASE + 100 + shard;}): its one {@code return}
     * expression, evaluated in the declaring file with the parameters bound to the call's arguments.
     * Null when the method is not found or not unique, returns anything else, has several returns, or
     * a value it reads is not known.
     */
    private Val returnedValue(MethodCallExpr m, SourceFile file, int depth, Set<Node> visiting) {
        if (bindings.size() >= MAX_INLINED) {
            return null;
        }
        MethodDeclaration method = calledMethod(m);
        if (method == null || !(method.isStatic() || concreteClassMethod(method)) || !visiting.add(method)) {
            return null;
        }
        try {
            String type = method.getType().asString();
            boolean asInt = type.equals("int") || type.equals("Integer");
            if (!asInt && !type.equals("long") && !type.equals("Long")) {
                return null;
            }
            List<ReturnStmt> returns = ownReturns(method);
            if (returns.size() != 1 || returns.get(0).getExpression().isEmpty()) {
                return null;
            }
            SourceFile declaring = method.findAncestor(TypeDeclaration.class)
                    .map(index::fileOf)
                    .orElse(file);
            bindings.push(new Binding(method, m, file));
            try {
                Val v = eval(
                        returns.get(0).getExpression().get(),
                        declaring != null ? declaring : file,
                        depth + 1,
                        visiting);
                if (v == null) {
                    return null;
                }
                // the method names the key's purpose: every call of it with the same value is one lock
                String owner = "";
                for (Node cur = method; cur != null; cur = cur.getParentNode().orElse(null)) {
                    if (cur instanceof TypeDeclaration<?> td) {
                        owner = td.getFullyQualifiedName().orElse("");
                        break;
                    }
                }
                Expression returned = returns.get(0).getExpression().get();
                return new Val(
                        asInt ? (int) v.value : v.value,
                        asInt,
                        region(returned, declaring != null ? declaring : file),
                        (owner.isEmpty() ? "" : owner + ".") + method.getNameAsString() + "(..)",
                        v.hash);
            } finally {
                bindings.pop();
            }
        } finally {
            visiting.remove(method);
        }
    }

    /**
     * An instance method of a concrete class (not an interface or an abstract class), whose body is the
     * one every call on a receiver of that declared type runs unless a subclass overrides it, which the
     * call graph decides, not this evaluator.
     */
    private static boolean concreteClassMethod(MethodDeclaration method) {
        return method.getParentNode().orElse(null) instanceof ClassOrInterfaceDeclaration c
                && !c.isInterface()
                && !c.isAbstract()
                && !method.isAbstract();
    }

    /**
     * The method a call reaches: same name and arity, with a body, in the nearest of its receiver types
     * that declares one ({@link #receiverTypes}); null when none, or several (overloads by type).
     */
    private MethodDeclaration calledMethod(MethodCallExpr m) {
        for (TypeDeclaration<?> t : receiverTypes(m)) {
            MethodDeclaration found = null;
            for (MethodDeclaration md : t.getMethodsByName(m.getNameAsString())) {
                if (md.getParameters().size() == m.getArguments().size()
                        && md.getBody().isPresent()) {
                    if (found != null) {
                        return null;
                    }
                    found = md;
                }
            }
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The method's own {@code return} statements, not those of its lambdas or local and anonymous classes. */
    private static List<ReturnStmt> ownReturns(MethodDeclaration md) {
        List<ReturnStmt> out = new ArrayList<>();
        for (ReturnStmt r : md.getBody().map(b -> b.findAll(ReturnStmt.class)).orElse(List.of())) {
            if (r.findAncestor(CallableDeclaration.class).orElse(null) == md
                    && r.findAncestor(LambdaExpr.class)
                            .filter(l -> isInside(l, md))
                            .isEmpty()) {
                out.add(r);
            }
        }
        return out;
    }

    /** The argument a parameter of the method being evaluated is bound to, evaluated where the call is. */
    private Val boundParameter(NameExpr n, int depth, Set<Node> visiting) {
        Binding b = bindings.peek();
        if (b == null || !isInside(n, b.method())) {
            return null;
        }
        for (int i = 0; i < b.method().getParameters().size(); i++) {
            if (b.method().getParameter(i).getNameAsString().equals(n.getNameAsString())) {
                bindings.pop();
                try {
                    return eval(b.call().getArgument(i), b.callerFile(), depth + 1, visiting);
                } finally {
                    bindings.push(b);
                }
            }
        }
        return null;
    }

    /** {@code crc.getValue()} where {@code crc} is a local {@code new CRC32()} fed only constant strings. */
    private Val checksum(NameExpr n, MethodCallExpr use, SourceFile file) {
        Node scope =
                use.findAncestor(CallableDeclaration.class).map(x -> (Node) x).orElse(null);
        if (scope == null) {
            return null;
        }
        VariableDeclarator decl = null;
        for (VariableDeclarator v : scope.findAll(VariableDeclarator.class)) {
            if (v.getNameAsString().equals(n.getNameAsString())) {
                decl = v;
            }
        }
        if (decl == null || !(decl.getInitializer().orElse(null) instanceof ObjectCreationExpr oc)) {
            return null;
        }
        String type = oc.getType().getNameAsString();
        KeyHash.Function fn = type.equals("CRC32")
                ? KeyHash.Function.CRC32
                : type.equals("Adler32") ? KeyHash.Function.ADLER32 : null;
        if (fn == null) {
            return null;
        }
        Checksum sum = fn == KeyHash.Function.CRC32 ? new CRC32() : new Adler32();
        StringBuilder input = new StringBuilder();
        for (MethodCallExpr u : JavaScopes.calls(scope)) {
            if (u.getNameAsString().equals("update")
                    && u.getScope()
                            .map(s -> s.toString().equals(n.getNameAsString()))
                            .orElse(false)) {
                if (u.getArguments().size() != 1
                        || !(u.getArgument(0) instanceof MethodCallExpr gb)
                        || !gb.getNameAsString().equals("getBytes")
                        || gb.getScope().isEmpty()) {
                    return null;
                }
                String s = stringValue(gb.getScope().get(), file);
                if (s == null) {
                    return null;
                }
                byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
                sum.update(bytes, 0, bytes.length);
                input.append(s);
            }
        }
        if (input.isEmpty()) {
            return null;
        }
        return new Val(sum.getValue(), false, region(use, file), null, new KeyHash(fn, input.toString()));
    }

    /** The hash an expression's value is derived from when the value itself is not known. */
    private KeyHash hashOf(Expression e, SourceFile file, int depth, Set<Node> visiting) {
        if (depth > MAX_DEPTH || e == null) {
            return null;
        }
        if (e instanceof EnclosedExpr p) {
            return hashOf(p.getInner(), file, depth + 1, visiting);
        }
        if (e instanceof CastExpr c) {
            return hashOf(c.getExpression(), file, depth + 1, visiting);
        }
        if (e instanceof UnaryExpr u
                && (u.getOperator() == UnaryExpr.Operator.MINUS || u.getOperator() == UnaryExpr.Operator.PLUS)) {
            return hashOf(u.getExpression(), file, depth + 1, visiting);
        }
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.BINARY_AND) {
            // h & 0xFFFFFFFFL: a mask keeps at most the hash's bits
            KeyHash l = eval(b.getRight(), file, depth + 1, visiting) != null
                    ? hashOf(b.getLeft(), file, depth + 1, visiting)
                    : null;
            return l != null
                    ? l
                    : eval(b.getLeft(), file, depth + 1, visiting) != null
                            ? hashOf(b.getRight(), file, depth + 1, visiting)
                            : null;
        }
        if (e instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr) {
            return fieldHash(f.getNameAsString(), f, file, depth, visiting);
        }
        if (e instanceof MethodCallExpr m) {
            String name = m.getNameAsString();
            String scope = m.getScope().map(Node::toString).orElse("");
            if (m.getArguments().size() == 1 && WIDENING.contains(scope + "." + name)) {
                return hashOf(m.getArgument(0), file, depth + 1, visiting);
            }
            if (name.equals("identityHashCode") && scope.equals("System")) {
                return new KeyHash(KeyHash.Function.IDENTITY_HASHCODE, null);
            }
            if ((name.equals("hash") || name.equals("hashCode"))
                    && (scope.equals("Objects") || scope.equals("Arrays"))) {
                return new KeyHash(KeyHash.Function.OBJECTS_HASH, null, HashInputs.of(m.getArguments()));
            }
            if (name.equals("hashCode") && m.getArguments().isEmpty()) {
                if (m.getScope().isEmpty() || m.getScope().get() instanceof ThisExpr) {
                    return new KeyHash(KeyHash.Function.IDENTITY_HASHCODE, null);
                }
                Expression s = m.getScope().get();
                if (enumConstant(s).isPresent()) {
                    return new KeyHash(KeyHash.Function.IDENTITY_HASHCODE, null);
                }
                String type = staticType(s);
                if (type != null) {
                    if (type.equals("String") || type.equals("java.lang.String")) {
                        return new KeyHash(KeyHash.Function.STRING_HASHCODE, null, HashInputs.of(s));
                    }
                    if (type.equals("UUID") || type.equals("java.util.UUID")) {
                        return new KeyHash(KeyHash.Function.UUID_HASHCODE, null, HashInputs.of(s));
                    }
                    if (isEnumType(type)) {
                        return new KeyHash(KeyHash.Function.IDENTITY_HASHCODE, null);
                    }
                    // a variable declared Object holds whatever its callers pass (a String, an id): its hashCode() is
                    // the runtime class's, identity-based only for a class that does not override it
                    if (type.equals("Object") || type.equals("java.lang.Object")) {
                        return new KeyHash(KeyHash.Function.HASHCODE, null, HashInputs.of(s));
                    }
                }
                if (s instanceof MethodCallExpr sc && sc.getNameAsString().equals("getClass")) {
                    return new KeyHash(KeyHash.Function.IDENTITY_HASHCODE, null);
                }
                if (isStringExpression(s)) {
                    return new KeyHash(KeyHash.Function.STRING_HASHCODE, null, HashInputs.of(s));
                }
                return new KeyHash(KeyHash.Function.HASHCODE, null, HashInputs.of(s));
            }
            if (name.equals("getValue") && m.getScope().orElse(null) instanceof NameExpr n) {
                Node scopeNode = m.findAncestor(CallableDeclaration.class)
                        .map(x -> (Node) x)
                        .orElse(null);
                if (scopeNode != null) {
                    for (ObjectCreationExpr oc : scopeNode.findAll(ObjectCreationExpr.class)) {
                        String t = oc.getType().getNameAsString();
                        if ((t.equals("CRC32") || t.equals("Adler32"))
                                && oc.getParentNode()
                                        .filter(p -> p instanceof VariableDeclarator v
                                                && v.getNameAsString().equals(n.getNameAsString()))
                                        .isPresent()) {
                            List<Expression> updated = new ArrayList<>();
                            for (MethodCallExpr u : JavaScopes.callsNamed(scopeNode, "update")) {
                                if (u.getScope()
                                        .filter(x -> x.toString().equals(n.getNameAsString()))
                                        .isPresent()) {
                                    updated.addAll(u.getArguments());
                                }
                            }
                            return new KeyHash(
                                    t.equals("CRC32") ? KeyHash.Function.CRC32 : KeyHash.Function.ADLER32,
                                    null,
                                    HashInputs.of(updated));
                        }
                    }
                }
            }
            return returnedHash(m, file, depth, visiting);
        }
        if (e instanceof NameExpr n) {
            Optional<VariableDeclarator> local = JavaScopes.local(n.getNameAsString(), n);
            if (local.isPresent()) {
                if (local.get().getInitializer().isPresent() && visiting.add(local.get())) {
                    return hashOf(local.get().getInitializer().get(), file, depth + 1, visiting);
                }
                return null;
            }
            if (!JavaScopes.isParameter(n.getNameAsString(), n)) {
                return fieldHash(n.getNameAsString(), n, file, depth, visiting);
            }
        }
        return null;
    }

    /**
     * The hash a field of an enclosing type holds when every write to it is a hash of a run-time value:
     * its initializer ({@code private final long key = name.hashCode();}) and the assignments in its
     * type, all in constructors or initializers ({@code this.key = ("jobs-" + topic).hashCode();}).
     * Null when the field is not found, is written outside construction, or one write is not such a
     * hash (a sequence id, a constant, a 64-bit value).
     */
    private KeyHash fieldHash(String name, Node use, SourceFile file, int depth, Set<Node> visiting) {
        for (Node cur = use; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (!(cur instanceof TypeDeclaration<?> t)) {
                continue;
            }
            Optional<FieldDeclaration> fd = t.getFieldByName(name);
            if (fd.isEmpty()) {
                continue;
            }
            VariableDeclarator v = fd.get().getVariables().stream()
                    .filter(x -> x.getNameAsString().equals(name))
                    .findFirst()
                    .orElse(null);
            if (v == null || !visiting.add(v)) {
                return null;
            }
            try {
                List<Expression> writes = new ArrayList<>();
                v.getInitializer().ifPresent(writes::add);
                for (AssignExpr a : t.findAll(AssignExpr.class)) {
                    Expression target = a.getTarget();
                    boolean thisField = target instanceof FieldAccessExpr fa
                            && fa.getScope() instanceof ThisExpr
                            && fa.getNameAsString().equals(name);
                    boolean bare = target instanceof NameExpr tn
                            && tn.getNameAsString().equals(name)
                            && JavaScopes.local(name, tn).isEmpty()
                            && !JavaScopes.isParameter(name, tn);
                    if (!thisField && !bare) {
                        continue;
                    }
                    Node callable = JavaScopes.callableOf(a);
                    if (a.getOperator() != AssignExpr.Operator.ASSIGN
                            || !(callable instanceof ConstructorDeclaration
                                    || callable instanceof InitializerDeclaration)) {
                        return null; // changed after construction: not one value per object
                    }
                    writes.add(a.getValue());
                }
                return allHashes(writes, file, depth, visiting);
            } finally {
                visiting.remove(v);
            }
        }
        return null;
    }

    /**
     * The hash behind a call of a method whose every {@code return} yields a hash of a run-time value:
     * a getter ({@code lock.getKey()}, {@code this.lockKey()}) or a private or static method of a type
     * of this analysis ({@code keyFor(topic)}), resolved by the receiver's declared type, the enclosing
     * types, or the type named as the receiver. Null when the method is not found or not unique, when
     * any return is not such a hash, or when every argument is a compile-time constant (a hash of a known
     * value: its value is known, not weak in the rule's sense).
     */
    private KeyHash returnedHash(MethodCallExpr m, SourceFile file, int depth, Set<Node> visiting) {
        MethodDeclaration md = calledMethod(m);
        if (md == null) {
            return null;
        }
        if (!m.getArguments().isEmpty()
                && m.getArguments().stream().allMatch(a -> isConstant(a, file, depth, visiting))) {
            return null;
        }
        if (!visiting.add(md)) {
            return null;
        }
        try {
            SourceFile declaring =
                    md.findAncestor(TypeDeclaration.class).map(index::fileOf).orElse(null);
            List<Expression> returns = new ArrayList<>();
            for (ReturnStmt r : ownReturns(md)) {
                if (r.getExpression().isEmpty()) {
                    return null;
                }
                returns.add(r.getExpression().get());
            }
            KeyHash inner = allHashes(returns, declaring != null ? declaring : file, depth, visiting);
            if (inner == null || m.getArguments().isEmpty()) {
                return inner;
            }
            // the call's arguments say more about the inputs than the method's parameter names
            KeyPopulation atCall = HashInputs.of(m.getArguments());
            return atCall.cardinality() == KeyPopulation.Cardinality.MANY
                            || inner.population().cardinality() == KeyPopulation.Cardinality.UNKNOWN
                    ? inner.withPopulation(atCall)
                    : inner;
        } finally {
            visiting.remove(md);
        }
    }

    /** The hash of the first of several values when each is a hash of a run-time value; else null. */
    private KeyHash allHashes(List<Expression> values, SourceFile file, int depth, Set<Node> visiting) {
        KeyHash first = null;
        for (Expression w : values) {
            if (eval(w, file, depth + 1, visiting) != null) {
                return null; // a known value (the hash of a constant, a literal): no weak run-time hash
            }
            KeyHash h = hashOf(w, file, depth + 1, visiting);
            if (h == null) {
                return null;
            }
            first = first == null ? h : first;
        }
        return first;
    }

    private boolean isConstant(Expression a, SourceFile file, int depth, Set<Node> visiting) {
        return eval(a, file, depth + 1, visiting) != null || stringValue(a, file) != null;
    }

    /**
     * The types a call's method may be declared in: for {@code m()} and {@code this.m()} the enclosing
     * types, nearest first; for {@code x.m()} the declared type of the local, parameter or field
     * {@code x}; for {@code Type.m()} that type. Only types of this analysis with a unique simple name.
     */
    private List<TypeDeclaration<?>> receiverTypes(MethodCallExpr m) {
        List<TypeDeclaration<?>> out = new ArrayList<>();
        Expression scope = m.getScope().orElse(null);
        if (scope == null || scope instanceof ThisExpr) {
            for (Node cur = m; cur != null; cur = cur.getParentNode().orElse(null)) {
                if (cur instanceof TypeDeclaration<?> t) {
                    out.add(t);
                }
            }
            return out;
        }
        String typeName = JavaScopes.receiverTypeName(scope);
        if (typeName == null
                && scope instanceof NameExpr n
                && Character.isUpperCase(n.getNameAsString().charAt(0))) {
            typeName = n.getNameAsString(); // a static call on a type name
        }
        if (typeName != null) {
            List<TypeDeclaration<?>> named = index.types(typeName);
            if (named.size() == 1) {
                out.add(named.get(0));
            }
        }
        return out;
    }

    private static boolean isInside(Node inner, Node outer) {
        for (Node cur = inner; cur != null; cur = cur.getParentNode().orElse(null)) {
            if (cur == outer) {
                return true;
            }
        }
        return false;
    }

    /**
     * An expression Java types {@code String}: a literal, a concatenation with one, a variable declared
     * {@code String}, or a call of a {@code String} method that returns one.
     */
    private static boolean isStringExpression(Expression e) {
        if (e instanceof EnclosedExpr p) {
            return isStringExpression(p.getInner());
        }
        if (e instanceof StringLiteralExpr || e instanceof TextBlockLiteralExpr) {
            return true;
        }
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
            return isStringExpression(b.getLeft()) || isStringExpression(b.getRight());
        }
        if (e instanceof NameExpr) {
            String type = staticType(e);
            return "String".equals(type) || "java.lang.String".equals(type);
        }
        if (e instanceof MethodCallExpr m) {
            String scope = m.getScope().map(Node::toString).orElse("");
            return (STRING_RETURNING.contains(m.getNameAsString())
                            && m.getScope().isPresent()
                            && (scope.equals("String")
                                    || isStringExpression(m.getScope().get())))
                    || (scope.equals("String")
                            && (m.getNameAsString().equals("valueOf")
                                    || m.getNameAsString().equals("join")
                                    || m.getNameAsString().equals("format")));
        }
        return false;
    }

    private boolean isEnumType(String simpleName) {
        return index.types(simpleName).stream().anyMatch(t -> t instanceof EnumDeclaration);
    }

    /** The declared type of a name's variable, parameter or field, as written; null when not found. */
    private static String staticType(Expression e) {
        if (!(e instanceof NameExpr n)) {
            return null;
        }
        String name = n.getNameAsString();
        Node cur = n;
        while (cur != null) {
            if (cur instanceof CallableDeclaration<?> c) {
                for (Parameter p : c.getParameters()) {
                    if (p.getNameAsString().equals(name)) {
                        return p.getType().asString();
                    }
                }
                for (VariableDeclarator v : c.findAll(VariableDeclarator.class)) {
                    if (v.getNameAsString().equals(name)) {
                        return typeOf(v);
                    }
                }
            }
            if (cur instanceof TypeDeclaration<?> t) {
                Optional<FieldDeclaration> f = t.getFieldByName(name);
                if (f.isPresent()) {
                    return f.get().getElementType().asString();
                }
            }
            cur = cur.getParentNode().orElse(null);
        }
        return null;
    }

    private static String typeOf(VariableDeclarator v) {
        Type t = v.getType();
        return t.isVarType() ? null : t.asString();
    }

    private Val name(NameExpr n, SourceFile file, int depth, Set<Node> visiting) {
        String name = n.getNameAsString();
        Optional<VariableDeclarator> local = JavaScopes.local(name, n);
        if (local.isPresent()) {
            VariableDeclarator v = local.get();
            if (v.getInitializer().isEmpty() || JavaScopes.reassigned(v) || !visiting.add(v)) {
                return null;
            }
            try {
                return eval(v.getInitializer().get(), file, depth + 1, visiting);
            } finally {
                visiting.remove(v);
            }
        }
        if (JavaScopes.isParameter(name, n)) {
            return boundParameter(n, depth, visiting);
        }
        Optional<ConstantIndex.Constant> c = unqualified(name, n);
        return c.flatMap(x -> Optional.ofNullable(constant(x, depth, visiting))).orElse(null);
    }

    private Val constant(ConstantIndex.Constant c, int depth, Set<Node> visiting) {
        if (!(c.declaration() instanceof VariableDeclarator v)
                || v.getInitializer().isEmpty()
                || !visiting.add(v)) {
            return null;
        }
        try {
            Val inner = eval(v.getInitializer().get(), c.file(), depth + 1, visiting);
            if (inner == null) {
                return null;
            }
            boolean asInt = (!v.getType().asString().equals("long")
                            && !v.getType().asString().equals("Long"))
                    ? inner.isInt || v.getType().asString().equals("int")
                    : false;
            if (inner.originName != null && isAlias(v.getInitializer().get())) {
                // LOCK = LockKeys.INVOICE: one key under two names; the origin stays the first declaration
                return new Val(
                        asInt ? (int) inner.value : inner.value, asInt, inner.origin, inner.originName, inner.hash);
            }
            return new Val(
                    asInt ? (int) inner.value : inner.value, asInt, region(v, c.file()), c.qualifiedName(), inner.hash);
        } finally {
            visiting.remove(v);
        }
    }

    /** An initializer that only names another constant: {@code OTHER}, {@code Keys.OTHER}, {@code (long) OTHER}, {@code Job.X.id()}. */
    private static boolean isAlias(Expression e) {
        Expression x = e;
        while (x instanceof EnclosedExpr || x instanceof CastExpr) {
            x = x instanceof EnclosedExpr p ? p.getInner() : ((CastExpr) x).getExpression();
        }
        return x instanceof NameExpr
                || x instanceof FieldAccessExpr
                || (x instanceof MethodCallExpr m
                        && m.getArguments().isEmpty()
                        && m.getScope().isPresent()
                        && !m.getNameAsString().equals("hashCode"));
    }

    /** An enum constant's field or getter: the constructor argument assigned to that field. */
    private Val enumGetter(ConstantIndex.Constant c, String method, int depth, Set<Node> visiting) {
        if (!(c.declaration() instanceof EnumConstantDeclaration ec)) {
            return null;
        }
        EnumDeclaration en = ec.findAncestor(EnumDeclaration.class).orElse(null);
        if (en == null) {
            return null;
        }
        String field = null;
        for (MethodDeclaration m : en.getMethodsByName(method)) {
            if (m.getParameters().isEmpty() && m.getBody().isPresent()) {
                List<ReturnStmt> returns = m.getBody().get().findAll(ReturnStmt.class);
                if (returns.size() == 1 && returns.get(0).getExpression().isPresent()) {
                    Expression r = returns.get(0).getExpression().get();
                    field = r instanceof NameExpr rn
                            ? rn.getNameAsString()
                            : r instanceof FieldAccessExpr rf && rf.getScope() instanceof ThisExpr
                                    ? rf.getNameAsString()
                                    : null;
                }
            }
        }
        if (field == null && method.equals("ordinal")) {
            return new Val(en.getEntries().indexOf(ec), true, region(ec, c.file()), c.qualifiedName(), null);
        }
        if (field == null && en.getMethodsByName(method).isEmpty()) {
            field = lombokGetterField(en, method);
        }
        return field == null ? null : enumField(c, field, depth, visiting);
    }

    /**
     * The field behind a getter Lombok generates ({@code @Getter} on the field or the enum): {@code code()}
     * (fluent) or {@code getCode()}/{@code isCode()} for the field {@code code}; null when there is none.
     */
    private static String lombokGetterField(EnumDeclaration en, String method) {
        List<String> candidates = new ArrayList<>(List.of(method));
        for (String prefix : List.of("get", "is")) {
            if (method.length() > prefix.length()
                    && method.startsWith(prefix)
                    && Character.isUpperCase(method.charAt(prefix.length()))) {
                String rest = method.substring(prefix.length());
                candidates.add(Character.toLowerCase(rest.charAt(0)) + rest.substring(1));
            }
        }
        boolean onType = en.getAnnotationByName("Getter").isPresent();
        for (String name : candidates) {
            Optional<FieldDeclaration> f = en.getFieldByName(name);
            if (f.isPresent()
                    && !f.get().isStatic()
                    && (onType || f.get().getAnnotationByName("Getter").isPresent())) {
                return name;
            }
        }
        return null;
    }

    private Val enumField(ConstantIndex.Constant c, String field, int depth, Set<Node> visiting) {
        if (!(c.declaration() instanceof EnumConstantDeclaration ec)) {
            return null;
        }
        EnumDeclaration en = ec.findAncestor(EnumDeclaration.class).orElse(null);
        if (en == null) {
            return null;
        }
        for (ConstructorDeclaration ctor : en.getConstructors()) {
            if (ctor.getParameters().size() != ec.getArguments().size()) {
                continue;
            }
            for (AssignExpr a : ctor.findAll(AssignExpr.class)) {
                Expression target = a.getTarget();
                String assigned = target instanceof FieldAccessExpr fa && fa.getScope() instanceof ThisExpr
                        ? fa.getNameAsString()
                        : target instanceof NameExpr tn ? tn.getNameAsString() : null;
                if (field.equals(assigned) && a.getValue() instanceof NameExpr pv) {
                    for (int i = 0; i < ctor.getParameters().size(); i++) {
                        if (ctor.getParameter(i).getNameAsString().equals(pv.getNameAsString())) {
                            Val v = eval(ec.getArgument(i), c.file(), depth + 1, visiting);
                            return v == null
                                    ? null
                                    : new Val(v.value, v.isInt, region(ec, c.file()), c.qualifiedName(), v.hash);
                        }
                    }
                }
                if (field.equals(assigned)) {
                    // this.code = 128: a value written in the constructor itself (parameters evaluate to unknown)
                    Val v = eval(a.getValue(), c.file(), depth + 1, visiting);
                    return v == null
                            ? null
                            : new Val(v.value, v.isInt, region(a.getValue(), c.file()), c.qualifiedName(), v.hash);
                }
            }
        }
        Optional<FieldDeclaration> fd = en.getFieldByName(field);
        if (fd.isPresent()
                && !fd.get().isStatic()
                && en.getConstructors().stream().noneMatch(k -> assigns(k, field))) {
            for (VariableDeclarator v : fd.get().getVariables()) {
                if (v.getNameAsString().equals(field) && v.getInitializer().isPresent()) {
                    Val val = eval(v.getInitializer().get(), c.file(), depth + 1, visiting);
                    return val == null
                            ? null
                            : new Val(val.value, val.isInt, region(v, c.file()), c.qualifiedName(), val.hash);
                }
            }
        }
        return null;
    }

    private static boolean assigns(ConstructorDeclaration ctor, String field) {
        return ctor.findAll(AssignExpr.class).stream()
                .anyMatch(a -> (a.getTarget() instanceof FieldAccessExpr fa
                                && fa.getScope() instanceof ThisExpr
                                && fa.getNameAsString().equals(field))
                        || (a.getTarget() instanceof NameExpr n
                                && n.getNameAsString().equals(field)));
    }

    private Optional<ConstantIndex.Constant> enumConstant(Expression scope) {
        Optional<ConstantIndex.Constant> c = scope instanceof FieldAccessExpr f
                ? qualified(f)
                : scope instanceof NameExpr n
                                && !JavaScopes.isParameter(n.getNameAsString(), n)
                                && JavaScopes.local(n.getNameAsString(), n).isEmpty()
                        ? unqualified(n.getNameAsString(), n)
                        : Optional.empty();
        return c.filter(x -> x.declaration() instanceof EnumConstantDeclaration);
    }

    /** A compile-time string value of an expression, following constants of any file; null when unknown. */
    private String stringValue(Expression e, SourceFile file) {
        CompilationUnit unit = e.findCompilationUnit().orElse(null);
        if (unit == null) {
            return null;
        }
        JavaText t = strings(file, unit).evaluate(e);
        if (t != null && t.text().indexOf('?') < 0) {
            return t.text();
        }
        Optional<ConstantIndex.Constant> c = e instanceof FieldAccessExpr f
                ? qualified(f)
                : e instanceof NameExpr n ? unqualified(n.getNameAsString(), n) : Optional.empty();
        if (c.isPresent()
                && c.get().declaration() instanceof VariableDeclarator v
                && v.getInitializer().isPresent()) {
            CompilationUnit other = v.findCompilationUnit().orElse(null);
            if (other != null) {
                JavaText ot = strings(c.get().file(), other)
                        .evaluate(v.getInitializer().get());
                return ot == null || ot.text().indexOf('?') >= 0 ? null : ot.text();
            }
        }
        return null;
    }

    /** {@code Type.NAME}, {@code pkg.Type.NAME}, {@code Outer.Inner.NAME}. */
    private Optional<ConstantIndex.Constant> qualified(FieldAccessExpr f) {
        Expression scope = f.getScope();
        String typeName = scope instanceof NameExpr n
                ? n.getNameAsString()
                : scope instanceof FieldAccessExpr sf ? sf.getNameAsString() : null;
        if (typeName == null
                || (scope instanceof NameExpr sn
                        && (JavaScopes.local(typeName, sn).isPresent() || JavaScopes.isParameter(typeName, sn)))) {
            return Optional.empty();
        }
        List<String> prefer = preferred(f, typeName);
        if (scope instanceof FieldAccessExpr written) {
            prefer.add(0, written.toString()); // pkg.Type: the type it names, whatever the imports say
        }
        return index.lookup(typeName, f.getNameAsString(), prefer);
    }

    /** A bare name: a field of an enclosing type, an inherited interface constant, or a static import. */
    private Optional<ConstantIndex.Constant> unqualified(String name, Node use) {
        Node cur = use;
        while (cur != null) {
            if (cur instanceof TypeDeclaration<?> t) {
                Optional<ConstantIndex.Constant> own =
                        index.lookup(t.getNameAsString(), name, preferred(use, t.getNameAsString()));
                if (own.isPresent()) {
                    return own;
                }
                if (t instanceof ClassOrInterfaceDeclaration c) {
                    List<String> supers = new ArrayList<>();
                    c.getExtendedTypes().forEach(x -> supers.add(x.getNameAsString()));
                    c.getImplementedTypes().forEach(x -> supers.add(x.getNameAsString()));
                    for (String s : supers) {
                        Optional<ConstantIndex.Constant> inherited = index.lookup(s, name, preferred(use, s));
                        if (inherited.isPresent()) {
                            return inherited;
                        }
                    }
                }
            }
            cur = cur.getParentNode().orElse(null);
        }
        CompilationUnit unit = use.findCompilationUnit().orElse(null);
        if (unit != null) {
            for (var imp : unit.getImports()) {
                if (!imp.isStatic()) {
                    continue;
                }
                String q = imp.getNameAsString();
                if (imp.isAsterisk()) {
                    String type = q.substring(q.lastIndexOf('.') + 1);
                    Optional<ConstantIndex.Constant> c = index.lookup(type, name, List.of(q));
                    if (c.isPresent()) {
                        return c;
                    }
                } else if (q.endsWith("." + name)) {
                    String typeQ = q.substring(0, q.length() - name.length() - 1);
                    String type = typeQ.substring(typeQ.lastIndexOf('.') + 1);
                    return index.lookup(type, name, List.of(typeQ));
                }
            }
        }
        return Optional.empty();
    }

    /** Qualified type names a file would mean by a simple name: its imports, then its own package. */
    private static List<String> preferred(Node use, String simpleName) {
        List<String> out = new ArrayList<>();
        CompilationUnit unit = use.findCompilationUnit().orElse(null);
        if (unit == null) {
            return out;
        }
        for (var imp : unit.getImports()) {
            String q = imp.getNameAsString();
            if (!imp.isAsterisk() && (q.endsWith("." + simpleName) || q.contains("." + simpleName + "."))) {
                out.add(q.substring(0, q.indexOf(simpleName) + simpleName.length()));
            } else if (imp.isAsterisk()) {
                out.add(q + "." + simpleName);
            }
        }
        String pkg =
                unit.getPackageDeclaration().map(p -> p.getNameAsString() + ".").orElse("");
        out.add(pkg + simpleName);
        return out;
    }

    private static SourceRegion region(Node n, SourceFile file) {
        int s = n.getBegin().map(p -> file.offsetOf(p.line, p.column)).orElse(0);
        int e = n.getEnd().map(p -> file.offsetOf(p.line, p.column) + 1).orElse(s);
        return file.region(s, e);
    }

    private StringEvaluator strings(SourceFile file, CompilationUnit unit) {
        return stringEvaluators.computeIfAbsent(unit, u -> new StringEvaluator(file, u, project));
    }

    /** Other files' types and their string evaluators, for static methods that return SQL. */
    final StringEvaluator.Project project = new StringEvaluator.Project() {
        @Override
        public TypeDeclaration<?> type(String simpleName) {
            List<TypeDeclaration<?>> types = index.types(simpleName);
            return types.size() == 1 ? types.get(0) : null;
        }

        @Override
        public StringEvaluator evaluatorOf(TypeDeclaration<?> type) {
            SourceFile declaring = index.fileOf(type);
            Optional<CompilationUnit> unit = type.findCompilationUnit();
            return declaring == null || unit.isEmpty() ? null : strings(declaring, unit.get());
        }
    };
}
