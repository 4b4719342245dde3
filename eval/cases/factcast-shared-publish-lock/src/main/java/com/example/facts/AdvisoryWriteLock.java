// Case: factcast's fact store takes a shared transaction-level advisory lock on a "*" namespace key for unconditional publishes and an exclusive one only for conditional publishes on "*", with per-namespace locks taken in ascending key order, all inside the caller's (mandatory) transaction.
// Source: https://github.com/factcast/factcast/pull/4746
// Kind: correct
// Expected: nothing to report: shared and exclusive transaction-level locks on one key are a deliberate reader/writer design, MANDATORY propagation guarantees a surrounding transaction, and the per-namespace locks are de-duplicated and taken in ascending order, so no two publishers can wait on each other in a cycle; the namespace set of one publish is small.
package com.example.facts;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

@Component
public class AdvisoryWriteLock {

    /** Key of the pseudo namespace "*": every publish holds it, shared or exclusive. */
    public static final int STAR_NAMESPACE_CODE = 5_000;

    private final JdbcTemplate tpl;

    public AdvisoryWriteLock(JdbcTemplate tpl) {
        this.tpl = tpl;
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void acquireSharedTxLock(int code) {
        tpl.execute("SELECT pg_advisory_xact_lock_shared(" + code + ")");
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void acquireExclusiveTxLock(int code) {
        tpl.execute("SELECT pg_advisory_xact_lock(" + code + ")");
    }

    /** Every publish calls this first; conditional publishes on "*" use the exclusive variant instead. */
    public void acquireGeneralPublishLock() {
        acquireSharedTxLock(STAR_NAMESPACE_CODE);
    }

    public void acquireExclusiveGeneralPublishLock() {
        acquireExclusiveTxLock(STAR_NAMESPACE_CODE);
    }
}
