package io.github.pgadvisorylint.core.flow;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;

/**
 * The propagation a Spring {@code TransactionTemplate}'s own class gives it, read from the syntax tree of the type
 * around a template call: {@code tx.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW)} on the
 * receiver's name (a field or local) anywhere in that type, or {@code new TransactionTemplate(tm, new
 * DefaultTransactionDefinition(PROPAGATION_REQUIRES_NEW))} as the receiver's initializer or assigned to it. A
 * {@code REQUIRES_NEW} template suspends its caller's transaction and commits its own as the callback returns
 * (Spring Framework reference, "Transaction Propagation"). Read by the Java front end's transaction contexts and by the
 * lowering. Stateless.
 */
public final class TemplatePropagation {

    private TemplatePropagation() {}

    /**
     * @param call a call on a template ({@code tx.execute(..)}); never null
     * @return true when the template's own class makes it start a transaction of its own whatever its caller's
     */
    public static boolean requiresNew(MethodCallExpr call) {
        String receiver = call.getScope().map(TemplatePropagation::variableName).orElse(null);
        TypeDeclaration<?> type = call.findAncestor(TypeDeclaration.class).orElse(null);
        if (receiver == null || type == null) {
            return false;
        }
        for (MethodCallExpr set : type.findAll(
                MethodCallExpr.class,
                m -> m.getNameAsString().equals("setPropagationBehavior")
                        && m.getArguments().size() == 1)) {
            String on = set.getScope().map(TemplatePropagation::variableName).orElse("");
            if (on.equals(receiver) && set.getArgument(0).toString().endsWith("PROPAGATION_REQUIRES_NEW")) {
                return true;
            }
        }
        for (ObjectCreationExpr made : type.findAll(
                ObjectCreationExpr.class,
                o -> o.getType().getNameAsString().equals("TransactionTemplate")
                        && o.getArguments().size() == 2
                        && o.getArgument(1).toString().contains("PROPAGATION_REQUIRES_NEW"))) {
            Node parent = made.getParentNode().orElse(null);
            String to = parent instanceof VariableDeclarator v
                    ? v.getNameAsString()
                    : parent instanceof AssignExpr a ? variableName(a.getTarget()) : null;
            if (receiver.equals(to)) {
                return true;
            }
        }
        return false;
    }

    private static String variableName(Expression scope) {
        return scope instanceof FieldAccessExpr f ? f.getNameAsString() : scope.toString();
    }
}
