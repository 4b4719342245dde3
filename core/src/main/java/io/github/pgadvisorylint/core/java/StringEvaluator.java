package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.CharLiteralExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Evaluates Java expressions that build SQL at compile time: literals, text blocks, {@code +}
 * concatenation, constants of the same file (by simple name or {@code Type.NAME}), and effectively
 * final local variables, {@code String.format}/{@code formatted} with {@code %s}/{@code %d}, and
 * {@code StringBuilder}/{@code StringBuffer} append chains. A non-constant operand (of a concatenation,
 * a format argument, an append) becomes the placeholder {@code ?}, a "hole" whose Java expression is
 * remembered: a value supplied at run time. Depth-bounded, never recursing without limit.
 */
final class StringEvaluator {

    private static final int MAX_DEPTH = 64;

    private final SourceFile file;
    private final Map<String, VariableDeclarator> constants = new HashMap<>();
    private final Set<String> typeNames = new HashSet<>();
    private final Set<VariableDeclarator> usedConstants = new HashSet<>();

    StringEvaluator(SourceFile file, Node unit) {
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
        return field.getParentNode().filter(p -> p instanceof com.github.javaparser.ast.body.ClassOrInterfaceDeclaration c
                && c.isInterface()).isPresent();
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

    private JavaText eval(Expression e, int depth, Set<Node> visiting) {
        if (e == null || depth > MAX_DEPTH) {
            return null;
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
        if (name.equals("format") && scope instanceof NameExpr s && s.getNameAsString().equals("String")
                && call.getArguments().isNonEmpty()) {
            int fmt = 0;
            JavaText format = eval(call.getArgument(0), depth + 1, visiting);
            if (format == null && call.getArguments().size() > 1) {
                fmt = 1; // String.format(Locale.ROOT, fmt, args...)
                format = eval(call.getArgument(1), depth + 1, visiting);
            }
            return format == null ? null : format(format, call.getArguments().subList(fmt + 1, call.getArguments().size()),
                    depth, visiting);
        }
        if (name.equals("formatted") && scope != null) {
            JavaText format = eval(scope, depth + 1, visiting);
            return format == null ? null : format(format, call.getArguments(), depth, visiting);
        }
        if (name.equals("toString") && call.getArguments().isEmpty() && scope != null) {
            if (scope instanceof NameExpr n) {
                return localBuilder(n, depth, visiting);
            }
            return builderChain(scope, depth, visiting);
        }
        return null;
    }

    /** Builder types whose {@code append} chains are evaluated. */
    private static final Set<String> BUILDERS = Set.of("StringBuilder", "StringBuffer", "java.lang.StringBuilder",
            "java.lang.StringBuffer");

    private static final java.util.regex.Pattern FORMAT_SPEC = java.util.regex.Pattern.compile(
            "%(\\d+\\$)?[-#+ 0,(]*\\d*(\\.\\d+)?([a-zA-Z%])");

    /**
     * Applies a format string: {@code %s}/{@code %d} (and other value conversions) become the argument
     * (its text when it is a compile-time constant, else a hole bound to it), {@code %%} a percent sign,
     * {@code %n} a line break. Null when an argument is missing.
     */
    private JavaText format(JavaText fmt, List<Expression> args, int depth, Set<Node> visiting) {
        String f = fmt.text();
        java.util.regex.Matcher m = FORMAT_SPEC.matcher(f);
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
                int index = m.group(1) != null ? Integer.parseInt(m.group(1).substring(0, m.group(1).length() - 1)) - 1 : next++;
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
        while (cur instanceof MethodCallExpr m && m.getNameAsString().equals("append") && m.getArguments().size() == 1
                && m.getScope().isPresent()) {
            appended.add(m.getArgument(0));
            cur = m.getScope().get();
        }
        if (!(cur instanceof ObjectCreationExpr oc && BUILDERS.contains(oc.getType().getNameAsString()))) {
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
        String name = use.getNameAsString();
        Optional<VariableDeclarator> local = JavaScopes.local(name, use);
        if (local.isEmpty() || JavaScopes.reassigned(local.get()) || local.get().getInitializer().isEmpty()
                || !visiting.add(local.get())) {
            return null;
        }
        try {
            VariableDeclarator v = local.get();
            JavaText out = eval(v.getInitializer().get(), depth + 1, visiting);
            Statement declaration = v.findAncestor(Statement.class).orElse(null);
            if (out == null || declaration == null || !(declaration.getParentNode().orElse(null) instanceof BlockStmt block)) {
                return null;
            }
            List<Statement> stmts = block.getStatements();
            int i = stmts.indexOf(declaration);
            if (i < 0) {
                return null;
            }
            for (int k = i + 1; k < stmts.size(); k++) {
                Statement st = stmts.get(k);
                if (st.findFirst(NameExpr.class, x -> x == use).isPresent() || st == use.findAncestor(Statement.class).orElse(null)) {
                    return out;
                }
                List<Expression> appended = appendsTo(st, name);
                if (appended == null) {
                    if (st.findFirst(NameExpr.class, x -> x.getNameAsString().equals(name)).isPresent()) {
                        return null; // used some other way before the toString()
                    }
                    continue;
                }
                for (Expression a : appended) {
                    appendOperand(out, eval(a, depth + 1, visiting), a);
                }
            }
            return null;
        } finally {
            visiting.remove(local.get());
        }
    }

    /** The operands of {@code name.append(a).append(b);} as a statement, in order; null for any other statement. */
    private static List<Expression> appendsTo(Statement st, String name) {
        if (!(st instanceof ExpressionStmt es)) {
            return null;
        }
        List<Expression> appended = new ArrayList<>();
        Expression cur = es.getExpression();
        while (cur instanceof MethodCallExpr m && m.getNameAsString().equals("append") && m.getArguments().size() == 1
                && m.getScope().isPresent()) {
            appended.add(m.getArgument(0));
            cur = m.getScope().get();
        }
        if (appended.isEmpty() || !(cur instanceof NameExpr n && n.getNameAsString().equals(name))) {
            return null;
        }
        Collections.reverse(appended);
        return appended;
    }

    private void appendOperand(JavaText out, JavaText value, Expression operand) {
        if (value != null) {
            out.append(value);
        } else if (operand instanceof IntegerLiteralExpr || operand instanceof LongLiteralExpr
                || operand instanceof CharLiteralExpr) {
            String v = operand instanceof CharLiteralExpr c ? c.asChar() + "" : operand.toString().replace("_", "")
                    .replaceAll("[lL]$", "");
            int start = operand.getBegin().map(p -> file.offsetOf(p.line, p.column)).orElse(JavaText.SYNTHETIC);
            for (int i = 0; i < v.length(); i++) {
                out.append(v.charAt(i), start < 0 ? JavaText.SYNTHETIC : start);
            }
        } else {
            out.appendHole(operand);
        }
    }

    private JavaText name(String name, NameExpr use, int depth, Set<Node> visiting) {
        if (JavaScopes.isParameter(name, use)) {
            return null;
        }
        Optional<VariableDeclarator> local = JavaScopes.local(name, use);
        if (local.isPresent()) {
            VariableDeclarator v = local.get();
            if (JavaScopes.reassigned(v) || !visiting.add(v)) {
                return null;
            }
            try {
                return v.getInitializer().map(init -> eval(init, depth + 1, visiting)).orElse(null);
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
            JavaText t = v.getInitializer().map(init -> eval(init, depth + 1, visiting)).orElse(null);
            if (t != null) {
                usedConstants.add(v);
                String owner = v.findAncestor(TypeDeclaration.class).map(TypeDeclaration::getNameAsString).orElse("");
                t.viaConstant(owner.isEmpty() ? name : owner + "." + name);
            }
            return t;
        } finally {
            visiting.remove(v);
        }
    }

    private JavaText literal(Expression lit, boolean textBlock) {
        Optional<com.github.javaparser.Position> b = lit.getBegin();
        Optional<com.github.javaparser.Position> en = lit.getEnd();
        String src = file.text();
        if (b.isPresent() && en.isPresent()) {
            int start = file.offsetOf(b.get().line, b.get().column);
            int endQuote = file.offsetOf(en.get().line, en.get().column); // offset of the last '"'
            if (textBlock && src.startsWith("\"\"\"", start) && endQuote - 2 > start && src.charAt(endQuote) == '"') {
                return LiteralDecoder.textBlock(src, start, endQuote - 2);
            }
            if (!textBlock && start < src.length() && src.charAt(start) == '"' && endQuote < src.length()
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
