// Case: the raystack/frontier fix: TryLock runs pg_try_advisory_lock on the connection it pins, Unlock runs on that same connection and reads pg_advisory_unlock's answer, failing with "lock not held" instead of dropping it.
// Source: https://github.com/raystack/frontier/pull/1918
// Kind: correct
// Expected: nothing to report: lock and unlock run on one pinned connection, the try-lock result decides whether the job runs, the unlock's result is checked, the connection goes back to the pool only after the unlock (or at once when the lock was not granted), and the job releases through try-with-resources.
package com.example.jobs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

@Component
public class AdvisoryLocker {

    public static final class LockNotHeldException extends SQLException {
        LockNotHeldException(long key) {
            super("advisory lock " + key + " was not held by this session");
        }
    }

    private final DataSource dataSource;

    public AdvisoryLocker(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public final class Held implements AutoCloseable {
        private final Connection conn;
        private final long key;

        private Held(Connection conn, long key) {
            this.conn = conn;
            this.key = key;
        }

        @Override
        public void close() throws SQLException {
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                ps.setLong(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        throw new LockNotHeldException(key);
                    }
                }
            } finally {
                conn.close();
            }
        }
    }

    /** Empty when another instance holds the key. */
    public Optional<Held> tryLock(long key) throws SQLException {
        Connection conn = dataSource.getConnection();
        boolean got = false;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                got = rs.next() && rs.getBoolean(1);
            }
        } finally {
            if (!got) {
                conn.close();
            }
        }
        return got ? Optional.of(new Held(conn, key)) : Optional.empty();
    }
}
