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
 * final local variables. A non-constant operand of a string concatenation becomes the placeholder
 * {@code ?}: a value supplied at run time. Depth-bounded, never recursing without limit.
 */
final class StringEvaluator {

    private static final int MAX_DEPTH = 64;

    private final SourceFile file;
    private final Map<String, VariableDeclarator> constants = new HashMap<>();
    private final Set<String> typeNames = new HashSet<>();
    private final Set<VariableDeclarator> usedConstants = new HashSet<>();

    StringEvaluator(SourceFile file, Node unit) {
        this.file = file;
        for (TypeDeclaration<?> type : unit.findAll(TypeDeclaration.class)) {
            typeNames.add(type.getNameAsString());
        }
        for (FieldDeclaration field : unit.findAll(FieldDeclaration.class)) {
            boolean constant = field.isFinal() || isInterfaceField(field);
            if (!constant) {
                continue;
            }
            for (VariableDeclarator v : field.getVariables()) {
                if (v.getInitializer().isPresent()) {
                    constants.putIfAbsent(v.getNameAsString(), v);
                }
            }
        }
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
