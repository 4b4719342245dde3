package io.github.pgadvisorylint.core.java;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockSite;
import java.util.List;

/**
 * What a lock helper does, seen from its callers: a method or constructor that takes or releases
 * advisory locks whose keys come from its parameters (or are fixed), directly or through other
 * helpers.
 *
 * @param typeName   simple name of the declaring type
 * @param methodName the method's name, or {@code <init>} for a constructor
 * @param arity      number of parameters
 * @param handle     true when the declaring type is {@code AutoCloseable}/{@code Closeable} and its
 *                   {@code close()} releases: the helper returns a lock handle
 * @param ops        the lock operations, in source order
 */
public record HelperSummary(String typeName, String methodName, int arity, boolean handle, List<Op> ops) {

    /** Copies the operations. */
    public HelperSummary {
        ops = List.copyOf(ops);
    }

    /** @return the registry key {@code Type#name/arity} */
    public String key() {
        return typeName + "#" + methodName + "/" + arity;
    }

    /**
     * One lock operation of a helper.
     *
     * @param function       the advisory function
     * @param parts          for each key part, where its value comes from
     * @param inner          the site inside the helper (for its SQL and execution context)
     * @param releasedInside true for an acquisition the helper itself releases in a {@code finally}
     * @param when           the flag parameters (by 0-based index) and the values under which the helper
     *                       sends this operation, its SQL being built from them ({@code attempt ? "try_" : ""});
     *                       empty when it always does. A call passing another constant skips the operation.
     */
    public record Op(AdvisoryFunction function, List<KeySource> parts, LockSite inner, boolean releasedInside,
                     java.util.SortedMap<Integer, Boolean> when) {
        /** Copies the parts and the flags (none when null). */
        public Op {
            parts = List.copyOf(parts);
            when = when == null ? new java.util.TreeMap<>() : new java.util.TreeMap<>(when);
        }

        /** An operation the helper always sends. */
        public Op(AdvisoryFunction function, List<KeySource> parts, LockSite inner, boolean releasedInside) {
            this(function, parts, inner, releasedInside, null);
        }
    }

    /**
     * Where one key part of a helper's lock comes from: a parameter of the helper, or a fixed part.
     *
     * @param parameter the 0-based parameter index, or -1
     * @param fixed     the fixed part when {@code parameter == -1}
     */
    public record KeySource(int parameter, KeyPart fixed) {
    }
}
