package io.github.pgadvisorylint.core.java;

import com.github.javaparser.Position;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CharLiteralExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluates Java expressions that build SQL at compile time: literals, text blocks, {@code +}
 * concatenation, constants of the same file (by simple name or {@code Type.NAME}), and effectively
 * final local variables, {@code String.format}/{@code formatted} with {@code %s}/{@code %d}, and
 * {@code StringBuilder}/{@code StringBuffer} append chains. A non-constant operand (of a concatenation,
 * a format argument, an append) becomes the placeholder {@code ?}, a "hole" whose Java expression is
 * remembered: a value supplied at run time. Depth-bounded, never recursing without limit.
 *
 * <p>{@link #evaluateAll} makes SQL text a flow of values: a conditional ({@code c ? "try_" : ""}), an
 * {@code if} around appends to a local builder, and a method of the same file that returns SQL (its
 * {@code return} expressions, with its parameters bound to the call's arguments) each give every
 * possible text. A condition whose value is a constant where it is evaluated (a literal, a
 * {@code static final boolean}, a parameter bound to a literal by the inlined call, or a parameter of a
 * private method that every call of the file passes the same literal) picks its branch. One condition
 * variable read twice takes one value on a path. Past {@value #MAX_ALTERNATIVES} texts the answer is
 * "unknown" (the caller stays silent).
 */
final class StringEvaluator {

    private static final int MAX_DEPTH = 64;

    /** The most texts {@link #evaluateAll} gives; beyond it the value is unknown. */
    static final int MAX_ALTERNATIVES = 16;

    /** The most evaluation paths {@link #evaluateAll} follows (paths may give the same text). */
    private static final int MAX_PATHS = 64;

    /** How deep calls of methods returning SQL are inlined. */
    private static final int MAX_INLINE = 4;

    /** The choices of the enumeration under way, or null in single-value mode ({@link #evaluate}). */
    private Choices choices;

    /** The inlined method being evaluated (its parameters bound to a call's arguments), or null. */
    private Frame frame;

    private final SourceFile file;
    private final Map<String, VariableDeclarator> constants = new HashMap<>();
    private final Set<String> typeNames = new HashSet<>();
    private final Set<VariableDeclarator> usedConstants = new HashSet<>();

    /**
     * Where methods of other files are found: a type's declaration by simple name (unique in the project)
     * and the evaluator of the file declaring it; null when only this file is evaluated.
     */
    interface Project {
        /** @return the one type of the project with this simple name, or null */
        TypeDeclaration<?> type(String simpleName);

        /** @return the evaluator of the file declaring the type */
        StringEvaluator evaluatorOf(TypeDeclaration<?> type);
    }

    private Project project;

    StringEvaluator(SourceFile file, Node unit) {
        this(file, unit, null);
    }

    /**
     * @param file    the file
     * @param unit    its syntax tree
     * @param project where static methods of other files that return SQL are found, or null
     */
    StringEvaluator(SourceFile file, Node unit, Project project) {
        this.project = project;
        this.file = file;
        // one pre-order walk for both (the same order as two findAll calls)
        unit.walk(node -> {
            if (node instanceof TypeDeclaration<?> type) {
                typeNames.add(type.getNameAsString());
            } else if (node instanceof FieldDeclaration field && (field.isFinal() || isInterfaceField(field))) {
                for (VariableDeclarator v : field.getVariables()) {
                    if (v.getInitializer().isPresent()) {
                        constants.putIfAbsent(v.getNameAsString(), v);
                    }
                }
            }
        });
    }

    private static boolean isInterfaceField(FieldDeclaration field) {
        return field.getParentNode()
                .filter(p -> p instanceof ClassOrInterfaceDeclaration c && c.isInterface())
                .isPresent();
    }

    /** @return the constants of this file that {@link #evaluate} read so far */
    Set<VariableDeclarator> usedConstants() {
        return usedConstants;
    }

    /** @return the file's constants with initializers, by simple name */
    Map<String, VariableDeclarator> constants() {
        return constants;
    }

    /**
     * @param e an expression
     * @return its compile-time string value with offsets, or null when it is not a string the tool can know
     */
    JavaText evaluate(Expression e) {
        try {
            return eval(e, 0, new HashSet<>());
        } catch (StackOverflowError | RuntimeException ex) {
            return null;
        }
    }

    /**
     * Every text the expression may have at run time: one per branch of the conditionals, {@code if}s
     * around builder appends and {@code return}s of inlined methods it goes through, whose conditions
     * are not constant where they are read.
     *
     * @param e an expression
     * @return the distinct texts, sorted by their text; null when none is known or when there are more
     *     than {@value #MAX_ALTERNATIVES} (or more than {@value #MAX_PATHS} paths)
     */
    List<JavaText> evaluateAll(Expression e) {
        Choices ch = new Choices();
        choices = ch;
        try {
            Map<String, JavaText> out = new TreeMap<>();
            for (int path = 0; path < MAX_PATHS; path++) {
                ch.startPath();
                frame = null;
                JavaText t = eval(e, 0, new HashSet<>());
                if (t != null) {
                    t.assume(ch.assumed);
                    JavaText before = out.get(t.text());
                    if (before != null && !before.assumptions().equals(t.assumptions())) {
                        before.assume(Map.of()); // the same text under different flags: it needs none of them
                    }
                    out.putIfAbsent(t.text(), t);
                    if (out.size() > MAX_ALTERNATIVES) {
                        return null;
                    }
                }
                if (!ch.advance()) {
                    return out.isEmpty() ? null : new ArrayList<>(out.values());
                }
            }
            return null; // too many paths to follow: silent
        } catch (StackOverflowError | RuntimeException ex) {
            return null;
        } finally {
            choices = null;
            frame = null;
        }
    }

    /**
     * The decisions of one enumeration, replayed path after path: a depth-first walk over the choice
     * points in the order evaluation meets them (deterministic, so a replayed prefix meets the same points).
     */
    private static final class Choices {
        /** For each choice point met on the current path: {chosen option, option count}. */
        private final List<int[]> stack = new ArrayList<>();
        /** Choices of this path by condition (one flag read twice takes one value), to the stack index. */
        private final Map<String, Integer> keyed = new HashMap<>();
        /** Values taken on this path by flag parameters of the method the expression is in. */
        private final Map<String, Boolean> assumed = new HashMap<>();

        private int cursor;

        void startPath() {
            cursor = 0;
            keyed.clear();
            assumed.clear();
        }

        /**
         * @param key     the condition's identity, or null when each occurrence is a choice of its own
         * @param options how many options (at least 2)
         * @return the option taken on this path
         */
        int choose(String key, int options) {
            if (key != null && keyed.containsKey(key)) {
                return stack.get(keyed.get(key))[0];
            }
            if (cursor == stack.size()) {
                stack.add(new int[] {0, options});
            }
            int index = cursor++;
            if (key != null) {
                keyed.put(key, index);
            }
            return stack.get(index)[0];
        }

        /** Moves to the next path; false when every path was taken. */
        boolean advance() {
            while (stack.size() > cursor) {
                stack.remove(stack.size() - 1); // points of an earlier path this one never met
            }
            while (!stack.isEmpty() && stack.get(stack.size() - 1)[0] == stack.get(stack.size() - 1)[1] - 1) {
                stack.remove(stack.size() - 1);
            }
            if (stack.isEmpty()) {
                return false;
            }
            stack.get(stack.size() - 1)[0]++;
            return true;
        }
    }

    /**
     * An inlined call of a method of this file that returns SQL.
     *
     * @param method the method
     * @param call   the call whose arguments its parameters are bound to
     * @param parent the frame the call was evaluated in, or null
     * @param id     distinguishes the conditions of different inlined calls
     */
    private record Frame(CallableDeclaration<?> method, MethodCallExpr call, Frame parent, int id) {
        int depth() {
            return parent == null ? 1 : parent.depth() + 1;
        }
    }

    private int frameIds;

    private JavaText eval(Expression e, int depth, Set<Node> visiting) {
        if (e == null || depth > MAX_DEPTH) {
            return null;
        }
        if (e instanceof ConditionalExpr c) {
            return conditional(c, depth, visiting);
        }
        if (e instanceof StringLiteralExpr s) {
            return literal(s, false);
        }
        if (e instanceof TextBlockLiteralExpr t) {
            return literal(t, true);
        }
        if (e instanceof EnclosedExpr p) {
            return eval(p.getInner(), depth + 1, visiting);
        }
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
            // a + b + c nests to the left: walk the spine iteratively, so thousands of terms cost no stack
            List<Expression> operands = new ArrayList<>();
            Expression cur = b;
            while (cur instanceof BinaryExpr be && be.getOperator() == BinaryExpr.Operator.PLUS) {
                operands.add(be.getRight());
                cur = be.getLeft();
            }
            operands.add(cur);
            Collections.reverse(operands);
            List<JavaText> values = new ArrayList<>(operands.size());
            boolean any = false;
            for (Expression operand : operands) {
                JavaText v = eval(operand, depth + 1, visiting);
                values.add(v);
                any |= v != null;
            }
            if (!any) {
                return null;
            }
            JavaText out = new JavaText();
            for (int i = 0; i < operands.size(); i++) {
                appendOperand(out, values.get(i), operands.get(i));
            }
            return out;
        }
        if (e instanceof NameExpr n) {
            return name(n.getNameAsString(), n, depth, visiting);
        }
        if (e instanceof MethodCallExpr call) {
            return call(call, depth, visiting);
        }
        if (e instanceof ObjectCreationExpr oc && BUILDERS.contains(oc.getType().getNameAsString())) {
            return newBuilder(oc, depth, visiting);
        }
        if (e instanceof FieldAccessExpr f) {
            Expression scope = f.getScope();
            boolean local = scope instanceof ThisExpr
                    || (scope instanceof NameExpr sn && typeNames.contains(sn.getNameAsString()))
                    || (scope instanceof FieldAccessExpr sf && typeNames.contains(sf.getNameAsString()));
            if (local) {
                VariableDeclarator v = constants.get(f.getNameAsString());
                return v == null ? null : constant(v, f.getNameAsString(), depth, visiting);
            }
        }
        return null;
    }

    /**
     * {@code String.format(fmt, args...)}, {@code fmt.formatted(args...)}, and {@code StringBuilder} /
     * {@code StringBuffer} chains: {@code new StringBuilder("..").append(x).toString()}, or a local builder
     * appended statement by statement, then {@code toString()}.
     */
    private JavaText call(MethodCallExpr call, int depth, Set<Node> visiting) {
        String name = call.getNameAsString();
        Expression scope = call.getScope().orElse(null);
        if (name.equals("format")
                && scope instanceof NameExpr s
                && s.getNameAsString().equals("String")
                && call.getArguments().isNonEmpty()) {
            int fmt = 0;
            JavaText format = eval(call.getArgument(0), depth + 1, visiting);
            if (format == null && call.getArguments().size() > 1) {
                fmt = 1; // String.format(Locale.ROOT, fmt, args...)
                format = eval(call.getArgument(1), depth + 1, visiting);
            }
            return format == null
                    ? null
                    : format(
                            format,
                            call.getArguments()
                                    .subList(fmt + 1, call.getArguments().size()),
                            depth,
                            visiting);
        }
        if (name.equals("formatted") && scope != null) {
            JavaText format = eval(scope, depth + 1, visiting);
            return format == null ? null : format(format, call.getArguments(), depth, visiting);
        }
        if (name.equals("format")
                && scope != null
                && (scope.toString().equals("MessageFormat") || scope.toString().equals("java.text.MessageFormat"))
                && call.getArguments().isNonEmpty()) {
            JavaText pattern = eval(call.getArgument(0), depth + 1, visiting);
            return pattern == null
                    ? null
                    : messageFormat(
                            pattern,
                            call.getArguments().subList(1, call.getArguments().size()),
                            depth,
                            visiting);
        }
        if (name.equals("concat") && scope != null && call.getArguments().size() == 1) {
            JavaText left = eval(scope, depth + 1, visiting);
            if (left == null) {
                return null;
            }
            JavaText out = new JavaText();
            out.append(left);
            appendOperand(out, eval(call.getArgument(0), depth + 1, visiting), call.getArgument(0));
            return out;
        }
        if (name.equals("join")
                && scope instanceof NameExpr s
                && s.getNameAsString().equals("String")
                && call.getArguments().size() >= 2) {
            return join(call, depth, visiting);
        }
        if ((name.equals("replace") || name.equals("replaceAll") || name.equals("replaceFirst"))
                && scope != null
                && call.getArguments().size() == 2
                && call.getArgument(0) instanceof StringLiteralExpr target) {
            String placeholder = name.equals("replace") ? target.asString() : plainRegex(target.asString());
            Expression replacement = call.getArgument(1);
            boolean plainReplacement = !(replacement instanceof NullLiteralExpr)
                    && (name.equals("replace")
                            || !(replacement instanceof StringLiteralExpr r)
                            || (r.asString().indexOf('$') < 0 && r.asString().indexOf('\\') < 0));
            JavaText template = placeholder == null || placeholder.isEmpty() || !plainReplacement
                    ? null
                    : eval(scope, depth + 1, visiting);
            return template == null
                    ? null
                    : substitute(
                            template, placeholder, call.getArgument(1), name.equals("replaceFirst"), depth, visiting);
        }
        if (name.equals("toString") && call.getArguments().isEmpty() && scope != null) {
            if (scope instanceof NameExpr n) {
                JavaText joined = joiner(n, depth, visiting);
                return joined != null ? joined : localBuilder(n, depth, visiting);
            }
            return builderChain(scope, depth, visiting);
        }
        if (choices != null
                && (scope == null
                        || scope instanceof ThisExpr
                        || (scope instanceof NameExpr sn && typeNames.contains(sn.getNameAsString())))) {
            return inline(call, depth, visiting);
        }
        if (choices != null
                && project != null
                && scope instanceof NameExpr sn
                && Character.isUpperCase(sn.getNameAsString().charAt(0))) {
            return remote(call, sn.getNameAsString(), true);
        }
        if (choices != null && project != null && scope != null) {
            String receiverType = receiverType(scope);
            return receiverType == null ? null : remote(call, receiverType, false);
        }
        return null;
    }

    /**
     * The declared class of an instance receiver: a local, parameter or field ({@code dialect},
     * {@code this.dialect}), as a simple name; null for anything else or a type of this file.
     */
    private String receiverType(Expression scope) {
        if (scope instanceof NameExpr n
                && Character.isUpperCase(n.getNameAsString().charAt(0))) {
            return null; // a type name: static calls are remote(.., true)
        }
        String simple = JavaScopes.receiverTypeName(scope);
        return simple == null || typeNames.contains(simple) || simple.equals("String") ? null : simple;
    }

    /**
     * A static method of another file that returns SQL ({@code LockSql.lock(true, false)}), or an instance
     * method of a concrete class of another file called on a local, parameter or field of that declared
     * type ({@code queries.lockSql(true)}; an override in a subclass is not seen): every text its
     * returns give with its parameters bound to the call's arguments (flags pick branches there), one of
     * them per path here. The chars come from another file, so they carry no offsets of this one; a hole
     * is kept when it is a parameter concatenated as is, bound to the call's argument.
     */
    private JavaText remote(MethodCallExpr call, String typeName, boolean staticCall) {
        TypeDeclaration<?> type = project.type(typeName);
        if (type == null
                || (!staticCall
                        && !(type instanceof ClassOrInterfaceDeclaration c && !c.isInterface() && !c.isAbstract()))) {
            return null; // an instance method is taken from a concrete class; overrides are the call graph's
        }
        MethodDeclaration found = null;
        for (MethodDeclaration m : type.getMethodsByName(call.getNameAsString())) {
            if (m.getParameters().size() == call.getArguments().size()) {
                if (found != null) {
                    return null; // overloaded: not resolved by name and arity
                }
                found = m;
            }
        }
        if (found == null
                || found.isStatic() != staticCall
                || found.getBody().isEmpty()
                || found.getParameters().stream().anyMatch(p -> p.isVarArgs())
                || !(found.getType().asString().equals("String")
                        || found.getType().asString().equals("java.lang.String"))) {
            return null;
        }
        StringEvaluator other = project.evaluatorOf(type);
        if (other == null || other == this) {
            return null;
        }
        List<JavaText> texts = other.returnsOf(found, call);
        if (texts == null || texts.isEmpty()) {
            return null;
        }
        JavaText picked = texts.get(texts.size() == 1 ? 0 : choices.choose(null, texts.size()));
        JavaText out = new JavaText();
        for (int i = 0; i < picked.length(); i++) {
            Expression hole = picked.holeAt(i);
            int parameter = hole instanceof NameExpr n ? parameterIndex(found, n.getNameAsString()) : -1;
            if (parameter >= 0) {
                out.appendHole(call.getArgument(parameter));
            } else {
                out.append(picked.text().charAt(i), JavaText.SYNTHETIC);
            }
        }
        return out.viaConstant(typeName + "." + found.getNameAsString() + "(..)");
    }

    private static int parameterIndex(MethodDeclaration m, String name) {
        for (int i = 0; i < m.getParameters().size(); i++) {
            if (m.getParameter(i).getNameAsString().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Every text a method of this file returns with its parameters bound to a call's arguments (a call in
     * another file, whose literal arguments pick branches). Null when this evaluator is already
     * enumerating (a cycle between files), or when too many texts or paths.
     *
     * @param m    a method of this file
     * @param call the call
     * @return the distinct texts, sorted by text, or null
     */
    List<JavaText> returnsOf(MethodDeclaration m, MethodCallExpr call) {
        if (choices != null) {
            return null;
        }
        Choices ch = new Choices();
        choices = ch;
        try {
            Map<String, JavaText> out = new TreeMap<>();
            List<Expression> returned = reachableReturns(m);
            if (returned.isEmpty()) {
                return null;
            }
            for (int path = 0; path < MAX_PATHS; path++) {
                ch.startPath();
                frame = new Frame(m, call, null, ++frameIds);
                int pick = returned.size() == 1 ? 0 : ch.choose(null, returned.size());
                Set<Node> visiting = new HashSet<>();
                visiting.add(m);
                JavaText t = eval(returned.get(pick), 0, visiting);
                if (t != null) {
                    out.putIfAbsent(t.text(), t);
                    if (out.size() > MAX_ALTERNATIVES) {
                        return null;
                    }
                }
                if (!ch.advance()) {
                    return out.isEmpty() ? null : new ArrayList<>(out.values());
                }
            }
            return null;
        } catch (StackOverflowError | RuntimeException ex) {
            return null;
        } finally {
            choices = null;
            frame = null;
        }
    }

    /**
     * A call of a method of this file that returns a {@code String}: its {@code return} expressions, with
     * its parameters bound to the call's arguments. Returns under an {@code if} whose condition is
     * constant there and false are skipped; several remaining returns are a choice. The text is marked as
     * coming through {@code Type.method(..)}, so a site is reported at the call that executes it.
     */
    private JavaText inline(MethodCallExpr call, int depth, Set<Node> visiting) {
        MethodDeclaration m = sqlMethod(call);
        if (m == null || (frame != null && frame.depth() >= MAX_INLINE) || !visiting.add(m)) {
            return null;
        }
        Frame outer = frame;
        frame = new Frame(m, call, outer, ++frameIds);
        try {
            List<Expression> returned = reachableReturns(m);
            if (returned.isEmpty()) {
                return null;
            }
            int pick = returned.size() == 1 ? 0 : choices.choose(null, returned.size());
            JavaText t = eval(returned.get(pick), depth + 1, visiting);
            if (t == null) {
                return null;
            }
            String owner = m.findAncestor(TypeDeclaration.class)
                    .map(TypeDeclaration::getNameAsString)
                    .orElse("");
            return t.viaConstant((owner.isEmpty() ? "" : owner + ".") + m.getNameAsString() + "(..)");
        } finally {
            frame = outer;
            visiting.remove(m);
        }
    }

    /** The file's methods by name, collected once (a call's file is this evaluator's). */
    private Map<String, List<MethodDeclaration>> methodsByName;

    /** Calls of the file by method name, collected once. */
    private Map<String, List<MethodCallExpr>> callsByName;

    private Map<String, List<MethodDeclaration>> methods(Node any) {
        if (methodsByName == null) {
            methodsByName = new HashMap<>();
            for (MethodDeclaration m : any.findRootNode().findAll(MethodDeclaration.class)) {
                methodsByName
                        .computeIfAbsent(m.getNameAsString(), k -> new ArrayList<>())
                        .add(m);
            }
        }
        return methodsByName;
    }

    private List<MethodCallExpr> callsNamed(Node any, String name) {
        if (callsByName == null) {
            callsByName = new HashMap<>();
            for (MethodCallExpr c : JavaScopes.calls(any.findRootNode())) {
                callsByName
                        .computeIfAbsent(c.getNameAsString(), k -> new ArrayList<>())
                        .add(c);
            }
        }
        return callsByName.getOrDefault(name, List.of());
    }

    /** The one method of this file the call reaches: same name and arity, returning String, with a body; else null. */
    private MethodDeclaration sqlMethod(MethodCallExpr call) {
        MethodDeclaration found = null;
        for (MethodDeclaration m : methods(call).getOrDefault(call.getNameAsString(), List.of())) {
            if (m.getParameters().size() != call.getArguments().size()) {
                continue;
            }
            if (found != null) {
                return null; // overloaded: not resolved by name and arity
            }
            found = m;
        }
        if (found == null
                || found.getBody().isEmpty()
                || found.getParameters().stream().anyMatch(p -> p.isVarArgs())
                || !(found.getType().asString().equals("String")
                        || found.getType().asString().equals("java.lang.String"))) {
            return null;
        }
        return found;
    }

    /**
     * The expressions of the method's own {@code return}s (not those of lambdas or local classes) that a
     * constant condition does not rule out; a return under a constant-true {@code if} at the top of the
     * body ends the list.
     */
    private List<Expression> reachableReturns(MethodDeclaration m) {
        List<Expression> out = new ArrayList<>();
        for (ReturnStmt r : m.findAll(ReturnStmt.class)) {
            if (r.getExpression().isEmpty()
                    || r.findAncestor(CallableDeclaration.class).orElse(null) != m
                    || r.findAncestor(LambdaExpr.class)
                            .filter(l -> l.isDescendantOf(m))
                            .isPresent()) {
                continue;
            }
            boolean reachable = true;
            boolean certain = true;
            Node child = r;
            for (Node cur = r.getParentNode().orElse(null);
                    cur != null && cur != m;
                    cur = cur.getParentNode().orElse(null)) {
                if (cur instanceof IfStmt s) {
                    Boolean v = constantBoolean(s.getCondition(), 0);
                    boolean inThen = s.getThenStmt() == child;
                    if (v != null && v != inThen) {
                        reachable = false;
                    }
                    certain &= v != null && v == inThen;
                } else if (!(cur instanceof BlockStmt)) {
                    certain = false;
                }
                child = cur;
            }
            if (reachable) {
                out.add(r.getExpression().get());
                if (certain) {
                    break; // every later return is dead code on this call
                }
            }
        }
        return out;
    }

    /** {@code c ? a : b}: the branch a constant condition picks, or a choice between both. */
    private JavaText conditional(ConditionalExpr c, int depth, Set<Node> visiting) {
        Boolean v = constantBoolean(c.getCondition(), 0);
        if (v == null) {
            if (choices == null) {
                return null; // single-value mode: a value known only at run time
            }
            v = choice(c.getCondition());
        }
        return eval(v ? c.getThenExpr() : c.getElseExpr(), depth + 1, visiting);
    }

    /** A condition without its parentheses and negations, and whether an odd number of {@code !} was removed. */
    private record Unwrapped(Expression base, boolean negated) {}

    private static Unwrapped unwrap(Expression condition, boolean negated) {
        Expression base = condition;
        boolean n = negated;
        while (true) {
            if (base instanceof EnclosedExpr p) {
                base = p.getInner();
            } else if (base instanceof UnaryExpr u && u.getOperator() == UnaryExpr.Operator.LOGICAL_COMPLEMENT) {
                base = u.getExpression();
                n = !n;
            } else {
                return new Unwrapped(base, n);
            }
        }
    }

    /**
     * Takes a value for a condition that is not constant. A condition that is a variable (or its negation)
     * takes one value per path and frame, so {@code f ? "a" : ""} and {@code f ? "b" : ""} agree.
     */
    private boolean choice(Expression condition) {
        Unwrapped u0 = unwrap(condition, false);
        Expression base = u0.base();
        boolean negated = u0.negated();
        // a parameter of an inlined method stands for the argument of its call: follow it outwards, so
        // lockSql(!wait) and a later test of wait agree, and the enclosing method's flag is named
        Frame at = frame;
        while (base instanceof NameExpr n && at != null && n.isDescendantOf(at.method())) {
            Frame here = frame;
            frame = at;
            Expression argument = boundArgument(n.getNameAsString(), n);
            frame = here;
            if (argument == null) {
                break;
            }
            at = at.parent();
            Unwrapped next = unwrap(argument, negated);
            base = next.base();
            negated = next.negated();
        }
        String key = base instanceof NameExpr n ? (at == null ? 0 : at.id()) + ":" + n.getNameAsString() : null;
        boolean value = choices.choose(key, 2) == 0;
        if (at == null && base instanceof NameExpr n && JavaScopes.isParameter(n.getNameAsString(), n)) {
            choices.assumed.put(n.getNameAsString(), value);
        }
        return value != negated;
    }

    /**
     * @param e a boolean expression
     * @return its value when constant where it is written (see {@link #constantBoolean(Expression, int)}), else null
     */
    Boolean constantBoolean(Expression e) {
        try {
            frame = null;
            return constantBoolean(e, 0);
        } catch (StackOverflowError | RuntimeException ex) {
            return null;
        }
    }

    /**
     * @param e     a boolean expression
     * @param depth recursion guard
     * @return its value when constant where it is evaluated: a literal, a negation, a parameter bound by the
     *     inlined call to a constant, a parameter of a private method that every call of this file passes
     *     the same constant, an effectively final local or a {@code final} field initialised with one; else null
     */
    private Boolean constantBoolean(Expression e, int depth) {
        if (e == null || depth > 8) {
            return null;
        }
        if (e instanceof BooleanLiteralExpr b) {
            return b.getValue();
        }
        if (e instanceof EnclosedExpr p) {
            return constantBoolean(p.getInner(), depth + 1);
        }
        if (e instanceof UnaryExpr u && u.getOperator() == UnaryExpr.Operator.LOGICAL_COMPLEMENT) {
            Boolean v = constantBoolean(u.getExpression(), depth + 1);
            return v == null ? null : !v;
        }
        if (e instanceof FieldAccessExpr f
                && (f.getScope() instanceof ThisExpr
                        || (f.getScope() instanceof NameExpr sn && typeNames.contains(sn.getNameAsString())))) {
            VariableDeclarator v = constants.get(f.getNameAsString());
            return v == null
                    ? null
                    : v.getInitializer().map(i -> constantBoolean(i, depth + 1)).orElse(null);
        }
        if (!(e instanceof NameExpr n)) {
            return null;
        }
        String name = n.getNameAsString();
        if (JavaScopes.isParameter(name, n)) {
            Expression argument = boundArgument(name, n);
            if (argument != null) {
                Frame here = frame;
                frame = here.parent();
                try {
                    return constantBoolean(argument, depth + 1);
                } finally {
                    frame = here;
                }
            }
            return (frame == null || !n.isDescendantOf(frame.method())) ? fromCallers(name, n, depth) : null;
        }
        Optional<VariableDeclarator> local = JavaScopes.local(name, n);
        if (local.isPresent()) {
            return JavaScopes.reassigned(local.get())
                    ? null
                    : local.get()
                            .getInitializer()
                            .map(i -> constantBoolean(i, depth + 1))
                            .orElse(null);
        }
        VariableDeclarator c = constants.get(name);
        return c == null
                ? null
                : c.getInitializer().map(i -> constantBoolean(i, depth + 1)).orElse(null);
    }

    /**
     * A flag parameter of a private method (not reassigned) that every call of it in this file passes the
     * same constant: that constant. Null when the method is not private, is never called here, a call
     * passes something else, or the calls disagree.
     */
    private Boolean fromCallers(String name, NameExpr use, int depth) {
        CallableDeclaration<?> m = use.findAncestor(CallableDeclaration.class).orElse(null);
        if (!(m instanceof MethodDeclaration md)
                || !md.isPrivate()
                || use.findAncestor(LambdaExpr.class)
                        .filter(l -> l.isDescendantOf(md))
                        .isPresent()
                || md.findAll(AssignExpr.class).stream()
                        .anyMatch(a -> a.getTarget() instanceof NameExpr t
                                && t.getNameAsString().equals(name))) {
            return null;
        }
        int index = -1;
        for (int i = 0; i < md.getParameters().size(); i++) {
            if (md.getParameter(i).getNameAsString().equals(name)) {
                index = i;
            }
        }
        if (index < 0 || md.getParameter(index).isVarArgs()) {
            return null;
        }
        Boolean seen = null;
        Frame here = frame;
        frame = null;
        try {
            for (MethodCallExpr call : callsNamed(md, md.getNameAsString())) {
                if (call.getArguments().size() != md.getParameters().size()
                        || !call.getScope().map(sc -> sc instanceof ThisExpr).orElse(true)) {
                    continue;
                }
                Boolean v = call.isDescendantOf(md) ? null : constantBoolean(call.getArgument(index), depth + 4);
                if (v == null || (seen != null && !seen.equals(v))) {
                    return null;
                }
                seen = v;
            }
        } finally {
            frame = here;
        }
        return seen;
    }

    /** The argument the inlined call binds to a parameter of the method being inlined, or null. */
    private Expression boundArgument(String name, Node use) {
        if (frame == null || !use.isDescendantOf(frame.method())) {
            return null;
        }
        // the nearest declaration must be the inlined method's parameter, not a lambda's
        for (Node cur = use;
                cur != null && cur != frame.method();
                cur = cur.getParentNode().orElse(null)) {
            if (cur instanceof LambdaExpr l
                    && l.getParameters().stream()
                            .anyMatch(p -> p.getNameAsString().equals(name))) {
                return null;
            }
        }
        var params = frame.method().getParameters();
        for (int i = 0; i < params.size(); i++) {
            if (params.get(i).getNameAsString().equals(name)) {
                return frame.call().getArgument(i);
            }
        }
        return null;
    }

    /** Builder types whose {@code append} chains are evaluated. */
    /** A plain MessageFormat argument index, {@code {0}}: digits only, no spaces. */
    private static final Pattern ARGUMENT_INDEX = Pattern.compile("\\d{1,3}");

    /**
     * An integer MessageFormat prints with grouping separators (java.text.MessageFormat formats a
     * Number argument with NumberFormat.getInstance(locale): {@code 1234} is {@code 1,234} in English).
     */
    private static final Pattern GROUPED_NUMBER = Pattern.compile("-?\\d{4,}");

    private static final Set<String> BUILDERS =
            Set.of("StringBuilder", "StringBuffer", "java.lang.StringBuilder", "java.lang.StringBuffer");

    private static final Pattern FORMAT_SPEC = Pattern.compile("%(\\d+\\$)?[-#+ 0,(]*\\d*(\\.\\d+)?([a-zA-Z%])");

    /**
     * Applies a format string: {@code %s}/{@code %d} (and other value conversions) become the argument
     * (its text when it is a compile-time constant, else a hole bound to it), {@code %%} a percent sign,
     * {@code %n} a line break. Null when an argument is missing.
     */
    private JavaText format(JavaText fmt, List<Expression> args, int depth, Set<Node> visiting) {
        String f = fmt.text();
        Matcher m = FORMAT_SPEC.matcher(f);
        JavaText out = new JavaText();
        int last = 0;
        int next = 0;
        while (m.find()) {
            out.append(fmt, last, m.start());
            char conv = m.group(3).charAt(0);
            if (conv == '%') {
                out.append('%', fmt.offsetAt(m.start()));
            } else if (conv == 'n') {
                out.append('\n', JavaText.SYNTHETIC);
            } else {
                int index = m.group(1) != null
                        ? Integer.parseInt(m.group(1).substring(0, m.group(1).length() - 1)) - 1
                        : next++;
                if (index < 0 || index >= args.size()) {
                    return null;
                }
                Expression arg = args.get(index);
                appendOperand(out, eval(arg, depth + 1, visiting), arg);
            }
            last = m.end();
        }
        out.append(fmt, last, f.length());
        return out.constantOf(fmt);
    }

    /**
     * {@code MessageFormat.format(pattern, args...)}: {@code {n}} and {@code {n,type,style}} take argument n;
     * a pair of single quotes is one quote and a quoted run is copied as is (java.text.MessageFormat's
     * documented syntax). Null when an index has no argument or a brace is unbalanced.
     */
    private JavaText messageFormat(JavaText pattern, List<Expression> args, int depth, Set<Node> visiting) {
        String p = pattern.text();
        JavaText out = new JavaText();
        boolean quoted = false;
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\'') {
                if (i + 1 < p.length() && p.charAt(i + 1) == '\'') {
                    out.append('\'', pattern.offsetAt(i));
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == '{' && !quoted) {
                int close = p.indexOf('}', i);
                if (close < 0) {
                    return null;
                }
                String spec = p.substring(i + 1, close);
                int comma = spec.indexOf(',');
                String number = comma < 0 ? spec : spec.substring(0, comma);
                if (comma >= 0 || !ARGUMENT_INDEX.matcher(number).matches()) {
                    // a format type (number, choice, date...) or a malformed element: the text depends on
                    // the locale or on a choice the evaluator does not make, or the call throws
                    return null;
                }
                int index = Integer.parseInt(number);
                if (index >= args.size()) {
                    return null;
                }
                Expression arg = args.get(index);
                JavaText value = eval(arg, depth + 1, visiting);
                String digits = value != null
                        ? value.text()
                        : arg.isIntegerLiteralExpr() || arg.isLongLiteralExpr() ? arg.toString() : null;
                if (digits != null
                        && GROUPED_NUMBER
                                .matcher(digits.replace("_", "").replaceAll("[lL]$", ""))
                                .matches()) {
                    out.appendHole(arg); // a number of 4 digits or more gets the locale's grouping separators
                } else {
                    appendOperand(out, value, arg);
                }
                i = close;
            } else {
                out.append(c, pattern.offsetAt(i));
            }
        }
        return out.constantOf(pattern);
    }

    /**
     * {@code String.join(delimiter, a, b, ...)} or {@code String.join(delimiter, List.of(a, b))}: the parts
     * with the delimiter between them. Null when the delimiter or every part is unknown.
     */
    private JavaText join(MethodCallExpr call, int depth, Set<Node> visiting) {
        JavaText delimiter = eval(call.getArgument(0), depth + 1, visiting);
        List<Expression> parts = new ArrayList<>(
                call.getArguments().subList(1, call.getArguments().size()));
        if (parts.size() == 1
                && parts.get(0) instanceof MethodCallExpr list
                && (list.getNameAsString().equals("of")
                        || list.getNameAsString().equals("asList"))) {
            parts = new ArrayList<>(list.getArguments());
        }
        if (delimiter == null) {
            return null;
        }
        List<JavaText> values = values(parts, depth, visiting);
        if (values.stream().allMatch(Objects::isNull)) {
            return null;
        }
        JavaText out = new JavaText();
        appendJoined(out, delimiter, parts, values);
        return out;
    }

    /** @return each expression's text, or null where it is not known, in order */
    private List<JavaText> values(List<Expression> parts, int depth, Set<Node> visiting) {
        List<JavaText> values = new ArrayList<>(parts.size());
        for (Expression part : parts) {
            values.add(eval(part, depth + 1, visiting));
        }
        return values;
    }

    /** Appends the parts with the delimiter between them ({@code String.join}, {@code StringJoiner}). */
    private void appendJoined(JavaText out, JavaText delimiter, List<Expression> parts, List<JavaText> values) {
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) {
                out.append(delimiter);
            }
            appendOperand(out, values.get(i), parts.get(i));
        }
    }

    /**
     * A project's own template substitution: {@code template.replace("{table}", value)} (or
     * {@code replaceAll}/{@code replaceFirst} with a regular expression that matches one plain string),
     * every occurrence of the placeholder (the first for {@code replaceFirst}) replaced by the value, or
     * by a hole for it when its text is not known.
     */
    private JavaText substitute(
            JavaText template, String placeholder, Expression value, boolean firstOnly, int depth, Set<Node> visiting) {
        String t = template.text();
        int at = t.indexOf(placeholder);
        if (at < 0) {
            return template;
        }
        JavaText replacement = eval(value, depth + 1, visiting);
        JavaText out = new JavaText();
        int last = 0;
        while (at >= 0) {
            out.append(template, last, at);
            appendOperand(out, replacement, value);
            last = at + placeholder.length();
            at = firstOnly ? -1 : t.indexOf(placeholder, last);
        }
        out.append(template, last, t.length());
        return out.constantOf(template);
    }

    /**
     * The one string a regular expression matches when it is a plain string with its metacharacters
     * escaped ({@code "\\{table\\}"} gives {@code {table}}), else null.
     */
    private static String plainRegex(String regex) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') {
                if (i + 1 >= regex.length() || Character.isLetterOrDigit(regex.charAt(i + 1))) {
                    return null;
                }
                out.append(regex.charAt(++i));
            } else if (".[]{}()*+?^$|".indexOf(c) >= 0) {
                return null;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** {@code new StringBuilder("..")}, {@code new StringBuilder()} or {@code new StringBuilder(capacity)}. */
    private JavaText newBuilder(ObjectCreationExpr oc, int depth, Set<Node> visiting) {
        if (oc.getArguments().isEmpty()) {
            return new JavaText();
        }
        Expression arg = oc.getArgument(0);
        if (arg instanceof IntegerLiteralExpr) {
            return new JavaText();
        }
        return eval(arg, depth + 1, visiting);
    }

    /** {@code x.append(a).append(b)} down to a builder creation: the appended operands in order. */
    private JavaText builderChain(Expression e, int depth, Set<Node> visiting) {
        List<Expression> appended = new ArrayList<>();
        Expression cur = e;
        while (cur instanceof MethodCallExpr m
                && m.getNameAsString().equals("append")
                && m.getArguments().size() == 1
                && m.getScope().isPresent()) {
            appended.add(m.getArgument(0));
            cur = m.getScope().get();
        }
        if (cur instanceof NameExpr local && !appended.isEmpty()) {
            // sb.append(..).toString() on a local builder: its appends so far, then the chain's
            JavaText base = localBuilder(local, depth, visiting);
            if (base == null) {
                return null;
            }
            Collections.reverse(appended);
            return appendAll(base, appended, depth, visiting);
        }
        if (!(cur instanceof ObjectCreationExpr oc
                && BUILDERS.contains(oc.getType().getNameAsString()))) {
            return null;
        }
        JavaText out = newBuilder(oc, depth, visiting);
        if (out == null) {
            return null;
        }
        Collections.reverse(appended);
        return appendAll(out, appended, depth, visiting);
    }

    private JavaText appendAll(JavaText out, List<Expression> appended, int depth, Set<Node> visiting) {
        boolean any = out.length() > 0;
        for (Expression a : appended) {
            JavaText v = eval(a, depth + 1, visiting);
            any |= v != null;
            appendOperand(out, v, a);
        }
        return any ? out : null;
    }

    /**
     * A local builder: {@code var sb = new StringBuilder(..); sb.append(..); sb.append(..).append(..); sb.toString()},
     * every append a statement of the block that declares it, before the use. Null when the builder is
     * appended to anywhere else (a branch, a loop), passed on, or reassigned.
     */
    private JavaText localBuilder(NameExpr use, int depth, Set<Node> visiting) {
        Optional<VariableDeclarator> local = JavaScopes.local(use.getNameAsString(), use);
        if (local.isEmpty() || local.get().getInitializer().isEmpty() || !visiting.add(local.get())) {
            return null;
        }
        try {
            JavaText out = eval(local.get().getInitializer().get(), depth + 1, visiting);
            List<Expression> appended = out == null ? null : operandsBeforeUse(use, local.get(), "append");
            if (appended == null) {
                return null;
            }
            for (Expression a : appended) {
                appendOperand(out, eval(a, depth + 1, visiting), a);
            }
            return out;
        } finally {
            visiting.remove(local.get());
        }
    }

    /**
     * A local {@code StringJoiner} ({@code new StringJoiner(delimiter)} or
     * {@code new StringJoiner(delimiter, prefix, suffix)}) given its parts by {@code add} statements in the
     * block that declares it, before the use: prefix, the parts with the delimiter between them, suffix.
     * Null when the local is no such joiner, or is used any other way before the use.
     */
    private JavaText joiner(NameExpr use, int depth, Set<Node> visiting) {
        Optional<VariableDeclarator> local = JavaScopes.local(use.getNameAsString(), use);
        if (local.isEmpty()
                || !(local.get().getInitializer().orElse(null) instanceof ObjectCreationExpr init)
                || !init.getType().getNameAsString().equals("StringJoiner")
                || (init.getArguments().size() != 1 && init.getArguments().size() != 3)
                || !visiting.add(local.get())) {
            return null;
        }
        try {
            boolean framed = init.getArguments().size() == 3;
            JavaText delimiter = eval(init.getArgument(0), depth + 1, visiting);
            JavaText prefix = framed ? eval(init.getArgument(1), depth + 1, visiting) : new JavaText();
            JavaText suffix = framed ? eval(init.getArgument(2), depth + 1, visiting) : new JavaText();
            List<Expression> parts = delimiter == null || prefix == null || suffix == null
                    ? null
                    : operandsBeforeUse(use, local.get(), "add");
            if (parts == null) {
                return null;
            }
            JavaText out = new JavaText();
            out.append(prefix);
            appendJoined(out, delimiter, parts, values(parts, depth, visiting));
            out.append(suffix);
            return out;
        } finally {
            visiting.remove(local.get());
        }
    }

    /**
     * The operands a local builder or joiner is given, statement by statement, between its declaration and
     * the statement that uses it ({@code sb.append(a).append(b);}, {@code j.add(a);}, and an {@code if}
     * around such calls: see {@link #operandsInBranch}). Null when the local is reassigned, is not declared
     * in a block, or is used any other way before the use.
     *
     * @param method {@code append} or {@code add}
     */
    private List<Expression> operandsBeforeUse(NameExpr use, VariableDeclarator v, String method) {
        String name = use.getNameAsString();
        Statement declaration = v.findAncestor(Statement.class).orElse(null);
        if (JavaScopes.reassigned(v)
                || declaration == null
                || !(declaration.getParentNode().orElse(null) instanceof BlockStmt block)) {
            return null;
        }
        Statement useStatement = use.findAncestor(Statement.class).orElse(null);
        List<Statement> stmts = block.getStatements();
        List<Expression> out = new ArrayList<>();
        for (int k = stmts.indexOf(declaration) + 1; k < stmts.size(); k++) {
            Statement st = stmts.get(k);
            if (st == useStatement
                    || st.findFirst(NameExpr.class, x -> x == use).isPresent()) {
                return out;
            }
            List<Expression> given = callsOn(st, name, method);
            if (given == null && st instanceof IfStmt branch) {
                given = operandsInBranch(branch, name, method);
            }
            if (given != null) {
                out.addAll(given);
            } else if (st.findFirst(NameExpr.class, x -> x.getNameAsString().equals(name))
                    .isPresent()) {
                return null; // used some other way before the use
            }
        }
        return null;
    }

    /**
     * {@code if (c) { name.append(..); } else { name.append(..); }} (the else optional): the operands of the
     * branch a constant condition picks or, while enumerating, the branch chosen on this path; null when
     * a branch does anything but call {@code method} on the local, or in single-value mode for a run-time
     * condition.
     */
    private List<Expression> operandsInBranch(IfStmt branch, String name, String method) {
        List<Expression> then = operandsIn(branch.getThenStmt(), name, method);
        List<Expression> otherwise =
                branch.getElseStmt().map(e -> operandsIn(e, name, method)).orElse(List.of());
        if (then == null || otherwise == null) {
            return null;
        }
        Boolean v = constantBoolean(branch.getCondition(), 0);
        if (v == null) {
            if (choices == null) {
                return null;
            }
            v = choice(branch.getCondition());
        }
        return v ? then : otherwise;
    }

    /** The operands a statement or block gives the local through {@code method}, in order; null when it does anything else. */
    private static List<Expression> operandsIn(Statement st, String name, String method) {
        if (!(st instanceof BlockStmt block)) {
            return callsOn(st, name, method);
        }
        List<Expression> out = new ArrayList<>();
        for (Statement inner : block.getStatements()) {
            List<Expression> a = callsOn(inner, name, method);
            if (a == null) {
                return null;
            }
            out.addAll(a);
        }
        return out;
    }

    /**
     * {@code name.m(a).m(b);} as a statement: the arguments a, b in order; null for any other statement.
     */
    private static List<Expression> callsOn(Statement st, String name, String method) {
        if (!(st instanceof ExpressionStmt es)) {
            return null;
        }
        List<Expression> appended = new ArrayList<>();
        Expression cur = es.getExpression();
        while (cur instanceof MethodCallExpr m
                && m.getNameAsString().equals(method)
                && m.getArguments().size() == 1
                && m.getScope().isPresent()) {
            appended.add(m.getArgument(0));
            cur = m.getScope().get();
        }
        if (appended.isEmpty()
                || !(cur instanceof NameExpr n && n.getNameAsString().equals(name))) {
            return null;
        }
        Collections.reverse(appended);
        return appended;
    }

    private void appendOperand(JavaText out, JavaText value, Expression operand) {
        if (value != null) {
            out.append(value);
        } else if (operand instanceof IntegerLiteralExpr
                || operand instanceof LongLiteralExpr
                || operand instanceof CharLiteralExpr) {
            String v = operand instanceof CharLiteralExpr c
                    ? c.asChar() + ""
                    : operand.toString().replace("_", "").replaceAll("[lL]$", "");
            int start =
                    operand.getBegin().map(p -> file.offsetOf(p.line, p.column)).orElse(JavaText.SYNTHETIC);
            for (int i = 0; i < v.length(); i++) {
                out.append(v.charAt(i), start < 0 ? JavaText.SYNTHETIC : start);
            }
        } else {
            out.appendHole(operand);
        }
    }

    private JavaText name(String name, NameExpr use, int depth, Set<Node> visiting) {
        if (JavaScopes.isParameter(name, use)) {
            Expression argument = boundArgument(name, use);
            if (argument == null) {
                return null;
            }
            Frame here = frame;
            frame = here.parent();
            try {
                return eval(argument, depth + 1, visiting);
            } finally {
                frame = here;
            }
        }
        Optional<VariableDeclarator> local = JavaScopes.local(name, use);
        if (local.isPresent()) {
            VariableDeclarator v = local.get();
            if (JavaScopes.reassigned(v) || !visiting.add(v)) {
                return null;
            }
            try {
                return v.getInitializer()
                        .map(init -> eval(init, depth + 1, visiting))
                        .orElse(null);
            } finally {
                visiting.remove(v);
            }
        }
        VariableDeclarator c = constants.get(name);
        return c == null ? null : constant(c, name, depth, visiting);
    }

    private JavaText constant(VariableDeclarator v, String name, int depth, Set<Node> visiting) {
        if (!visiting.add(v)) {
            return null;
        }
        try {
            JavaText t = v.getInitializer()
                    .map(init -> eval(init, depth + 1, visiting))
                    .orElse(null);
            if (t != null) {
                usedConstants.add(v);
                String owner = v.findAncestor(TypeDeclaration.class)
                        .map(TypeDeclaration::getNameAsString)
                        .orElse("");
                t.viaConstant(owner.isEmpty() ? name : owner + "." + name);
            }
            return t;
        } finally {
            visiting.remove(v);
        }
    }

    private JavaText literal(Expression lit, boolean textBlock) {
        Optional<Position> b = lit.getBegin();
        Optional<Position> en = lit.getEnd();
        String src = file.text();
        if (b.isPresent() && en.isPresent()) {
            int start = file.offsetOf(b.get().line, b.get().column);
            int endQuote = file.offsetOf(en.get().line, en.get().column); // offset of the last '"'
            if (textBlock && src.startsWith("\"\"\"", start) && endQuote - 2 > start && src.charAt(endQuote) == '"') {
                return LiteralDecoder.textBlock(src, start, endQuote - 2);
            }
            if (!textBlock
                    && start < src.length()
                    && src.charAt(start) == '"'
                    && endQuote < src.length()
                    && src.charAt(endQuote) == '"') {
                return LiteralDecoder.stringLiteral(src, start, endQuote);
            }
        }
        // positions unknown or shifted (Unicode escapes outside the literal): keep the value, point at its start
        String value = textBlock ? ((TextBlockLiteralExpr) lit).asString() : ((StringLiteralExpr) lit).asString();
        int at = b.map(p -> file.offsetOf(p.line, p.column)).orElse(JavaText.SYNTHETIC);
        JavaText t = new JavaText();
        for (int i = 0; i < value.length(); i++) {
            t.append(value.charAt(i), at);
        }
        return t;
    }
}
