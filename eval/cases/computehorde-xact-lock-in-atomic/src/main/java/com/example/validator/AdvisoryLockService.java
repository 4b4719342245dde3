// Case: ComputeHorde's get_advisory_lock was documented as "call inside an atomic block, released when it ends" but used the session-level pg_try_advisory_lock, which outlives the transaction; the fix switched to pg_try_advisory_xact_lock
// Source: https://github.com/backend-developers-ltd/ComputeHorde/pull/266
// Kind: correct
// Expected: correct: the transaction-level try-lock joins the caller's transaction (MANDATORY), its result is tested, and the only caller is a public @Transactional method of another bean, reached through the proxy, that does the guarded work in that same transaction; the lock ends at its commit or rollback.
package com.example.validator;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

@Component
public class AdvisoryLockService {

    public enum LockType {
        WEIGHT_SETTING(1), SYNTHETIC_JOB_SCHEDULING(2), RECEIPT_SYNC(3);

        final long id;

        LockType(long id) { this.id = id; }
    }

    @PersistenceContext
    private EntityManager em;

    /** Must run inside the caller's transaction; the lock is released when that transaction ends. */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean tryLock(LockType type) {
        Object got = em.createNativeQuery("SELECT pg_try_advisory_xact_lock(:id)")
                .setParameter("id", type.id)
                .getSingleResult();
        return Boolean.TRUE.equals(got);
    }
}
