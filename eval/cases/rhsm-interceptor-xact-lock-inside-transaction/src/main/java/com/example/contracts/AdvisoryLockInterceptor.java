// Case: swatch-contracts stopped concurrent consumers from creating duplicate active subscription rows with a CDI interceptor that takes pg_advisory_xact_lock(hashtext(prefix || key)) before the annotated method runs, relying on the method's transaction to hold the lock until COMMIT or ROLLBACK, with no unlock and no finally block.
// Source: https://github.com/RedHatInsights/rhsm-subscriptions/pull/6598
// Kind: correct
// Expected: correct. The lock call is in an interceptor with no transaction of its own, but it only runs around @AdvisoryLocked methods, and the one such method is @Transactional: Narayana's transaction interceptor has priority PLATFORM_BEFORE + 200, below this interceptor's APPLICATION, so the transaction is already open when the lock is taken (the status check makes sure of it) and the lock ends with that transaction, after the upsert's writes commit (F2). The key is a 32-bit hashtext of "subscription-update-" plus a subscription number in the one-bigint space: two subscriptions can collide and wait for each other, which only serialises them (debatable).
package com.example.contracts;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.annotation.Annotation;

@AdvisoryLocked(prefix = "")
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class AdvisoryLockInterceptor {

    @Inject
    EntityManager em;

    @Inject
    TransactionSynchronizationRegistry transactions;

    @AroundInvoke
    Object lockAround(InvocationContext ctx) throws Exception {
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("@AdvisoryLocked needs an active transaction");
        }
        String key = ctx.getMethod().getAnnotation(AdvisoryLocked.class).prefix() + "-" + lockKeyOf(ctx);
        em.createNativeQuery("SELECT 1 FROM pg_advisory_xact_lock(hashtext(:key))") // may: weak-lock-key-hash
            .setParameter("key", key)
            .getSingleResult();
        return ctx.proceed();
    }

    private static Object lockKeyOf(InvocationContext ctx) {
        Annotation[][] annotations = ctx.getMethod().getParameterAnnotations();
        for (int i = 0; i < annotations.length; i++) {
            for (Annotation a : annotations[i]) {
                if (a instanceof AdvisoryLocked.Key) {
                    return ctx.getParameters()[i];
                }
            }
        }
        throw new IllegalStateException("no @AdvisoryLocked.Key parameter on " + ctx.getMethod());
    }
}
