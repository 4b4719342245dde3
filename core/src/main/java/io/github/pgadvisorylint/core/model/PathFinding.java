package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A fact the lock-state analysis proved along a path of one method (core.flow): where a session-level
 * lock's obligation is dropped, or where a release does not match what the path holds. Rules report
 * these; each names the place the fix goes and the steps of the path that shows why.
 *
 * @param kind        what goes wrong
 * @param acquisition the acquiring site concerned (the caller's helper call when a helper took the lock)
 * @param release     the release concerned, or null
 * @param at          where to report: the acquisition, or the release for the release kinds
 * @param note        a short explanation for messages, never null
 * @param steps       the path: regions with what happens there, in path order (SARIF codeFlows)
 * @param boundary    for {@link Kind#RELEASE_BEFORE_COMMIT}, where the transaction still open at the release
 *                    begins; else null
 */
public record PathFinding(
        Kind kind,
        LockSite acquisition,
        LockSite release,
        SourceRegion at,
        String note,
        List<Step> steps,
        Boundary boundary) {

    /**
     * A finding without a transaction boundary.
     *
     * @param kind        what goes wrong
     * @param acquisition the acquiring site concerned
     * @param release     the release concerned, or null
     * @param at          where to report
     * @param note        a short explanation for messages
     * @param steps       the path, in path order
     */
    public PathFinding(
            Kind kind, LockSite acquisition, LockSite release, SourceRegion at, String note, List<Step> steps) {
        this(kind, acquisition, release, at, note, steps, null);
    }

    /**
     * @param other a finding of the same kind, place and acquisition reached through another method
     * @return this finding with the steps of {@code other} it lacks (by region) added after its own
     */
    public PathFinding withStepsOf(PathFinding other) {
        List<Step> merged = new ArrayList<>(steps);
        for (Step s : other.steps()) {
            if (merged.stream().noneMatch(x -> x.region().equals(s.region()))) {
                merged.add(s);
            }
        }
        return merged.size() == steps.size()
                ? this
                : new PathFinding(kind, acquisition, release, at, note, merged, boundary);
    }

    /**
     * Where the transaction that is still open at a session-level release begins, and so what commits only
     * after the release (RULES.md F19).
     *
     * @param kind     which kind of transaction it is
     * @param region   the transaction's start: the {@code @Transactional} method, the call that runs the
     *                 callback or the copy in its transaction, or the {@code setAutoCommit(false)} or
     *                 {@code BEGIN}
     * @param evidence a short phrase for messages: {@code @Transactional on method renumber},
     *                 {@code tx.execute(...)}, {@code ClearingJobs.close}, {@code setAutoCommit(false) on c}
     * @param commit   for {@link BoundaryKind#MANUAL_COMMIT}, the {@code commit()} that runs after the release when
     *                 the method has one; else null
     */
    public record Boundary(BoundaryKind kind, SourceRegion region, String evidence, SourceRegion commit) {

        /** Checks the required fields. */
        public Boundary {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(evidence, "evidence");
        }
    }

    /** Where an open transaction comes from. */
    public enum BoundaryKind {
        /** The method's own Spring, Jakarta or Micronaut {@code @Transactional}: it commits when the method returns. */
        TRANSACTIONAL_METHOD,
        /**
         * A callback a framework runs in a transaction it commits after the callback returns
         * ({@code TransactionTemplate.execute}, JDBI {@code inTransaction}, jOOQ {@code transaction}).
         */
        TRANSACTION_CALLBACK,
        /** The transaction of a caller ({@code @Transactional} or a callback) that this method runs in. */
        CALLER_TRANSACTION,
        /** A JDBC connection with {@code setAutoCommit(false)} (or {@code BEGIN}) whose commit comes later. */
        MANUAL_COMMIT
    }

    /** What the path shows. */
    public enum Kind {
        /** An exception path leaves a session-level lock held (the unlock is not in a covering finally). */
        HELD_ON_EXCEPTION,
        /** A normal return path (an early return, a branch) leaves the lock held. */
        HELD_ON_RETURN,
        /**
         * A Reactor chain cancelled after the lock ({@code timeout}, {@code take(Duration)}) leaves it held: a
         * cancelled chain runs neither its later steps nor its error handlers, only {@code doFinally} and
         * {@code usingWhen}'s cleanup.
         */
        HELD_ON_CANCEL,
        /** A pooled connection goes back to its pool holding the lock (F13). */
        POOLED_CLOSE,
        /** The unlock runs in a transaction a failed statement aborted, so it fails and releases nothing (F18). */
        ABORTED_UNLOCK,
        /** The lock is taken more times than released on a path, and stays held (F4). */
        STACKED,
        /** A release runs on a path where the try-lock returned false or threw: it releases a hold never taken. */
        RELEASE_WITHOUT_HOLD,
        /** A release runs on another connection than the one holding the lock, or on a closed one. */
        RELEASE_ON_OTHER_CONNECTION,
        /**
         * A session-level release runs inside the open transaction that did the work under the lock: the
         * key is free at once, before the writes commit (F19).
         */
        RELEASE_BEFORE_COMMIT,
        /**
         * A method catches the failure of its blocking acquisition and returns normally, with no result
         * that says so, or catches the failure of its try-lock and returns true: its callers carry on into the
         * work without the lock.
         */
        FAILURE_SWALLOWED,
        /**
         * Work runs both holding a try-lock and after the same try-lock returned false: the result is
         * tested (a deadline, a log line) but does not decide whether the work runs.
         */
        WORK_WITHOUT_HOLD,
        /**
         * A transaction-level lock taken, here or in a callee given the connection, on a connection this method
         * opened and left in autocommit: the lock ends with its own statement, before any work (F2).
         */
        XACT_IN_AUTOCOMMIT,
        /**
         * A transaction-level lock taken in a method's own manual transaction that the method commits (or rolls
         * back) before any other statement, with work after: the lock ends with that transaction (F2), before the
         * work it was taken for.
         */
        XACT_ENDS_BEFORE_WORK,
        /**
         * A call on {@code this} of a method whose advisory lock an {@code @Around} advice takes (selected by an
         * annotation on the method): the call does not go through the Spring proxy, so the advice does not run
         * and the method runs without the lock. Reported at the call; the acquisition is the advice's.
         */
        ADVICE_BYPASSED
    }

    /**
     * One step of a path.
     *
     * @param region  where
     * @param message what happens there
     */
    public record Step(SourceRegion region, String message) {}

    /** @return true for the kinds where a session-level lock stays held after the path (lock-without-finally-unlock) */
    public boolean isLeak() {
        return kind == Kind.HELD_ON_EXCEPTION
                || kind == Kind.HELD_ON_RETURN
                || kind == Kind.HELD_ON_CANCEL
                || kind == Kind.POOLED_CLOSE
                || kind == Kind.ABORTED_UNLOCK;
    }

    /** Checks the required fields and copies the steps. */
    public PathFinding {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(note, "note");
        steps = List.copyOf(steps);
    }
}
