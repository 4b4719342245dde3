// Case: Wolverine's heartbeat started calling TryAttainLeadershipLockAsync on every tick, also while the node already led, to renew leases on other stores; on PostgreSQL each call stacked the session-level advisory lock once more, and the single release at step-down left it held, so failover stalled with nothing logged. The fix made the attain short-circuit when the lock is already held.
// Source: https://github.com/JasperFx/wolverine/pull/2691
// Kind: bug
// Expected: tryAttain runs pg_try_advisory_lock on the node's one dedicated connection every time it is called, and NodeAgentController.heartbeat calls it on every tick whether or not this node already leads. Session locks stack (F4): after n ticks as leader the session holds the key n times, and release() unlocks it once, so after stepDown the key is still held by this live session and no other node can ever become leader. Return early when the lock is already held (or unlock as many times as it was taken).
package com.example.agents;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** The leadership lock of one node, held on a connection the node keeps open for its whole life. */
public class LeaderLock {

    private static final long LEADERSHIP_LOCK_ID = 9_001L;

    private final Connection connection;
    private boolean held;

    public LeaderLock(Connection dedicatedConnection) {
        this.connection = dedicatedConnection;
    }

    public boolean tryAttain() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: unlock-mismatch
            ps.setLong(1, LEADERSHIP_LOCK_ID);
            try (ResultSet rs = ps.executeQuery()) {
                held = rs.next() && rs.getBoolean(1);
                return held;
            }
        }
    }

    public boolean isHeld() {
        return held;
    }

    public void release() throws SQLException {
        if (!held) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) { // may: unlock-mismatch
            ps.setLong(1, LEADERSHIP_LOCK_ID);
            ps.executeQuery().close();
        }
        held = false;
    }
}
