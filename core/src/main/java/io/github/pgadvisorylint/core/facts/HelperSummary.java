package io.github.pgadvisorylint.core.facts;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockSite;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

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
 * @param returnsLockResult true when the method's return value is the lock function's own boolean: a
 *                   Spring Data repository method declared {@code boolean}/{@code Boolean} whose native
 *                   {@code @Query} (or {@code @Procedure}) selects the try-lock or unlock (F16), so a
 *                   caller that drops it drops the lock's answer
 * @param answersTry true when the method is declared {@code boolean}/{@code Boolean} and its one lock operation is a
 *                   try-lock it runs itself and does not release: its answer is whether it took the lock, so a call
 *                   that drops it goes on whether or not it holds the lock
 */
public record HelperSummary(
        String typeName,
        String methodName,
        int arity,
        boolean handle,
        List<Op> ops,
        boolean returnsLockResult,
        boolean answersTry) {

    /** Copies the operations. */
    public HelperSummary {
        ops = List.copyOf(ops);
    }

    /** A helper whose return value is not the lock's boolean. */
    public HelperSummary(String typeName, String methodName, int arity, boolean handle, List<Op> ops) {
        this(typeName, methodName, arity, handle, ops, false, false);
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
     * @param execution      the transaction context of the operation inside the helper; when its
     *                       boundary is not {@code OWN}, each call of the helper decides it again
     * @param when           the flag parameters (by 0-based index) and the values under which the helper
     *                       sends this operation, its SQL being built from them ({@code attempt ? "try_" : ""});
     *                       empty when it always does. A call passing another constant skips the operation.
     */
    public record Op(
            AdvisoryFunction function,
            List<KeySource> parts,
            LockSite inner,
            boolean releasedInside,
            ExecutionContext execution,
            SortedMap<Integer, Boolean> when) {
        /** Copies the parts and the flags (none when null). */
        public Op {
            parts = List.copyOf(parts);
            Objects.requireNonNull(execution, "execution");
            when = when == null ? new TreeMap<>() : new TreeMap<>(when);
        }

        /** An operation the helper always sends, in the inner site's own context. */
        public Op(AdvisoryFunction function, List<KeySource> parts, LockSite inner, boolean releasedInside) {
            this(function, parts, inner, releasedInside, inner.execution(), null);
        }

        /** An operation the helper always sends, in the given context. */
        public Op(
                AdvisoryFunction function,
                List<KeySource> parts,
                LockSite inner,
                boolean releasedInside,
                ExecutionContext execution) {
            this(function, parts, inner, releasedInside, execution, null);
        }

        /** An operation sent under the given flags, in the inner site's own context. */
        public Op(
                AdvisoryFunction function,
                List<KeySource> parts,
                LockSite inner,
                boolean releasedInside,
                SortedMap<Integer, Boolean> when) {
            this(function, parts, inner, releasedInside, inner.execution(), when);
        }
    }

    /**
     * Where one key part of a helper's lock comes from: a parameter of the helper, or a fixed part.
     *
     * @param parameter the 0-based parameter index, or -1
     * @param fixed     the fixed part when {@code parameter == -1}
     */
    public record KeySource(int parameter, KeyPart fixed) {}
}
