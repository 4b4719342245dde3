// Case: cala-ledger's new batch "attach many accounts to sets" path locked each (parent, member) pair in one statement, SHARED on the parent then EXCLUSIVE on the member, ordered by (parent, member); the member locks therefore followed the parents' order, not one global order, while the single-attach path locked both ids in plain id order, and a reviewer showed concurrent attaches could deadlock.
// Source: https://github.com/GaloyMoney/cala/pull/784
// Kind: bug
// Expected: lockMembersOfBatch takes blocking exclusive member locks in (parent, member) order: batch X = [(P1, M2), (P2, M1)] and batch Y = [(P1', M1), (P2', M2)] take M2 then M1 and M1 then M2 and abort with "deadlock detected" (F9); every lock of a transaction must be taken in one ascending order of the locked ids, as lockPair does.
package com.example.ledger;

import java.sql.PreparedStatement;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** Advisory locks guarding account-set membership changes; callers run inside a transaction. */
@Repository
public class MembershipLocks {

    /** Namespace (first key) of the per-account membership locks. */
    static final int EC_SET_LOCK_CLASS = 1;

    public record Pair(UUID parentId, UUID memberId) {}

    private final JdbcTemplate jdbc;

    public MembershipLocks(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Single attach: exclusive on the member, shared on the parent, both in ascending id order. */
    public void lockPair(UUID parentId, UUID memberId) {
        String sql = "SELECT CASE WHEN v.account_id = ? "
                + "  THEN pg_advisory_xact_lock(?, hashtext(v.account_id::text)) "             // may: unordered-multi-key-lock
                + "  ELSE pg_advisory_xact_lock_shared(?, hashtext(v.account_id::text)) END "  // may: unordered-multi-key-lock
                + "FROM unnest(?::uuid[]) AS v(account_id) "
                + "ORDER BY v.account_id";
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(sql);
            ps.setObject(1, memberId);
            ps.setInt(2, EC_SET_LOCK_CLASS);
            ps.setInt(3, EC_SET_LOCK_CLASS);
            ps.setArray(4, con.createArrayOf("uuid", new Object[] {parentId, memberId}));
            return ps;
        }, rs -> { });
    }

    /** Batch attach: one statement for every pair of the batch. */
    public void lockMembersOfBatch(List<Pair> pairs) {
        if (pairs.isEmpty()) {
            return;
        }
        Object[] parents = pairs.stream().map(Pair::parentId).toArray();
        Object[] members = pairs.stream().map(Pair::memberId).toArray();
        String sql = "SELECT CASE WHEN v.parent_id <> v.member_id "
                + "  THEN pg_advisory_xact_lock_shared(?, hashtext(v.parent_id::text)) END, "
                + "  pg_advisory_xact_lock(?, hashtext(v.member_id::text)) "          // want: unordered-multi-key-lock // may: unbounded-lock-count
                + "FROM unnest(?::uuid[], ?::uuid[]) AS v(parent_id, member_id) "
                + "ORDER BY v.parent_id, v.member_id";                              // member locks follow the parents' order
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(sql);
            ps.setInt(1, EC_SET_LOCK_CLASS);
            ps.setInt(2, EC_SET_LOCK_CLASS);
            ps.setArray(3, con.createArrayOf("uuid", parents));
            ps.setArray(4, con.createArrayOf("uuid", members));
            return ps;
        }, rs -> { });
    }
}
