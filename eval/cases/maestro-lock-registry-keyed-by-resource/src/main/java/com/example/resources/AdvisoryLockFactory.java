// Case: Maestro's lock factory held each advisory lock as an open transaction (pg_advisory_xact_lock on its own session) and remembered it in a map keyed by "resourceId-lockType"; a second attempt on the same resource replaced the holder's entry, so the holder's unlock(owner) found nothing, never committed, and the lock stayed held. The fix keys the map by the owner id.
// Source: https://github.com/openshift-online/maestro/pull/25
// Kind: bug
// Expected: newNonBlockingLock registers its attempt under the resource key even when the try-lock failed, replacing the holder's entry; the loser's unlock commits its own empty transaction and removes the entry, and the holder's unlock no longer finds its transaction, so its xact lock and pooled connection stay held until the connection dies and every later blocking lock on that resource hangs. Register each lock under its unique owner id (and only when acquired).
package com.example.resources;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Locks a (resource id, lock type) with pg_advisory_xact_lock in a transaction of its own; the
 * lock ends when {@link #unlock(String)} commits that transaction. Only the outermost caller's
 * owner id unlocks, so nested service calls may pass along an owner id they do not own.
 */
public class AdvisoryLockFactory {

    private final DataSource dataSource;
    private final Map<String, AdvisoryLock> locks = new ConcurrentHashMap<>();

    public AdvisoryLockFactory(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Blocks until the lock is held; returns the owner id to pass to {@link #unlock(String)}. */
    public String newAdvisoryLock(String id, String lockType) throws SQLException {
        AdvisoryLock lock = AdvisoryLock.begin(dataSource, id, lockType);
        try (PreparedStatement ps = lock.conn.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) { // may: weak-lock-key-hash
            ps.setInt(1, fnv32(id));
            ps.setInt(2, fnv32(lockType));
            ps.execute();
        } catch (SQLException e) {
            lock.end();
            throw e;
        }
        locks.put(id + "-" + lockType, lock);
        return lock.owner;
    }

    /** Tries once; the caller always calls {@link #unlock(String)} with the returned owner id. */
    public LockAttempt newNonBlockingLock(String id, String lockType) throws SQLException {
        AdvisoryLock lock = AdvisoryLock.begin(dataSource, id, lockType);
        boolean acquired;
        try (PreparedStatement ps = lock.conn.prepareStatement("SELECT pg_try_advisory_xact_lock(?, ?)")) { // may: weak-lock-key-hash
            ps.setInt(1, fnv32(id));
            ps.setInt(2, fnv32(lockType));
            try (ResultSet rs = ps.executeQuery()) {
                acquired = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            lock.end();
            throw e;
        }
        locks.put(id + "-" + lockType, lock);          // want: none
        return new LockAttempt(lock.owner, acquired);
    }

    /** Commits the transaction of the lock this owner id took; other owner ids are ignored. */
    public void unlock(String owner) {
        Iterator<Map.Entry<String, AdvisoryLock>> it = locks.entrySet().iterator();
        while (it.hasNext()) {
            AdvisoryLock lock = it.next().getValue();
            if (lock.owner.equals(owner)) {
                it.remove();
                lock.end();
                return;
            }
        }
        // not found: a nested call that does not own the lock
    }

    static int fnv32(String s) {
        int h = 0x811c9dc5;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x01000193;
        }
        return h;
    }

    public record LockAttempt(String owner, boolean acquired) {}

    static final class AdvisoryLock {
        final String owner = UUID.randomUUID().toString();
        final Connection conn;

        private AdvisoryLock(Connection conn) {
            this.conn = conn;
        }

        static AdvisoryLock begin(DataSource ds, String id, String lockType) throws SQLException {
            Connection conn = ds.getConnection();
            conn.setAutoCommit(false);
            return new AdvisoryLock(conn);
        }

        void end() {
            try (Connection c = conn) {
                c.commit();                            // releases the xact lock
            } catch (SQLException e) {
                // logged and dropped
            }
        }
    }
}
