// Case: pg_repack's fix for OIDs above 2^31: the second key of the per-table lock is the OID shifted by -2^31 and cast to integer, computed by the same expression in the lock and the unlock.
// Source: https://github.com/reorg/pg_repack/issues/30
// Kind: correct
// Expected: correct: oid - 2147483648 maps every OID (0 .. 4294967295) one-to-one onto the int range, so the two-int lock never fails and two tables never share a key; lock and unlock use the same SQL text on the tool's single unpooled connection, the try-lock result is tested and the unlock runs in the caller's finally.
package com.example.repack;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Per-table advisory lock so that two repack runs never work on one table at the same time. */
public class RepackTableLock {

    /** First key of every lock this tool takes: our own namespace. */
    static final int LOCK_PREFIX = 16185446;

    // A table OID is an unsigned 4-byte number; the two-key form takes signed ints. Shift it by -2^31
    // in bigint arithmetic, then cast: the result always fits and stays unique per table.
    private static final String TRY_LOCK =
            "SELECT pg_try_advisory_lock(?, CAST(-2147483648 + ?::bigint AS integer))";
    private static final String UNLOCK =
            "SELECT pg_advisory_unlock(?, CAST(-2147483648 + ?::bigint AS integer))";

    private final Connection conn;   // the CLI's single DriverManager connection, open for the whole run

    public RepackTableLock(Connection conn) {
        this.conn = conn;
    }

    /** True when this run now owns the table; the caller must call {@link #unlock}. */
    public boolean tryLock(long tableOid) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(TRY_LOCK)) {
            ps.setInt(1, LOCK_PREFIX);
            ps.setLong(2, tableOid);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    public void unlock(long tableOid) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(UNLOCK)) {
            ps.setInt(1, LOCK_PREFIX);
            ps.setLong(2, tableOid);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    System.err.println("WARNING: repack lock for table " + tableOid + " was not held");
                }
            }
        }
    }
}
