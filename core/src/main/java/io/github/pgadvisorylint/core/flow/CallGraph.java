package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.api.ApiCatalog;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The project's call graph as the method graphs give it: each {@link MethodFlow} by key, the class hierarchy
 * their declaring types spell ({@link MethodFlow#supertypes()}), and the resolution of a call's callee names
 * ({@link FlowEvent#callee()}, most specific first) to the graphs the call can run.
 *
 * <p>A call written on a type ({@code JobLock.acquire/1}) runs that type's own method, else the nearest one
 * it inherits, and any override in a subtype of the project: class hierarchy analysis (Dean, Grove and
 * Chambers, ECOOP 1995). The call then has the union of their summaries. Overloads of one arity on one type
 * are told apart by the declared types of the call's arguments ({@link FlowEvent#argTypes()}) where those choose
 * exactly one (first by equal types, then allowing primitive widening, boxing and {@code Object}); otherwise the
 * name resolves to nothing, as it does for more than {@link #MAX_TARGETS} implementations
 * (too broad to say anything). A {@code *.name/arity} name resolves when exactly one method of the project has
 * that name and arity. Not thread-safe; one instance per analysis.
 */
final class CallGraph {

    private static final ApiCatalog API = ApiCatalog.standard();

    /** Most implementations one call is resolved to; a call with more resolves to nothing. */
    static final int MAX_TARGETS = 8;

    private static final int MAX_DEPTH = 8;

    /** Levels of nested lambdas whose names {@link #capturedNames(String)} collects. */
    private static final int CAPTURE_DEPTH = 3;

    /**
     * The JDK's functional interfaces: a call on one runs a lambda, never the project's one method that happens
     * to have the same name and arity.
     */
    private static final Set<String> CALLBACK_TYPES = Set.of(
            "Runnable",
            "Callable",
            "Supplier",
            "Function",
            "BiFunction",
            "Consumer",
            "BiConsumer",
            "Predicate",
            "BooleanSupplier",
            "UnaryOperator");

    private final Map<String, List<MethodFlow>> byKey = new HashMap<>();
    private final Map<String, Set<String>> captured = new HashMap<>();
    private final Map<String, List<MethodFlow>> byName = new HashMap<>();
    private final Map<String, Set<String>> supertypes = new HashMap<>();
    private final Map<String, Set<String>> subtypes = new HashMap<>();
    private final Map<List<String>, List<MethodFlow>> memo = new HashMap<>();

    /** @param flows every method graph of the project */
    CallGraph(List<MethodFlow> flows) {
        flows.forEach(this::add);
    }

    /** Adds one graph (a copy for a calling context has a key of its own). */
    void add(MethodFlow f) {
        byKey.computeIfAbsent(f.key(), k -> new ArrayList<>()).add(f);
        byName.computeIfAbsent(f.name() + "/" + f.params().size(), k -> new ArrayList<>())
                .add(f);
        for (String s : f.supertypes()) {
            supertypes.computeIfAbsent(f.typeName(), k -> new TreeSet<>()).add(s);
            subtypes.computeIfAbsent(s, k -> new TreeSet<>()).add(f.typeName());
        }
        memo.clear();
    }

    /** @return the graphs of exactly this key ({@code Type.name/arity}), in the order they were added */
    List<MethodFlow> flows(String key) {
        return byKey.getOrDefault(key, List.of());
    }

    /**
     * @param fn a lambda or method reference value ({@code $fn:Type.m$lambda0/1})
     * @return the roots of the names its graph, and the graphs of the lambdas it creates ({@link #CAPTURE_DEPTH}
     *     levels), use that are none of their parameters and not {@code this}: the enclosing method's locals it
     *     captures, and its own locals; in name order, empty when the key names no one graph. Memoized.
     */
    Set<String> capturedNames(String fn) {
        return captured.computeIfAbsent(fn, f -> Collections.unmodifiableSet(capturedNames(f, CAPTURE_DEPTH)));
    }

    /**
     * @param fn a lambda or method reference value ({@code $fn:Type.m$lambda0/1})
     * @return whether its graph reads one of its parameters, itself or through a lambda it creates: a library that
     *     passes it a value ({@code optional.ifPresent(lock -> ..)}) hands that value over to it
     */
    boolean readsItsParameter(String fn) {
        MethodFlow lambda = lambdaGraph(fn);
        if (lambda == null) {
            return false;
        }
        for (FlowNode n : lambda.nodes()) {
            for (String name : namesRead(n.event(), false)) {
                if (name.startsWith(FlowLowering.FUNCTION)) {
                    if (capturedNames(name).stream().anyMatch(lambda.params()::contains)) {
                        return true;
                    }
                } else if (lambda.params().contains(LockStateAnalysis.rootOf(name))) {
                    return true;
                }
            }
        }
        return false;
    }

    private Set<String> capturedNames(String fn, int depth) {
        Set<String> out = new TreeSet<>();
        MethodFlow lambda = lambdaGraph(fn);
        if (lambda == null) {
            return out;
        }
        for (FlowNode n : lambda.nodes()) {
            for (String name : namesRead(n.event(), true)) {
                if (depth > 1 && name.startsWith(FlowLowering.FUNCTION)) {
                    out.addAll(capturedNames(name, depth - 1));
                } else if (!name.isEmpty() && !name.startsWith("$")) {
                    String root = LockStateAnalysis.rootOf(name);
                    if (!root.equals("this") && !lambda.params().contains(root)) {
                        out.add(root);
                    }
                }
            }
        }
        return out;
    }

    /** @return the one graph a lambda or method reference value ({@code $fn:..}) names, or null */
    private MethodFlow lambdaGraph(String fn) {
        List<MethodFlow> found =
                fn.startsWith(FlowLowering.FUNCTION) ? flows(fn.substring(FlowLowering.FUNCTION.length())) : List.of();
        return found.size() == 1 ? found.get(0) : null;
    }

    /** @return the event's arguments and receiver (and its target when {@code withTarget}), without nulls */
    private static List<String> namesRead(FlowEvent e, boolean withTarget) {
        List<String> names = new ArrayList<>(e.args());
        names.add(e.path());
        if (withTarget) {
            names.add(e.target());
        }
        names.removeIf(Objects::isNull);
        return names;
    }

    /**
     * @param call a {@link FlowEvent.Kind#CALL} event
     * @return the graphs the call can run, as {@link #resolve(List, List)} with its names and argument types
     */
    List<MethodFlow> resolve(FlowEvent call) {
        return resolve(call.callee(), call.argTypes());
    }

    /**
     * @param callee a call's names, most specific first ({@code JobLock.acquire/1}, {@code *.acquire/1})
     * @return the graphs the call can run when its argument types are not known: overloads stay ambiguous
     */
    List<MethodFlow> resolve(List<String> callee) {
        return resolve(callee, List.of());
    }

    /**
     * @param callee   a call's names, most specific first ({@code JobLock.acquire/1}, {@code *.acquire/1})
     * @param argTypes the simple declared type of each argument, null where unknown; empty when none is known
     * @return the graphs the call can run, sorted by key; empty when none is known, overloads make the name
     *     ambiguous, or more than {@link #MAX_TARGETS} implementations could run
     */
    List<MethodFlow> resolve(List<String> callee, List<String> argTypes) {
        boolean typed = argTypes.stream().anyMatch(Objects::nonNull);
        List<String> key = callee;
        if (typed) {
            key = new ArrayList<>(callee);
            key.add(argTypes.stream().map(t -> t == null ? "?" : t).collect(Collectors.joining(",", "(", ")")));
        }
        List<MethodFlow> known = memo.get(key);
        if (known == null) {
            known = compute(callee, typed ? argTypes : List.of());
            memo.put(List.copyOf(key), known);
        }
        return known;
    }

    /**
     * The methods a call may run, for questions where more is safer (who can call a method): like {@link
     * #resolve}, except that overloads of one arity on one type are all taken.
     *
     * @param callee a call's names, most specific first
     * @return the graphs, sorted by key; empty when none is known or more than {@link #MAX_TARGETS}
     */
    List<MethodFlow> resolveMay(FlowEvent callee) {
        List<MethodFlow> found = resolve(callee);
        if (!found.isEmpty()
                || callee.callee().isEmpty()
                || callee.callee().get(0).startsWith("*.")) {
            return found;
        }
        List<MethodFlow> overloads = byKey.getOrDefault(callee.callee().get(0), List.of());
        if (overloads.size() < 2 || overloads.size() > MAX_TARGETS) {
            return List.of();
        }
        List<MethodFlow> sorted = new ArrayList<>(overloads);
        sorted.sort(Comparator.comparing(MethodFlow::key));
        return List.copyOf(sorted);
    }

    /** @return the single graph a call runs, or null when it resolves to none or to several */
    MethodFlow unique(FlowEvent callee) {
        List<MethodFlow> found = resolve(callee);
        return found.size() == 1 ? found.get(0) : null;
    }

    private List<MethodFlow> compute(List<String> callee, List<String> argTypes) {
        boolean typed = false;
        for (String key : callee) {
            int dot = key.indexOf('.');
            if (dot < 0) {
                continue;
            }
            String type = key.substring(0, dot);
            String method = key.substring(dot + 1);
            if (type.equals("*")) {
                if (typed) {
                    // the receiver's declared type is a library's that the catalog models (Jdbi.inTransaction):
                    // a same-named project method elsewhere is not what runs
                    return List.of();
                }
                List<MethodFlow> found = byName.get(method);
                if (found != null && found.size() == 1) {
                    return found;
                }
                continue;
            }
            if (CALLBACK_TYPES.contains(type) && !byKey.containsKey(key)) {
                return List.of(); // runs whatever lambda was passed: bound by CallingContexts, else unknown
            }
            typed |= !method.contains("$") && API.declares(type, method.substring(0, method.indexOf('/')));
            List<MethodFlow> own = byKey.get(key);
            if (own != null && own.size() > 1) {
                MethodFlow chosen = overload(own, argTypes);
                if (chosen == null) {
                    return List.of(); // overloads of one arity the argument types do not tell apart
                }
                own = List.of(chosen);
            }
            Set<MethodFlow> out = new LinkedHashSet<>();
            if (own != null) {
                out.addAll(own);
            } else {
                List<MethodFlow> inherited = inherited(type, method, argTypes);
                if (inherited == null) {
                    return List.of();
                }
                out.addAll(inherited);
            }
            if (!overrides(type, method, out.size() == 1 ? out.iterator().next().paramTypes() : null, argTypes, out)) {
                return List.of();
            }
            if (!out.isEmpty()) {
                List<MethodFlow> sorted = new ArrayList<>(out);
                sorted.sort(Comparator.comparing(MethodFlow::key));
                return List.copyOf(sorted);
            }
        }
        return List.of();
    }

    /**
     * @return the declaration the nearest supertypes give, breadth first; empty when none declares it; null when
     *     one level declares it more than once (two default methods, or overloads)
     */
    private List<MethodFlow> inherited(String type, String method, List<String> argTypes) {
        Set<String> seen = new HashSet<>(Set.of(type));
        List<String> level = List.copyOf(supertypes.getOrDefault(type, Set.of()));
        for (int depth = 0; depth < MAX_DEPTH && !level.isEmpty(); depth++) {
            List<MethodFlow> found = new ArrayList<>();
            List<String> next = new ArrayList<>();
            for (String s : level) {
                if (seen.add(s)) {
                    found.addAll(byKey.getOrDefault(s + "." + method, List.of()));
                    next.addAll(supertypes.getOrDefault(s, Set.of()));
                }
            }
            if (found.size() > 1) {
                MethodFlow chosen = overload(found, argTypes);
                return chosen == null ? null : List.of(chosen);
            }
            if (found.size() == 1) {
                return found;
            }
            level = next;
        }
        return List.of();
    }

    /**
     * Adds the overrides in every subtype of {@code type}, transitively.
     *
     * @param paramTypes the declared parameter types of the overload the call runs, or null when not one: among a
     *                   subtype's overloads, the one with these types overrides it
     * @param argTypes   the call's argument types, which choose among a subtype's overloads when the type itself
     *                   has no graph of the method (an interface's abstract methods)
     * @return false when there are more than {@link #MAX_TARGETS} targets in all
     */
    private boolean overrides(
            String type, String method, List<String> paramTypes, List<String> argTypes, Set<MethodFlow> out) {
        Set<String> seen = new HashSet<>(Set.of(type));
        Deque<String> todo = new ArrayDeque<>(subtypes.getOrDefault(type, Set.of()));
        while (!todo.isEmpty()) {
            String sub = todo.poll();
            if (!seen.add(sub)) {
                continue;
            }
            List<MethodFlow> found = byKey.getOrDefault(sub + "." + method, List.of());
            if (found.size() == 1) {
                out.add(found.get(0));
            } else if (paramTypes != null) {
                found.stream()
                        .filter(f -> f.paramTypes().equals(paramTypes))
                        .findFirst()
                        .ifPresent(out::add);
            } else if (found.size() > 1) {
                MethodFlow chosen = overload(found, argTypes); // the type declares them abstract: no graph of its own
                if (chosen != null) {
                    out.add(chosen);
                }
            }
            if (out.size() > MAX_TARGETS) {
                return false;
            }
            todo.addAll(subtypes.getOrDefault(sub, Set.of()));
        }
        return true;
    }

    /**
     * Chooses among overloads of one arity by the declared types of the call's arguments, as Java's most specific
     * method would where the types are known (JLS 15.12.2): first the overloads whose parameter types equal every
     * known argument type, then those that accept them by primitive widening, boxing or {@code Object} (or a type
     * variable).
     *
     * @param candidates overloads of one name and arity
     * @param argTypes   the argument types, null where unknown; empty when none is known
     * @return the one overload that fits, or null when none or several do
     */
    static MethodFlow overload(List<MethodFlow> candidates, List<String> argTypes) {
        if (argTypes.stream().noneMatch(Objects::nonNull)) {
            return null;
        }
        for (boolean widen : new boolean[] {false, true}) {
            List<MethodFlow> fit = candidates.stream()
                    .filter(f -> accepts(f.paramTypes(), argTypes, widen))
                    .toList();
            if (fit.size() == 1) {
                return fit.get(0);
            }
            if (fit.size() > 1) {
                return null;
            }
        }
        return null;
    }

    private static boolean accepts(List<String> params, List<String> args, boolean widen) {
        if (params.size() != args.size()) {
            return false;
        }
        for (int i = 0; i < params.size(); i++) {
            String a = args.get(i);
            if (a == null) {
                continue;
            }
            String p = erased(params.get(i));
            a = erased(a);
            if (!p.equals(a) && !(widen && converts(a, p))) {
                return false;
            }
        }
        return true;
    }

    /** @return a type's name without its type arguments: {@code List} of {@code List<String>} */
    private static String erased(String type) {
        int lt = type.indexOf('<');
        return lt < 0 ? type : type.substring(0, lt);
    }

    /** @return whether a value of type {@code from} is passed to a parameter of type {@code to} by a method invocation conversion the names show */
    private static boolean converts(String from, String to) {
        if (to.equals("Object") || (to.length() == 1 && Character.isUpperCase(to.charAt(0)))) {
            return true; // boxing, then widening reference conversion
        }
        return PRIMITIVE_WIDENING.getOrDefault(from, Set.of()).contains(to);
    }

    /** Primitive widening and boxing (JLS 5.1.2, 5.1.7), by simple name. */
    private static final Map<String, Set<String>> PRIMITIVE_WIDENING = Map.of(
            "int", Set.of("long", "float", "double", "Integer", "Number"),
            "long", Set.of("float", "double", "Long", "Number"),
            "boolean", Set.of("Boolean"),
            "Integer", Set.of("int", "long", "Number"),
            "Long", Set.of("long", "Number"),
            "Boolean", Set.of("boolean"),
            "String", Set.of("CharSequence"));
}
