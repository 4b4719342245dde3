// Case: cala-ledger investigated an advisory-lock deadlock between two multi-account lock queries and concluded its callers must hand the accounts over in one canonical sorted order (BTreeSet) before taking pg_advisory_xact_lock per account
// Source: https://github.com/GaloyMoney/cala/issues/779
// Kind: correct
// Expected: correct: every posting takes its per-account transaction locks in ascending order of the lock keys themselves (a TreeSet of the 64-bit keys), inside one jOOQ transaction that also does the balance update, so two postings over overlapping accounts cannot wait on each other in a cycle; a posting touches a handful of accounts.
package com.example.ledger;

import java.math.BigDecimal;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

public class BalanceLocks {

    private final DSLContext dsl;

    public BalanceLocks(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Applies one journal entry; amounts are keyed by account. */
    public void post(UUID entryId, Map<UUID, BigDecimal> amountsByAccount) {
        dsl.transaction(cfg -> {
            DSLContext tx = DSL.using(cfg);
            SortedSet<Long> keys = new TreeSet<>();
            for (UUID account : amountsByAccount.keySet()) {
                keys.add(accountKey(account));
            }
            for (long key : keys) {                                          // may: unbounded-lock-count
                tx.fetch("SELECT pg_advisory_xact_lock(?)", key);           // ascending keys: one global order
            }
            for (Map.Entry<UUID, BigDecimal> e : amountsByAccount.entrySet()) {
                tx.execute("UPDATE account_balances SET settled = settled + ?, version = version + 1 WHERE account_id = ?",
                        e.getValue(), e.getKey());
            }
            tx.execute("INSERT INTO posted_entries(entry_id, posted_at) VALUES (?, now())", entryId);
        });
    }

    /** 64 bits of the account UUID: distinct accounts practically never share a key. */
    static long accountKey(UUID account) {
        return account.getMostSignificantBits() ^ account.getLeastSignificantBits();
    }
}
