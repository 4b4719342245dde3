// Case: the fix of cala-ledger's batch membership locks: all (parent, member) pairs are flattened into one set of account ids (EXCLUSIVE where the id is a member anywhere, SHARED where it is only a parent), sorted and deduplicated in application code, and locked in that order by one join-free statement; the single-attach path goes through the same sorted protocol.
// Source: https://github.com/GaloyMoney/cala/pull/784
// Kind: correct
// Expected: correct: every transaction takes its membership locks in ascending account-id order from one TreeMap (single and batch paths alike), each id once and in its strongest mode, so no two attaches can wait on each other in a cycle; the bare unnest of the sorted arrays calls the lock per element in array order, inside the caller's transaction.
package com.example.ledger;

import java.sql.PreparedStatement;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** Advisory locks guarding account-set membership changes; callers run inside a transaction. */
@Repository
public class MembershipLocks {

    /** Namespace (first key) of the per-account membership locks. */
    static final int EC_SET_LOCK_CLASS = 1;

    public record Pair(UUID parentId, UUID memberId) {}

    private static final String LOCK_SORTED_IDS =
            "SELECT CASE WHEN v.exclusive "
            + "  THEN pg_advisory_xact_lock(?, hashtext(v.account_id::text)) "               // may: unordered-multi-key-lock|unbounded-lock-count
            + "  ELSE pg_advisory_xact_lock_shared(?, hashtext(v.account_id::text)) END "    // may: unordered-multi-key-lock|unbounded-lock-count
            + "FROM unnest(?::uuid[], ?::boolean[]) AS v(account_id, exclusive)";

    private final JdbcTemplate jdbc;

    public MembershipLocks(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public void lockPair(UUID parentId, UUID memberId) {
        lockMembers(List.of(new Pair(parentId, memberId)));
    }

    /** One lock per distinct id, ascending: EXCLUSIVE if the id is a member in any pair, else SHARED. */
    public void lockMembers(List<Pair> pairs) {
        if (pairs.isEmpty()) {
            return;
        }
        TreeMap<UUID, Boolean> modes = new TreeMap<>();
        for (Pair p : pairs) {
            modes.putIfAbsent(p.parentId(), Boolean.FALSE);
            modes.put(p.memberId(), Boolean.TRUE);              // exclusive wins over shared
        }
        Object[] ids = modes.keySet().toArray();
        Object[] exclusive = modes.values().toArray();
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(LOCK_SORTED_IDS);
            ps.setInt(1, EC_SET_LOCK_CLASS);
            ps.setInt(2, EC_SET_LOCK_CLASS);
            ps.setArray(3, con.createArrayOf("uuid", ids));
            ps.setArray(4, con.createArrayOf("boolean", exclusive));
            return ps;
        }, rs -> { });
    }
}
