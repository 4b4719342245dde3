// Case: Concourse took build-tracking locks as pg_try_advisory_lock(lockType, buildId); once build ids passed 2147483647 every attempt failed with "value ... is out of range for type integer" and no new build could be tracked.
// Source: https://github.com/concourse/concourse/issues/8364
// Kind: bug
// Expected: the second key of the two-int form is a bigint build id; past 2^31-1 the call (and the matching unlock) fails every time (integer out of range / no pg_try_advisory_lock(integer, bigint)), so tracking stops for all new builds; reduce the id into int range or use the one-bigint form.
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

    /** Returns true when this node now tracks the build; the caller must call {@link #release}. */
    public synchronized boolean tryAcquire(long buildId) throws SQLException {
        try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) { // want: lock-key-out-of-range
            ps.setInt(1, LOCK_TYPE_BUILD_TRACKING);
            ps.setLong(2, buildId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    public synchronized void release(long buildId) throws SQLException {
        try (PreparedStatement ps = lockConn.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) { // may: lock-key-out-of-range
            ps.setInt(1, LOCK_TYPE_BUILD_TRACKING);
            ps.setLong(2, buildId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    throw new IllegalStateException("build-tracking lock for build " + buildId + " was not held");
                }
            }
        }
    }
}
