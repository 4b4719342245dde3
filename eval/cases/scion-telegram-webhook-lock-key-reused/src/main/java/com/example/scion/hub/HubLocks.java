// Case: Scion's hub keeps one registry of advisory-lock keys for its singleton background work; the key added for the Telegram webhook registration leader was given the value already used by the GitHub-resolution cache eviction (0x5C10000A), so the two unrelated singletons took one lock and, while a node held the webhook leadership, cache eviction could run nowhere.
// Source: https://github.com/GoogleCloudPlatform/scion/pull/1067
// Kind: bug
// Expected: Keys.GITHUB_RESOLUTION_CACHE_EVICTION and Keys.TELEGRAM_WEBHOOK are two constants declared separately with the same one-bigint value 0x5C10000A; PostgreSQL only sees the number, so the eviction job's pg_try_advisory_lock and the webhook leader's are the same lock. The leader holds its lock for as long as it leads (its pinned session never unlocks while healthy), so every eviction run on every other node gets false and skips: expired cache rows are never purged; and an eviction that happens to win the key first keeps a standby from becoming webhook leader for that run. Each singleton needs its own key (the fix moves the webhook to the next free value).
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
        public static final long GITHUB_RESOLUTION_CACHE_EVICTION = 0x5C10000AL; // may: duplicate-lock-key
        public static final long DISCORD_GATEWAY = 0x5C100009L;
        public static final long TELEGRAM_WEBHOOK = 0x5C10000AL; // may: duplicate-lock-key
        public static final long SLACK_SOCKET_MODE = 0x5C10000BL;
        public static final long BROKER_REBALANCE = 0x5C10000CL;

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
