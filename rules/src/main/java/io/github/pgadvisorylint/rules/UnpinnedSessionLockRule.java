package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.ConnectionScope;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockOperation;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.model.TransactionBoundary;
import io.github.pgadvisorylint.core.model.TransactionState;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code unpinned-session-lock}: a session-level lock taken through an API that borrows a pooled
 * connection per call, outside a transaction or in a transaction callback that holds nothing but the lock
 * (it commits and returns its connection to the pool as the callback returns). The lock stays on whichever backend served that one
 * call; the unlock may run on another and return false (RULES.md F1, F13; PostgreSQL docs
 * "Advisory Locks": session-level locks belong to the session).
 */
public final class UnpinnedSessionLockRule extends AbstractRule {

    /** At most this many callers outside a transaction are shown as related locations. */
    private static final int MAX_CALLERS = 10;
    /** At most this many unlocks named as related locations. */
    private static final int MAX_UNLOCKS = 4;

    /** Creates the rule with its metadata and documentation page. */
    public UnpinnedSessionLockRule() {
        // precision: the transaction and connection context inferred from frameworks
        super(
                "unpinned-session-lock",
                Severity.ERROR,
                Precision.MEDIUM,
                "Session-level advisory lock taken through a connection pool's per-call connection.",
                "JdbcTemplate, NamedParameterJdbcTemplate, Spring Data and an EntityManager outside a transaction "
                        + "borrow a pooled connection for each statement and return it afterwards. A session-level "
                        + "advisory lock taken that way stays held by a pooled connection the code no longer controls; "
                        + "the unlock may run on another connection, return false, and leave the key locked.",
                List.of("correctness", "concurrency", "connection-pool", "postgresql", "advisory-lock"));
    }

    /**
     * @return true when both keys are written as the same expression that is more than one variable's name
     *     ({@code Utils.getParams(lock)}): in two files, the same name alone ({@code key}) says nothing
     */
    private static boolean sameComputedKey(LockSite release, LockSite acquisition) {
        String k = acquisition.key().canonical();
        return k.equals(release.key().canonical()) && k.replace("this.", "").matches(".*[.(].*[.(].*");
    }

    @Override
    public void check(RuleContext context) {
        for (LockSite site : context.model().sqlAcquisitions()) {
            if (site.function().level() != LockLevel.SESSION
                    || site.execution().connection() != ConnectionScope.POOLED_PER_CALL) {
                continue;
            }
            // a helper runs in its callers' context: when every call of it runs inside a transaction, the
            // transaction keeps one connection for the helper's lock and for its unlock
            List<LockSite> calls = context.model().helperCalls(site);
            // a transaction that holds nothing but the lock commits when its callback or method returns, and hands
            // its connection back to the pool with the lock on it: that transaction pins nothing. One that does so
            // only where its caller has no transaction (NEW_UNLESS_CALLER) is decided at its calls
            boolean endsBeforeWork = site.execution().transaction() == TransactionState.ENDS_BEFORE_WORK;
            if (site.execution().transaction() == TransactionState.IN_TRANSACTION) {
                if (site.execution().boundary() != TransactionBoundary.NEW_UNLESS_CALLER
                        || calls.stream()
                                .noneMatch(c -> c.execution().transaction() == TransactionState.ENDS_BEFORE_WORK)) {
                    continue;
                }
                endsBeforeWork = true;
            }
            if ((!calls.isEmpty()
                            && calls.stream()
                                    .allMatch(c -> c.execution().transaction() == TransactionState.IN_TRANSACTION))
                    || (!endsBeforeWork && context.model().inCallersTransaction(site))) {
                continue; // and so when every chain of calls that reaches it starts in one
            }
            List<RelatedLocation> related = new ArrayList<>();
            calls.stream()
                    .filter(c -> c.execution().transaction() != TransactionState.IN_TRANSACTION)
                    .map(LockSite::region)
                    .distinct() // one call site of a helper whose SQL has several forms: said once
                    .limit(MAX_CALLERS)
                    .forEach(r -> related.add(new RelatedLocation(r, "a call of this helper outside a transaction")));
            // the unlocks of this lock that borrow a connection of their own: in this file, or in another one when
            // they name the same key by the same expression over more than a variable (a lock class's unlock)
            context.model().possibleReleases(site).stream()
                    .filter(release -> release.execution().connection() == ConnectionScope.POOLED_PER_CALL
                            && (release.path().equals(site.path())
                                    || (sameComputedKey(release, site)
                                            && release.function().mode()
                                                    == site.function().mode()
                                            && release.execution().transaction() != TransactionState.IN_TRANSACTION)))
                    .map(release -> new RelatedLocation(
                            release.region(),
                            release.function().operation() == LockOperation.RELEASE_ALL
                                    ? "this unlock of every lock borrows its own pooled connection, where the"
                                            + " lock is not held"
                                    : "this unlock borrows its own pooled connection and may find no lock to"
                                            + " release"))
                    .distinct()
                    .limit(MAX_UNLOCKS)
                    .forEach(related::add);
            String where = endsBeforeWork
                    ? ", in a transaction that ends right after it ("
                            + site.execution().transactionEvidence()
                            + ") and gives its connection back to the pool with the lock on it: "
                    : ", outside a transaction: ";
            context.report(
                    Severity.ERROR,
                    site,
                    site.display() + " takes a session-level lock through "
                            + (site.java().executionCall() != null
                                    ? site.java().executionCall()
                                    : "the repository method " + site.java().methodName() + "()")
                            + where
                            + site.execution().connectionEvidence()
                            + ", so the lock stays on a pooled connection the code no longer holds and the unlock may run on "
                            + "another one. Take both on one Connection (ConnectionCallback, a @Transactional method), or use "
                            + site.function().sqlName().replace("advisory_lock", "advisory_xact_lock")
                            + " inside a transaction.",
                    related);
        }
        sqlObjectCalls(context);
    }

    /**
     * Session-level locks declared on a SQL object's method ({@code @SqlQuery}) and called through an object that
     * takes a pooled connection per call (JDBI {@code onDemand}): the call is the site, since the declaration's
     * connection depends on how its object was made.
     */
    private static void sqlObjectCalls(RuleContext context) {
        for (LockSite call : context.model().sites()) {
            if (context.model().role(call) != SiteRole.HELPER_CALL
                    || !call.function().operation().isAcquisition()
                    || call.function().level() != LockLevel.SESSION
                    || call.execution().connection() != ConnectionScope.POOLED_PER_CALL
                    || call.declarationRegion() == null) {
                continue;
            }
            boolean declaredPerCall = context.model().sites().stream()
                    .filter(s -> s.region().equals(call.declarationRegion()))
                    .anyMatch(s -> s.execution().connection() == ConnectionScope.POOLED_PER_CALL);
            if (declaredPerCall) {
                continue; // the helper's own site is reported, with this call as a related location
            }
            context.report(
                    Severity.ERROR,
                    call,
                    call.display() + " takes a session-level lock outside a transaction: "
                            + call.execution().connectionEvidence()
                            + ", so the lock stays on a pooled connection the code no longer holds and the unlock may"
                            + " run on another one. Attach the object to one Handle (handle.attach(..), a"
                            + " jdbi.useHandle callback) for the lock and its unlock, or use "
                            + call.function().sqlName().replace("advisory_lock", "advisory_xact_lock")
                            + " inside a transaction.",
                    List.of(new RelatedLocation(call.declarationRegion(), "the lock's declared statement")));
        }
    }
}
