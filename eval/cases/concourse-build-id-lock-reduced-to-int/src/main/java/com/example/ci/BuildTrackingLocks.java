// Case: the Concourse fix: build ids became bigint and the build-tracking lock id is computed as buildId modulo the int maximum, so the second key of pg_try_advisory_lock(int, int) always fits.
// Source: https://github.com/concourse/concourse/pull/8390
// Kind: correct
// Expected: nothing to report: both key parts are ints, lock and unlock compute the key the same way on the same dedicated connection, the try-lock result decides whether the build is tracked and the unlock runs in the caller's finally (two builds 2^31-1 apart sharing a key is harmless here).
package com.example.ci;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

public class BuildTrackingLocks {

    static final int LOCK_TYPE_RESOURCE_CHECKING = 0;
    static final int LOCK_TYPE_BUILD_TRACKING = 1;

    private final Connection lockConn;   // dedicated, unpooled connection used only for advisory locks

    public BuildTrackingLocks(Connection lockConn) {
        this.lockConn = lockConn;
    }

    static int buildLockKey(long buildId) {
        return (int) (buildId % Integer.MAX_VALUE);
    }

    /** Returns true when this node now tracks the build; the caller must call {@link #release}. */
    public synchronized boolean tryAcquire(long buildId) throws SQLException {
        try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
            ps.setInt(1, LOCK_TYPE_BUILD_TRACKING);
            ps.setInt(2, buildLockKey(buildId));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    public synchronized void release(long buildId) throws SQLException {
        try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
            ps.setInt(1, LOCK_TYPE_BUILD_TRACKING);
            ps.setInt(2, buildLockKey(buildId));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    throw new IllegalStateException("build-tracking lock for build " + buildId + " was not held");
                }
            }
        }
    }
}
