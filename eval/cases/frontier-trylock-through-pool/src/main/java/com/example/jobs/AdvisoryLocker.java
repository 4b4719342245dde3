// Case: raystack/frontier's TryLock pinned a connection for the lock but ran pg_try_advisory_lock through the pool, so Unlock on the pinned connection released nothing (pg_advisory_unlock answered false, ignored) and the key stayed held by an idle pooled connection until its max lifetime.
// Source: https://github.com/raystack/frontier/pull/1918
// Kind: bug
// Expected: the try-lock goes through JdbcTemplate outside any transaction, i.e. on whatever pooled connection it borrows, while the unlock runs on the separately pinned connection: the unlock returns false (dropped), the lock stays on an idle pool connection and later runs of both jobs see "busy"; run lock and unlock on the one pinned connection and check the unlock's result.
package com.example.jobs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
public class AdvisoryLocker {

    private final DataSource dataSource;
    private final JdbcTemplate jdbc;

    public AdvisoryLocker(DataSource dataSource, JdbcTemplate jdbc) {
        this.dataSource = dataSource;
        this.jdbc = jdbc;
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
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) { // want: unlock-mismatch|try-lock-result-ignored
                ps.setLong(1, key);
                ps.execute();
            } finally {
                conn.close();
            }
        }
    }

    /** Empty when another instance holds the key. */
    public Optional<Held> tryLock(long key) throws SQLException {
        Connection conn = dataSource.getConnection();   // meant to pin the session for the lock's lifetime
        Boolean got = jdbc.queryForObject("SELECT pg_try_advisory_lock(?)", Boolean.class, key); // want: unpinned-session-lock // may: lock-without-finally-unlock
        if (!Boolean.TRUE.equals(got)) {
            conn.close();
            return Optional.empty();
        }
        return Optional.of(new Held(conn, key));
    }
}
