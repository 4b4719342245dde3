// Case: DataHub's opt-in Postgres write lock took one pg_advisory_xact_lock per (urn, aspect) in a single statement, fenced with ORDER BY ... OFFSET 0 so the locks come in a fixed order; a review pointed out the order is that of the urn/aspect strings while the lock ids are their hashtext values, so two batches whose strings hash alike can take two ids in opposite orders and deadlock.
// Source: https://github.com/datahub-project/datahub/pull/19137
// Kind: bug
// Expected: one statement locks a whole batch of keys (hashtext of each "urn|aspect" under a namespace) in the order of the strings, not of the lock ids: with a hashtext collision (F15) batch {a, b} locks h(a), h(b) while batch {b, c} with h(c) = h(a) locks h(b), h(a), and the two transactions deadlock (F9). Sort by the computed lock id (and drop duplicate ids) before locking.
package com.example.metadata;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.TreeSet;

/** Serialises concurrent writers and hard deletes of the same aspect rows. */
public class AspectWriteLocks {

    static final int ASPECT_WRITE_LOCK_NAMESPACE = 0x4448_5741;

    private static final String LOCK_BATCH =
            "SELECT pg_advisory_xact_lock(?, hashtext(ordered.k)) " // want: unordered-multi-key-lock // may: weak-lock-key-hash
                    + "FROM (SELECT v.k FROM unnest(?::text[]) AS v(k) ORDER BY v.k OFFSET 0) AS ordered";

    /**
     * Takes the write lock of every (urn, aspect) pair in the caller's open transaction; released at its commit.
     * Upserts pass the aspects they write, a hard delete passes every aspect of the entity.
     */
    public void lockForWrite(Connection txConnection, Collection<AspectKey> keys) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        TreeSet<String> names = new TreeSet<>();
        for (AspectKey key : keys) {
            names.add(key.urn() + "|" + key.aspect());
        }
        Array array = txConnection.createArrayOf("text", names.toArray());
        try (PreparedStatement ps = txConnection.prepareStatement(LOCK_BATCH)) {
            ps.setInt(1, ASPECT_WRITE_LOCK_NAMESPACE);
            ps.setArray(2, array);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // one row per lock taken
                }
            }
        } finally {
            array.free();
        }
    }

    public record AspectKey(String urn, String aspect) {
    }
}
