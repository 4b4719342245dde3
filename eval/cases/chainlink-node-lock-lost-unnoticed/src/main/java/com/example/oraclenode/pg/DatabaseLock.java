// Case: chainlink nodes run as one active node plus hot standbys on one database, the active one being whichever holds a session-level advisory lock taken at boot on a connection kept for the process lifetime; once taken, the lock was never looked at again, so when that session ended under the node (database restart or upgrade, failover, an idle-connection cull, pg_terminate_backend) PostgreSQL released the lock, a standby took it, and both nodes ran against the same database.
// Source: https://github.com/smartcontractkit/chainlink/pull/5638
// Kind: bug
// Expected: takeAndHold polls SELECT pg_try_advisory_lock(?) on a dedicated unpooled connection until it returns true, then returns and the node starts its services; nothing afterwards checks that the session still exists or still holds APP_LOCK_ID. A session-level lock lives exactly as long as its backend: when the backend is terminated or the server restarts, the lock is gone at once while this JVM keeps running with a dead connection it never uses, and the next standby poll succeeds, so two nodes broadcast transactions from the same keys and tables. The structure is otherwise sound (the try-lock result decides, release() unlocks in the node's finally and closes the connection), so no rule page describes the defect: the lock needs a watchdog that re-checks ownership (pg_locks for pg_backend_pid(), or a query on the connection) every few seconds and stops the node, or re-takes the lock on a fresh connection, when it is lost.
package com.example.oraclenode.pg;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure only one node runs on a database at a time. The lock is session-level and lives on a connection opened
 * for it alone, outside the application's pool, so that it is released when the process dies.
 */
public final class DatabaseLock {

    private static final Logger log = LoggerFactory.getLogger(DatabaseLock.class);

    /** Every node of every version uses this key; nothing else in the schema does. */
    static final long APP_LOCK_ID = 1027321974924625846L;

    private final String jdbcUrl;
    private final Properties credentials;
    private final Duration retryInterval;
    private Connection conn;

    public DatabaseLock(String jdbcUrl, Properties credentials, Duration retryInterval) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
        this.retryInterval = retryInterval;
    }

    /** Blocks until this node holds the lock; a standby node waits here for as long as the active node lives. */
    public synchronized void takeAndHold() throws SQLException, InterruptedException {
        log.debug("Taking initial advisory lock {}", APP_LOCK_ID);
        int attempts = 0;
        try {
            conn = DriverManager.getConnection(jdbcUrl, credentials);
            while (!tryLock()) {
                if (attempts++ % 60 == 0) {
                    log.info("Another node holds the advisory lock, waiting (attempt {})", attempts);
                }
                Thread.sleep(retryInterval.toMillis());
            }
        } catch (SQLException | InterruptedException e) {
            closeQuietly();
            throw e;
        }
        log.info("Got advisory lock {}", APP_LOCK_ID);
    }

    private boolean tryLock() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: none
            ps.setLong(1, APP_LOCK_ID);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /** Gives the lock up on a clean shutdown; ends the lock's session either way. */
    public synchronized void release() {
        if (conn == null) {
            return;
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, APP_LOCK_ID);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    log.warn("Advisory lock {} was not held at shutdown", APP_LOCK_ID);
                }
            }
        } catch (SQLException e) {
            log.warn("Error trying to unlock advisory lock on shutdown", e);
        } finally {
            closeQuietly();
        }
    }

    private void closeQuietly() {
        if (conn == null) {
            return;
        }
        try {
            conn.close();
        } catch (SQLException e) {
            log.debug("Closing the lock connection failed", e);
        } finally {
            conn = null;
        }
    }
}
