package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.Objects;

/**
 * The innermost Java loop around a lock site (RULES.md unbounded-lock-count; F11: every advisory lock
 * held takes a slot of the shared lock table).
 *
 * @param description           the loop as written, shortened, e.g. {@code for (Long id : ids)},
 *                              {@code ids.forEach(...)}, {@code while (rs.next())}; never null
 * @param region                the loop's header
 * @param bounded               true when the code bounds the iterations: a constant count, a literal
 *                              collection ({@code List.of(a, b)}), {@code limit(n)}, {@code subList}, a size guard
 *                              before the loop ({@code if (ids.size() > MAX) throw}, {@code checkArgument(..)})
 * @param keyVaries             true when the lock key depends on the iteration (the loop variable, a
 *                              local declared in the body, a value read from the row)
 * @param releasedEachIteration true when each iteration lets go of its lock: an unlock in the loop body,
 *                              a helper that releases inside, or a transaction that begins and ends in
 *                              the body (transaction-level locks)
 * @param exitsAfterSuccess     true for a try-lock whose loop body can {@code break} or {@code return}:
 *                              the usual "claim the first free item" loop, which holds at most one lock
 */
public record LoopContext(
        String description,
        SourceRegion region,
        boolean bounded,
        boolean keyVaries,
        boolean releasedEachIteration,
        boolean exitsAfterSuccess) {

    /** Checks that the required fields are present. */
    public LoopContext {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(region, "region");
    }

    /** @return true when the loop can hold a lock per element with nothing limiting the count */
    public boolean accumulatesLocks() {
        return !bounded && keyVaries && !releasedEachIteration && !exitsAfterSuccess;
    }
}
