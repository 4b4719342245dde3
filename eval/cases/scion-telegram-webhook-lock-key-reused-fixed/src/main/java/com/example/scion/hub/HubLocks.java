// Case: Scion's fix for its advisory-lock key registry: the Telegram webhook registration leader gets its own key (0x5C10000D, the next free value) instead of the one the GitHub-resolution cache eviction already used, so the leader's long-held lock no longer stops cache eviction on every node.
// Source: https://github.com/GoogleCloudPlatform/scion/pull/1067
// Kind: correct
// Expected: nothing to report. Every singleton key in Keys is a distinct one-bigint value, and each job locks only its own: the eviction round and the webhook leader no longer exclude each other. Both take a session-level try-lock on a connection pinned for as long as they hold it, act only when it returned true, and release it by unlocking on that same connection (checking the result) before the connection goes back to the pool: the eviction per round in try-with-resources, the leader when its session dies, when registration fails and at shutdown.
package com.example.scion.hub;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** Session-level advisory locks for work that must run on one hub node at a time. */
@Component
public class HubLocks {

    /** Every singleton's key, in the one-bigint key space. Declared here so no two jobs pick the same number. */
    public static final class Keys {
        public static final long SCHEDULER_TICK = 0x5C100001L;
        public static final long AGENT_REAPER = 0x5C100002L;
        public static final long BROKER_DISPATCH = 0x5C100003L;
        public static final long HEARTBEAT_SWEEP = 0x5C100004L;
        public static final long NOTIFICATION_FANOUT = 0x5C100005L;
        public static final long LAUNCH_REAPER = 0x5C100006L;
        public static final long SECRET_ROTATION = 0x5C100007L;
        public static final long SCHEMA_MIGRATION = 0x5C100008L;
        public static final long GITHUB_RESOLUTION_CACHE_EVICTION = 0x5C10000AL;
        public static final long DISCORD_GATEWAY = 0x5C100009L;
        public static final long SLACK_SOCKET_MODE = 0x5C10000BL;
        public static final long BROKER_REBALANCE = 0x5C10000CL;
        public static final long TELEGRAM_WEBHOOK = 0x5C10000DL;

        private Keys() {
        }
    }

    private static final Logger log = LoggerFactory.getLogger(HubLocks.class);

    private final DataSource dataSource;

    public HubLocks(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Takes key on a connection borrowed for as long as the lock is held; empty when another node holds it. */
    public Optional<Held> tryLock(long key) throws SQLException {
        Connection conn = dataSource.getConnection();
        boolean acquired;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                acquired = rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException | RuntimeException e) {
            conn.close();
            throw e;
        }
        if (!acquired) {
            conn.close();
            return Optional.empty();
        }
        return Optional.of(new Held(conn, key));
    }

    /** A held lock; closing it unlocks on the connection that took it, then gives that connection back. */
    public static final class Held implements AutoCloseable {
        private final Connection conn;
        private final long key;

        private Held(Connection conn, long key) {
            this.conn = conn;
            this.key = key;
        }

        /** False once the session behind the lock is gone (and with it the lock). */
        public boolean isAlive() {
            try {
                return conn.isValid(2);
            } catch (SQLException e) {
                return false;
            }
        }

        @Override
        public void close() throws SQLException {
            try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                ps.setLong(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!(rs.next() && rs.getBoolean(1))) {
                        log.warn("advisory lock {} was no longer held at release", Long.toHexString(key));
                    }
                }
            } finally {
                conn.close();
            }
        }
    }
}
