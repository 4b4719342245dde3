package io.github.pgadvisorylint.core.api;

import io.github.pgadvisorylint.core.model.ExecutionApi;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One entry of the {@link ApiCatalog}: calls of a method name on some receiver types with some number
 * of arguments, and what they do.
 *
 * <p>A {@code name} ending in {@code *} is an accessor pattern: {@code get*} matches {@code get} followed
 * by an upper-case letter and any more characters ({@code getLong}, not {@code get} nor {@code getaway}).
 *
 * @param family    the library
 * @param receivers simple names of the receiver types it applies to ({@code *Statement}: any name ending
 *                  so); empty for any receiver (a static import, a name the analyses cannot type)
 * @param name      the method name, or an accessor pattern
 * @param minArity  the fewest arguments
 * @param maxArity  the most arguments, or {@link #ANY}
 * @param roles     what the call does; never empty
 * @param api       for a call whose first argument is SQL text, the API a lock site in that text reports; else null
 */
public record MethodMatcher(
        ApiFamily family,
        Set<String> receivers,
        String name,
        int minArity,
        int maxArity,
        Set<Role> roles,
        ExecutionApi api) {

    /** No upper bound on the number of arguments. */
    public static final int ANY = -1;

    /** @throws IllegalArgumentException when the name is blank, the roles empty or the arities inconsistent */
    public MethodMatcher {
        Objects.requireNonNull(family);
        receivers = Set.copyOf(receivers);
        Objects.requireNonNull(name);
        if (name.isBlank() || roles.isEmpty() || minArity < 0 || (maxArity != ANY && maxArity < minArity)) {
            throw new IllegalArgumentException("bad matcher " + name);
        }
        roles = Set.copyOf(EnumSet.copyOf(roles));
    }

    /** @return true when {@link #name} is an accessor pattern ({@code get*}) */
    public boolean isPattern() {
        return name.endsWith("*");
    }

    /**
     * @param method a method name
     * @return true when this matcher's name or pattern matches it
     */
    public boolean matchesName(String method) {
        if (!isPattern()) {
            return name.equals(method);
        }
        String prefix = name.substring(0, name.length() - 1);
        return method.length() > prefix.length()
                && method.startsWith(prefix)
                && Character.isUpperCase(method.charAt(prefix.length()));
    }

    /**
     * @param receiverType the receiver's declared simple type name, or null when not visible (then any receiver matches)
     * @return true when this matcher applies to that receiver
     */
    public boolean matchesReceiver(String receiverType) {
        if (receiverType == null || receivers.isEmpty() || receivers.contains(receiverType)) {
            return true;
        }
        for (String r : receivers) {
            if (r.startsWith("*") && receiverType.endsWith(r.substring(1))) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param arity a number of arguments
     * @return true when this matcher accepts it
     */
    public boolean matchesArity(int arity) {
        return arity >= minArity && (maxArity == ANY || arity <= maxArity);
    }
}
