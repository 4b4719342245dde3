// Case: the fix Unleash shipped for its migration lock: the wait for the lock is bounded with lock_timeout, and when the migration outlives its timeout the lock connection is deliberately left open, so the lock stays held until the stuck process dies instead of being handed to a peer while the migration still runs.
// Source: https://github.com/Unleash/unleash/commit/c2c06504eebd757e6a391cb00a5e1c04d896db5f
// Kind: correct
// Expected: nothing to report. The session-level pg_advisory_lock is taken on a connection opened with DriverManager for this call alone (not pooled), after set_config('lock_timeout', ..., false) on that same session, so a replica behind a stuck holder fails with 55P03 instead of hanging. On success or on a failed migration the finally block closes the connection, which ends the backend session and with it the lock (PostgreSQL releases session locks at session end); the action has finished by then. On timeout the action may still be running, so the connection is kept open on purpose and DbLockActionTimeoutException fails the start-up: the lock is released only when the process exits and its connection drops, never while the migration can still write. A tool that wants an explicit pg_advisory_unlock on every path would be debatable at the lock line.
package com.example.flags.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs an action (the schema migration) on one replica at a time, guarded by a PostgreSQL advisory lock. */
public class DbLock {

    public static final long DEFAULT_LOCK_KEY = 479341L;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofMinutes(30);

    private static final Logger log = LoggerFactory.getLogger(DbLock.class);

    /** The action outlived its timeout and may still be running: the lock stays held until the process exits. */
    public static class DbLockActionTimeoutException extends Exception {
        public DbLockActionTimeoutException(Duration timeout) {
            super("The action holding the db lock timed out after " + timeout.toMillis() + "ms and is still running. "
                    + "The lock stays held; only terminating the process releases it safely.");
        }
    }

    private final String url;
    private final String username;
    private final String password;
    private final long lockKey;
    private final Duration timeout;
    private final Duration lockTimeout;
    private final ExecutorService actions = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "db-lock-action");
        thread.setDaemon(true);
        return thread;
    });

    public DbLock(String url, String username, String password, long lockKey, Duration timeout, Duration lockTimeout) {
        this.url = url;
        this.username = username;
        this.password = password;
        this.lockKey = lockKey;
        this.timeout = timeout;
        this.lockTimeout = lockTimeout;
    }

    public <T> T withLock(Callable<T> action) throws Exception {
        Connection conn = DriverManager.getConnection(url, username, password);
        boolean timedOut = false;
        try {
            // bound the wait for the lock: a stuck peer must not hang this replica's start-up for ever
            try (PreparedStatement ps = conn.prepareStatement("SELECT set_config('lock_timeout', ?, false)")) {
                ps.setString(1, Long.toString(lockTimeout.toMillis()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                }
            }
            try (Statement st = conn.createStatement()) {
                st.execute("SELECT pg_advisory_lock(" + lockKey + ")"); // may: lock-without-finally-unlock
            }

            Future<T> running = actions.submit(action);
            try {
                return running.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                timedOut = true;
                throw new DbLockActionTimeoutException(timeout);
            } catch (ExecutionException e) {
                throw unwrap(e);
            }
        } catch (Exception e) {
            log.error("Locking error: {}", e.getMessage());
            throw e;
        } finally {
            // closing this unpooled connection ends the session, which releases the advisory lock;
            // on timeout the action may still be running, so stay connected and keep the lock held
            if (!timedOut) {
                conn.close();
            }
        }
    }

    private static Exception unwrap(ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof Exception) {
            return (Exception) cause;
        }
        return new SQLException("Locked action failed", cause);
    }
}
