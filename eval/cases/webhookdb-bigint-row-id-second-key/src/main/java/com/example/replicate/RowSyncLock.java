// Case: webhookdb's advisory-lock helper used the two-key form with the row's primary key as second key; with bigint primary keys the call failed in production, fixed by fitting the key into an int
// Source: https://github.com/webhookdb/webhookdb/pull/960
// Kind: bug
// Expected: the second key part is a bigint bound with setLong: PostgreSQL has no pg_try_advisory_lock(integer, bigint), so every call fails (ERROR: function does not exist), and a cast would overflow for ids above 2^31-1; the sync of every row fails. Use the one-bigint form or an int that really fits.
package com.example.replicate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

public class RowSyncLock {

    private static final int SYNC_TARGET_NS = 1_204;

    private final DataSource dataSource;

    public RowSyncLock(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Runs the sync of one replicated row unless another worker is syncing it. */
    public boolean syncRow(long rowPk, RowSync sync) throws SQLException {
        try (Connection conn = dataSource.getConnection()) {
            conn.setAutoCommit(false);
            try {
                try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_xact_lock(?, ?)")) { // want: lock-key-out-of-range
                    ps.setInt(1, SYNC_TARGET_NS);
                    ps.setLong(2, rowPk);                    // sync_targets.pk is bigserial
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next() || !rs.getBoolean(1)) {
                            conn.rollback();
                            return false;
                        }
                    }
                }
                sync.run(conn, rowPk);
                conn.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            }
        }
    }

    public interface RowSync {
        void run(Connection conn, long rowPk) throws SQLException;
    }
}
