package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import io.github.pgadvisorylint.core.facts.HelperSummary;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Every lock helper of one analysis, and how a call finds its helper: by the receiver's declared type
 * and its supertypes (or the types implementing it) when the file shows the type, otherwise by name
 * and arity when exactly one helper has them. Immutable after construction; thread-safe.
 */
public final class HelperRegistry {

    /** No helpers. */
    public static final HelperRegistry EMPTY = new HelperRegistry(List.of(), new ConstantIndex());

    /** Most implementations a supertype's call is resolved through (the call graph's bound, 8). */
    static final int MAX_IMPLEMENTATIONS = 8;

    private final Map<String, HelperSummary> byKey = new TreeMap<>();
    private final Map<String, List<HelperSummary>> byNameArity = new TreeMap<>();
    private final ConstantIndex types;

    /**
     * @param summaries helper summaries; for one key the first wins
     * @param types     the project's types, for supertypes
     */
    public HelperRegistry(Collection<HelperSummary> summaries, ConstantIndex types) {
        this.types = types;
        for (HelperSummary s : summaries) {
            if (byKey.putIfAbsent(s.key(), s) == null) {
                byNameArity
                        .computeIfAbsent(s.methodName() + "/" + s.arity(), k -> new ArrayList<>())
                        .add(s);
            }
        }
    }

    /** @return true when there is no helper */
    public boolean isEmpty() {
        return byKey.isEmpty();
    }

    /** @return every summary, sorted by key */
    public Collection<HelperSummary> summaries() {
        return byKey.values();
    }

    /**
     * @return the words a file must contain to call a helper: method names, and type names for
     *     constructors; sorted
     */
    public Set<String> callNames() {
        Set<String> names = new TreeSet<>();
        for (HelperSummary s : byKey.values()) {
            names.add(s.methodName().equals("<init>") ? s.typeName() : s.methodName());
        }
        return names;
    }

    /** @return a text that changes exactly when the helpers or what they do change */
    public String signature() {
        StringBuilder sb = new StringBuilder();
        for (HelperSummary s : byKey.values()) {
            sb.append(s.key()).append(s.handle() ? "!h" : "");
            for (HelperSummary.Op op : s.ops()) {
                sb.append(' ').append(op.function().sqlName()).append(op.releasedInside() ? "+r" : "");
                sb.append('@')
                        .append(op.execution().transaction())
                        .append('/')
                        .append(op.execution().boundary());
                op.when()
                        .forEach((p, v) -> sb.append("?p").append(p).append('=').append(v));
                for (HelperSummary.KeySource k : op.parts()) {
                    sb.append(':')
                            .append(
                                    k.parameter() >= 0
                                            ? "p" + k.parameter()
                                            : k.fixed().canonical());
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * @param receiverTypes the receiver's possible declared types (simple names), empty when unknown
     * @param name          method name, or {@code <init>} for a constructor of {@code receiverTypes}
     * @param arity         argument count
     * @return the helper called, or empty
     */
    public Optional<HelperSummary> resolve(List<String> receiverTypes, String name, int arity) {
        if (receiverTypes.isEmpty()) {
            List<HelperSummary> candidates = byNameArity.getOrDefault(name + "/" + arity, List.of());
            return candidates.size() == 1 && !name.equals("<init>") ? Optional.of(candidates.get(0)) : Optional.empty();
        }
        Set<String> seen = new LinkedHashSet<>();
        for (String t : receiverTypes) {
            collectSupertypes(t, seen, 0);
        }
        for (String t : seen) {
            HelperSummary s = byKey.get(t + "#" + name + "/" + arity);
            if (s != null) {
                return Optional.of(s);
            }
        }
        if (name.equals("<init>")) {
            return Optional.empty();
        }
        // an interface or base class with at most MAX_IMPLEMENTATIONS implementations in the project, of which
        // one holds the SQL (the others lock in memory, or delegate to another implementation): the call may run
        // that one, and the class hierarchy's union of their effects is the locking one's
        List<HelperSummary> implementing = new ArrayList<>();
        for (HelperSummary s : byNameArity.getOrDefault(name + "/" + arity, List.of())) {
            Set<String> supers = new LinkedHashSet<>();
            collectSupertypes(s.typeName(), supers, 0);
            if (receiverTypes.stream().anyMatch(r -> supers.contains(r) && implementations(r) <= MAX_IMPLEMENTATIONS)) {
                implementing.add(s);
            }
        }
        return implementing.size() == 1 ? Optional.of(implementing.get(0)) : Optional.empty();
    }

    /** How many types of the project extend or implement the type, directly or not. */
    private int implementations(String type) {
        return implementationCounts.computeIfAbsent(type, this::countImplementations);
    }

    private final ConcurrentMap<String, Integer> implementationCounts = new ConcurrentHashMap<>();

    private int countImplementations(String type) {
        int n = 0;
        for (TypeDeclaration<?> t : types.allTypes()) {
            Set<String> supers = new LinkedHashSet<>();
            collectSupertypes(t.getNameAsString(), supers, 0);
            if (!t.getNameAsString().equals(type) && supers.contains(type)) {
                n++;
            }
        }
        return n;
    }

    private void collectSupertypes(String type, Set<String> out, int depth) {
        if (!out.add(type) || depth > 6) {
            return;
        }
        for (TypeDeclaration<?> t : types.types(type)) {
            if (t instanceof ClassOrInterfaceDeclaration c) {
                c.getExtendedTypes().forEach(x -> collectSupertypes(x.getNameAsString(), out, depth + 1));
                c.getImplementedTypes().forEach(x -> collectSupertypes(x.getNameAsString(), out, depth + 1));
            }
        }
    }
}
