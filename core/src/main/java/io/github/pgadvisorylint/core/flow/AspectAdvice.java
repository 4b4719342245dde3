package io.github.pgadvisorylint.core.flow;

import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spring AOP's {@code @Around} advice that an annotation selects ({@code @Around("@annotation(lock)")} over a
 * project's {@code @DistributedLock}), applied the way Spring's proxies apply it:
 *
 * <ul>
 *   <li>a call of an annotated method on another object (a bean, through its proxy) runs a copy of the advice in
 *       which {@code joinPoint.proceed()} calls the method: the advice's lock, the method's work, the advice's
 *       unlock, in the caller's state;
 *   <li>a call on {@code this} (or unqualified) from a method of the same type does not go through the proxy: the
 *       advice does not run (Spring reference, "Understanding AOP Proxies"); {@link #weave} lists such calls;
 *   <li>an annotated method that is also {@code @Transactional} runs the advice inside its transaction when the
 *       aspect has no {@code @Order} (nor implements {@code Ordered}): both advisors then have the lowest
 *       precedence, their order is undefined (Spring reference, "Advice Ordering"), and the proxy creator lists
 *       the transaction advisor, a Spring {@code Advisor} bean, before the aspect's, so the transaction is the outer
 *       one and commits after the advice's unlock.
 * </ul>
 *
 * Load-time or compile-time AspectJ weaving, which advises self-calls too, is not detected: the rule that reports
 * the self-calls says so.
 */
public final class AspectAdvice {

    /** A method modifier: the method is {@code @Around} advice selecting methods annotated {@code @X}. */
    static final String ADVISES = "advises:";

    /** A method modifier: the advice's aspect declares its precedence ({@code @Order}, {@code Ordered}). */
    static final String ORDERED = "adviceOrdered";

    /** {@code @annotation(x)} in a pointcut expression: x a parameter name or a (qualified) annotation type. */
    private static final Pattern ANNOTATION_POINTCUT =
            Pattern.compile("(?<!!)(?<!!\\s)(?<!!\\s\\s)@annotation\\(\\s*([\\w.$]+)\\s*\\)");

    /** A named pointcut's use in an expression, {@code locked()}. */
    private static final Pattern POINTCUT_REFERENCE =
            Pattern.compile("(?<![\\w.@$!])([A-Za-z_$][\\w$]*)\\(\\s*[\\w$,\\s]*\\)");

    /** Named pointcuts followed from an advice, one referring to the next. */
    private static final int MAX_POINTCUT_DEPTH = 4;

    /** Copies of one advice, over every annotated method. */
    static final int MAX_COPIES = 64;

    /**
     * A call of an annotated method on {@code this}, which bypasses the proxy and so the advice.
     *
     * @param call    the call
     * @param caller  the calling method
     * @param advised the annotated method called
     * @param advices the advices that do not run, in the project's order
     * @param annotation the annotation's simple name, with {@code @}
     */
    record Bypass(FlowNode call, MethodFlow caller, MethodFlow advised, List<MethodFlow> advices, String annotation) {}

    /**
     * The graphs with the advice applied.
     *
     * @param flows    the project's graphs, calls through a proxy naming an advice copy, then those copies
     * @param callers  for each advice copy run inside its method's own transaction, by the copy's key, that method
     * @param bypasses the calls on {@code this} of advised methods, in the order of {@code flows}
     */
    record Woven(List<MethodFlow> flows, Map<String, CallingContexts.Caller> callers, List<Bypass> bypasses) {}

    private AspectAdvice() {}

    /**
     * @param m a method declaration
     * @return the simple names (without {@code @}) of the annotations whose methods {@code m} advises: {@code m} is
     *     annotated {@code @Around} in a class annotated {@code @Aspect}, and its pointcut (or a named
     *     {@code @Pointcut} method of the class it refers to, one level) contains {@code @annotation(..)} of a
     *     parameter of {@code m} or of a type name; empty otherwise
     */
    public static Set<String> advisedAnnotations(MethodDeclaration m) {
        Optional<AnnotationExpr> around = m.getAnnotationByName("Around");
        Optional<TypeDeclaration<?>> type =
                m.findAncestor(TypeDeclaration.class).map(t -> (TypeDeclaration<?>) t);
        if (around.isEmpty() || type.isEmpty() || !type.get().isAnnotationPresent("Aspect")) {
            return Set.of();
        }
        if (m.isStatic() || m.isPrivate()) {
            return Set.of();
        }
        Set<String> out = new TreeSet<>();
        selected(pointcut(around.get()), m, type.get(), out, 0);
        return out;
    }

    /** Adds the annotations an expression selects, through the named pointcuts of the aspect it refers to. */
    private static void selected(
            String expression, MethodDeclaration m, TypeDeclaration<?> type, Set<String> out, int depth) {
        collect(expression, m, out);
        if (depth >= MAX_POINTCUT_DEPTH) {
            return;
        }
        Matcher named = POINTCUT_REFERENCE.matcher(expression);
        while (named.find()) {
            if (named.group(1).equals("annotation")) {
                continue;
            }
            for (MethodDeclaration p : type.getMethodsByName(named.group(1))) {
                p.getAnnotationByName("Pointcut").ifPresent(a -> selected(pointcut(a), p, type, out, depth + 1));
            }
        }
    }

    /**
     * A text-level reading of {@link #advisedAnnotations} for a whole file, for the prefilter: the annotations its
     * {@code @annotation(..)} pointcuts name, when it declares an {@code @Aspect}; a parameter name is resolved
     * to the type a parameter of that name is declared with anywhere in the file.
     *
     * @param text a Java file's text
     * @return simple annotation names, without {@code @}; empty when the text declares no aspect
     */
    public static Set<String> pointcutAnnotations(String text) {
        if (!text.contains("@Aspect") || !text.contains("@annotation")) {
            return Set.of();
        }
        Set<String> out = new TreeSet<>();
        Matcher a = ANNOTATION_POINTCUT.matcher(text);
        while (a.find()) {
            String name = a.group(1);
            if (name.contains(".") || Character.isUpperCase(name.charAt(0))) {
                out.add(name.substring(name.lastIndexOf('.') + 1));
                continue;
            }
            Matcher declared = Pattern.compile("([\\w.]+)\\s+" + Pattern.quote(name) + "\\s*[,)]")
                    .matcher(text);
            while (declared.find()) {
                String type = declared.group(1);
                out.add(type.substring(type.lastIndexOf('.') + 1));
            }
        }
        return out;
    }

    /**
     * A text-level reading, for the prefilter, of the methods a file annotates with one of {@code annotations}.
     *
     * @param text        a Java file's text
     * @param annotations simple annotation names, without {@code @}
     * @return the names of the methods declared right after such an annotation (over further annotations and
     *     modifiers)
     */
    public static Set<String> annotatedMethodNames(String text, Set<String> annotations) {
        if (annotations.isEmpty()) {
            return Set.of();
        }
        Pattern declared = Pattern.compile(
                "@(?:[\\w.]+\\.)?(?:"
                        + String.join(
                                "|", annotations.stream().map(Pattern::quote).toList())
                        + ")\\b(?:\\s*\\([^)]*\\))?(?:\\s*@[\\w.]+(?:\\s*\\([^)]*\\))?){0,8}\\s*(?:[\\w<>\\[\\]?,.]+\\s+){0,8}?(\\w+)\\s*\\(");
        Set<String> out = new TreeSet<>();
        Matcher m = declared.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /**
     * @param m an advice method ({@link #advisedAnnotations} not empty)
     * @return whether its aspect declares its precedence: {@code @Order} with a value other than the lowest
     *     ({@code Ordered.LOWEST_PRECEDENCE}, {@code Integer.MAX_VALUE}), or it implements {@code Ordered}
     */
    static boolean ordered(MethodDeclaration m) {
        Optional<TypeDeclaration<?>> type =
                m.findAncestor(TypeDeclaration.class).map(t -> (TypeDeclaration<?>) t);
        if (type.isEmpty()) {
            return false;
        }
        if (type.get() instanceof ClassOrInterfaceDeclaration c
                && c.getImplementedTypes().stream()
                        .anyMatch(t -> t.getNameAsString().equals("Ordered")
                                || t.getNameAsString().equals("PriorityOrdered"))) {
            return true;
        }
        Optional<AnnotationExpr> order = type.get().getAnnotationByName("Order");
        if (order.isEmpty()) {
            order = type.get().getAnnotationByName("Priority"); // Spring reads jakarta's @Priority like @Order
        }
        if (order.isEmpty()) {
            return false;
        }
        Expression value = order.get() instanceof SingleMemberAnnotationExpr s
                ? s.getMemberValue()
                : order.get() instanceof NormalAnnotationExpr n
                        ? n.getPairs().stream()
                                .filter(p -> p.getNameAsString().equals("value"))
                                .map(p -> p.getValue())
                                .findFirst()
                                .orElse(null)
                        : null;
        if (value == null) {
            return false; // @Order() is the lowest precedence
        }
        if (value instanceof FieldAccessExpr f) {
            return !f.getNameAsString().equals("LOWEST_PRECEDENCE")
                    && !f.getNameAsString().equals("MAX_VALUE");
        }
        return !(value instanceof IntegerLiteralExpr i && i.getValue().equals(String.valueOf(Integer.MAX_VALUE)));
    }

    /**
     * @param m a method declaration
     * @return the modifiers its graph carries for {@link #weave}: {@code advises:@X} per advised annotation, and
     *     {@link #ORDERED} when its aspect declares its precedence; empty for a method that is no such advice
     */
    static Set<String> modifiers(MethodDeclaration m) {
        Set<String> advised = advisedAnnotations(m);
        if (advised.isEmpty()) {
            return Set.of();
        }
        Set<String> out = new TreeSet<>();
        advised.forEach(a -> out.add(ADVISES + "@" + a));
        if (ordered(m)) {
            out.add(ORDERED);
        }
        return out;
    }

    /** @return the pointcut text of an {@code @Around} or {@code @Pointcut}: its string literals, joined */
    private static String pointcut(AnnotationExpr a) {
        List<Expression> values = new ArrayList<>();
        if (a instanceof SingleMemberAnnotationExpr s) {
            values.add(s.getMemberValue());
        } else if (a instanceof NormalAnnotationExpr n) {
            n.getPairs().stream()
                    .filter(p -> p.getNameAsString().equals("value")
                            || p.getNameAsString().equals("pointcut"))
                    .forEach(p -> values.add(p.getValue()));
        }
        StringBuilder b = new StringBuilder();
        for (Expression v : values) {
            v.findAll(StringLiteralExpr.class)
                    .forEach(l -> b.append(l.asString()).append(' '));
        }
        return b.toString();
    }

    private static void collect(String expression, MethodDeclaration m, Set<String> out) {
        Matcher a = ANNOTATION_POINTCUT.matcher(expression);
        while (a.find()) {
            String name = a.group(1);
            Optional<Parameter> p = name.contains(".") ? Optional.empty() : m.getParameterByName(name);
            String typeName = p.isPresent() ? p.get().getType().asString() : name;
            out.add(typeName.substring(typeName.lastIndexOf('.') + 1));
        }
    }

    /**
     * @param flows every method graph of the project, in a deterministic order
     * @return the graphs with each advice applied to the methods its annotation marks; the input, and no bypass,
     *     when the project has no such advice
     */
    static Woven weave(List<MethodFlow> flows) {
        Map<String, List<MethodFlow>> advicesOf = new LinkedHashMap<>();
        for (MethodFlow f : flows) {
            for (String m : f.modifiers()) {
                if (m.startsWith(ADVISES)) {
                    advicesOf
                            .computeIfAbsent(m.substring(ADVISES.length()), k -> new ArrayList<>())
                            .add(f);
                }
            }
        }
        if (advicesOf.isEmpty()) {
            return new Woven(flows, Map.of(), List.of());
        }
        CallGraph graph = new CallGraph(flows);
        // each annotated method a proxy can advise (not a lambda, not static or private), its advices and annotation
        Map<MethodFlow, List<MethodFlow>> advicesFor = new IdentityHashMap<>();
        Map<MethodFlow, String> annotationOf = new IdentityHashMap<>();
        Map<MethodFlow, MethodFlow> copyFor = new IdentityHashMap<>();
        Map<String, CallingContexts.Caller> callers = new LinkedHashMap<>();
        List<MethodFlow> copies = new ArrayList<>();
        Map<String, Integer> count = new HashMap<>();
        Set<MethodFlow> advices = Collections.newSetFromMap(new IdentityHashMap<>());
        advicesOf.values().forEach(advices::addAll);
        for (MethodFlow m : flows) {
            if (m.name().contains("$")
                    || m.modifiers().contains("static")
                    || m.modifiers().contains("private")) {
                continue;
            }
            for (Map.Entry<String, List<MethodFlow>> e : advicesOf.entrySet()) {
                if (!m.modifiers().contains(e.getKey()) || advicesFor.containsKey(m)) {
                    continue;
                }
                advicesFor.put(m, e.getValue());
                annotationOf.put(m, e.getKey());
                // the first advice runs around the method (several on one annotation: their order is Spring's)
                MethodFlow advice = e.getValue().get(0);
                int n = count.merge(advice.key(), 1, Integer::sum);
                if (n > MAX_COPIES) {
                    continue;
                }
                MethodFlow copy = copy(advice, m, n, callers);
                copies.add(copy);
                copyFor.put(m, copy);
            }
        }
        if (advicesFor.isEmpty()) {
            return new Woven(flows, Map.of(), List.of());
        }
        Map<String, List<String>> supertypes = new HashMap<>();
        flows.forEach(f -> supertypes.putIfAbsent(f.typeName(), f.supertypes()));
        List<Bypass> bypasses = new ArrayList<>();
        List<MethodFlow> out = new ArrayList<>(flows.size() + copies.size());
        for (MethodFlow f : flows) {
            List<FlowNode> nodes = null;
            for (FlowNode n : f.nodes()) {
                if (n.event().kind() != FlowEvent.Kind.CALL) {
                    continue;
                }
                MethodFlow target = graph.unique(n.event());
                if (target == null || target == f || !advicesFor.containsKey(target)) {
                    continue;
                }
                String path = n.event().path();
                boolean self = (path == null || path.equals("this") || path.equals("super"))
                        && subtype(f.typeName(), target.typeName(), supertypes);
                if (self) {
                    if (!f.modifiers().contains(annotationOf.get(target)) && !advices.contains(f)) {
                        bypasses.add(new Bypass(n, f, target, advicesFor.get(target), annotationOf.get(target)));
                    }
                    continue;
                }
                MethodFlow copy = copyFor.get(target);
                if (copy == null) {
                    continue;
                }
                if (nodes == null) {
                    nodes = new ArrayList<>(f.nodes());
                }
                nodes.set(
                        n.id(),
                        n.withEvent(
                                n.event().redirected(copy.key(), copy.params().size())));
            }
            out.add(nodes == null ? f : f.derive(f.name(), f.modifiers(), nodes));
        }
        out.addAll(copies);
        return new Woven(List.copyOf(out), Collections.unmodifiableMap(callers), List.copyOf(bypasses));
    }

    /**
     * @return the copy of {@code advice} whose {@code proceed()} calls {@code m}: run inside {@code m}'s own
     *     transaction when {@code m} is {@code @Transactional} (not read-only) and the aspect declares no precedence
     *     (recorded in {@code callers}); marked {@code @Async} when {@code m} is (Spring's asynchronous advisor runs
     *     first, so the advice runs on the executor's thread, outside the caller's transaction)
     */
    private static MethodFlow copy(
            MethodFlow advice, MethodFlow m, int n, Map<String, CallingContexts.Caller> callers) {
        List<FlowNode> nodes = new ArrayList<>(advice.nodes());
        for (FlowNode node : advice.nodes()) {
            if (proceeds(node.event(), advice)) {
                nodes.set(node.id(), node.withEvent(node.event().withCallee(List.of(m.key()))));
            }
        }
        Set<String> mods = new TreeSet<>();
        advice.modifiers().stream().filter(x -> !x.startsWith(ADVISES)).forEach(mods::add);
        if (m.modifiers().contains("@Async")) {
            mods.add("@Async");
        }
        String name = advice.name() + "$around" + n;
        if (m.modifiers().contains("transactional")
                && !m.modifiers().contains("readOnly")
                && !m.modifiers().contains("@Async")
                && !advice.modifiers().contains(ORDERED)) {
            // the transaction advisor runs outside the aspect: the advice's unlock precedes the commit
            mods.add("transactional");
            callers.put(
                    advice.typeName() + "." + name + "/" + advice.params().size(),
                    new CallingContexts.Caller(
                            CallingContexts.display(m) + " (its @Transactional advisor runs outside "
                                    + CallingContexts.display(advice) + ": neither declares an @Order)",
                            m.region(),
                            null));
        }
        return advice.derive(name, mods, nodes);
    }

    /** @return whether {@code type} is {@code ancestor} or extends or implements it, as the graphs' types say */
    private static boolean subtype(String type, String ancestor, Map<String, List<String>> supertypes) {
        Set<String> seen = new HashSet<>();
        List<String> todo = new ArrayList<>(List.of(type));
        while (!todo.isEmpty()) {
            String t = todo.remove(todo.size() - 1);
            if (t.equals(ancestor)) {
                return true;
            }
            if (seen.add(t)) {
                todo.addAll(supertypes.getOrDefault(t, List.of()));
            }
        }
        return false;
    }

    /**
     * @param e     an event of {@code f}
     * @param f     a method graph
     * @param graph the project's call graph
     * @return whether {@code e} is the {@code proceed()} of an advice copy ({@link #weave}) and the advised method it
     *     calls runs a statement or calls a method: the work the advice's lock guards
     */
    static boolean proceedsToWork(FlowEvent e, MethodFlow f, CallGraph graph) {
        MethodFlow advised = proceeded(e, f, graph);
        if (advised == null || proceedsToOwnTransaction(e, f, graph)) {
            return false;
        }
        return advised.nodes().stream()
                .anyMatch(n ->
                        n.event().kind() == FlowEvent.Kind.CALL || n.event().kind() == FlowEvent.Kind.EXECUTE);
    }

    /**
     * @param e     an event of {@code f}
     * @param f     a method graph
     * @param graph the project's call graph
     * @return whether {@code e} is the {@code proceed()} of an advice copy whose aspect declares a precedence, so it
     *     runs outside the advised method's own {@code @Transactional}: that transaction ends inside the call
     */
    static boolean proceedsToOwnTransaction(FlowEvent e, MethodFlow f, CallGraph graph) {
        MethodFlow advised = f.modifiers().contains(ORDERED) ? proceeded(e, f, graph) : null;
        return advised != null && advised.modifiers().contains("transactional");
    }

    /** @return the advised method an advice copy's {@code proceed()} event calls, or null for any other event */
    private static MethodFlow proceeded(FlowEvent e, MethodFlow f, CallGraph graph) {
        if (e.kind() != FlowEvent.Kind.CALL || e.path() == null || !f.name().contains("$around")) {
            return null;
        }
        int i = f.params().indexOf(e.path());
        return i < 0 || !f.paramTypes().get(i).equals("ProceedingJoinPoint") ? null : graph.unique(e);
    }

    /** @return whether {@code e} is {@code joinPoint.proceed(..)} on the advice's {@code ProceedingJoinPoint} */
    private static boolean proceeds(FlowEvent e, MethodFlow advice) {
        if (e.kind() != FlowEvent.Kind.CALL || e.path() == null || e.callee().isEmpty()) {
            return false;
        }
        int i = advice.params().indexOf(e.path());
        String first = e.callee().get(0);
        return i >= 0
                && advice.paramTypes().get(i).equals("ProceedingJoinPoint")
                && first.substring(first.indexOf('.') + 1).startsWith("proceed/");
    }
}
