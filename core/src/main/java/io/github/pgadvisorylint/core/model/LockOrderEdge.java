package io.github.pgadvisorylint.core.model;

import java.util.Objects;

/**
 * One step of a lock order: {@code to} is acquired while {@code from} is still held, on one code path
 * (one method, following lock helpers). Two sessions that take two keys in opposite orders, both
 * waiting, deadlock (RULES.md F9).
 *
 * @param from    the acquisition already held
 * @param to      the acquisition taken while {@code from} is held
 * @param ordered true when the method puts the two keys into a fixed order itself ({@code Math.min},
 *                a comparison of the two key expressions, sorting)
 */
public record LockOrderEdge(LockSite from, LockSite to, boolean ordered) {

    /** Checks that both ends are present. */
    public LockOrderEdge {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
    }

    /** @return true when a deadlock through this edge is possible: the second acquisition waits */
    public boolean waits() {
        return to.function().isBlocking();
    }

    /** @return the method holding both acquisitions, e.g. {@code LedgerService#transfer} */
    public String method() {
        return to.java() == null
                ? to.path()
                : to.java().typeName() + "#" + to.java().methodName();
    }
}
