// Case: pg_repack guarded each table with pg_try_advisory_lock(prefix, table_oid); once the database's table OIDs passed 2^31, every repack of such a table failed with "value 3048471620 is out of range for type integer" before it could start.
// Source: https://github.com/reorg/pg_repack/issues/30
// Kind: bug
// Expected: a table OID is an unsigned 32-bit number (up to 4294967295) but the second key of the two-int form is a signed int; for every table whose OID is above 2147483647 the lock call fails each time (the literal is a bigint, so no pg_try_advisory_lock(integer, bigint) exists) and such tables can never be repacked; shift the OID into int range (oid - 2^31) or use the one-bigint form, the same way in lock and unlock.
package com.example.repack;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Per-table advisory lock so that two repack runs never work on one table at the same time. */
public class RepackTableLock {

    /** First key of every lock this tool takes: our own namespace. */
    static final int LOCK_PREFIX = 16185446;

    private final Connection conn;   // the CLI's single DriverManager connection, open for the whole run

    public RepackTableLock(Connection conn) {
        this.conn = conn;
    }

    /** True when this run now owns the table; the caller must call {@link #unlock}. */
    public boolean tryLock(long tableOid) throws SQLException {
        String sql = String.format("SELECT pg_try_advisory_lock(%d, %d)", LOCK_PREFIX, tableOid); // want: lock-key-out-of-range
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    public void unlock(long tableOid) throws SQLException {
        String sql = String.format("SELECT pg_advisory_unlock(%d, %d)", LOCK_PREFIX, tableOid); // may: lock-key-out-of-range
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next() || !rs.getBoolean(1)) {
                System.err.println("WARNING: repack lock for table " + tableOid + " was not held");
            }
        }
    }
}
