package io.github.pgadvisorylint.core.java;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Values grouped by key identity, keys in first-insertion order. For syntax-tree keys: JavaParser's
 * {@code Node.equals} and {@code hashCode} compare and hash whole subtrees, so a hash map keyed by a
 * method costs the method's size per look-up (quadratic in a long method), and an identity map alone
 * would iterate in an order that changes from run to run. Not thread-safe; one per extraction.
 *
 * @param <K> the key, compared by {@code ==}
 * @param <V> the grouped values
 */
final class IdentityGroups<K, V> {

    private final Map<K, List<V>> groups = new IdentityHashMap<>();
    private final List<K> order = new ArrayList<>();

    /** Adds a value to its key's group, creating the group after the existing ones. */
    void add(K key, V value) {
        groups.computeIfAbsent(key, k -> {
                    order.add(k);
                    return new ArrayList<>();
                })
                .add(value);
    }

    /** @return the keys in the order their first value was added */
    List<K> keys() {
        return order;
    }

    /** @return the group of a key, in the order its values were added; empty for an unknown key */
    List<V> get(K key) {
        return groups.getOrDefault(key, List.of());
    }

    /** Replaces every group by the function's result for it. */
    void replaceAll(BiFunction<K, List<V>, List<V>> f) {
        groups.replaceAll(f);
    }
}
