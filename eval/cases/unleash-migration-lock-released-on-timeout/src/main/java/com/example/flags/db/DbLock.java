// Case: Unleash serialised the start-up schema migration of its replicas with a session-level pg_advisory_lock on a dedicated connection and raced the migration against a 30-minute timeout; when the timeout fired, its finally block released the lock and closed the connection while the migration was still running, so a waiting replica took the lock and migrated the same schema concurrently.
// Source: https://github.com/Unleash/unleash/commit/c2c06504eebd757e6a391cb00a5e1c04d896db5f
// Kind: bug
// Expected: withLock takes pg_advisory_lock on its own (unpooled) connection, hands the action to another thread and waits for it at most `timeout`. On TimeoutException the action is neither finished nor cancelled: the migration keeps running on its own connections, yet the finally block runs pg_advisory_unlock and closes the lock connection (either one alone releases a session-level lock). A replica blocked in pg_advisory_lock is granted the key at once and runs the same migrations while the first one is still applying them, which is exactly what the lock exists to prevent. The unlock line is the defect: the lock must stay held (connection kept open) until the action has ended or the process dies. No rule describes an unlock reached by a timeout while the guarded work still runs; session-unlock-before-commit is the nearest (the migration's transaction is still open when the key is released). Secondarily, the blocking pg_advisory_lock has no lock_timeout, so a replica stuck behind a hung holder waits for ever (the fix added one).
package com.example.flags.db;

import java.sql.Connection;
import java.sql.DriverManager;
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

    private static final Logger log = LoggerFactory.getLogger(DbLock.class);

    private final String url;
    private final String username;
    private final String password;
    private final long lockKey;
    private final Duration timeout;
    private final ExecutorService actions = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "db-lock-action");
        thread.setDaemon(true);
        return thread;
    });

    public DbLock(String url, String username, String password, long lockKey, Duration timeout) {
        this.url = url;
        this.username = username;
        this.password = password;
        this.lockKey = lockKey;
        this.timeout = timeout;
    }

    public <T> T withLock(Callable<T> action) throws Exception {
        Connection conn = DriverManager.getConnection(url, username, password);
        boolean lockAcquired = false;
        try {
            // wait to obtain the lock
            try (Statement st = conn.createStatement()) {
                st.execute("SELECT pg_advisory_lock(" + lockKey + ")"); // may: blocking-lock-without-timeout
            }
            lockAcquired = true;

            Future<T> running = actions.submit(action);
            try {
                return running.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw unwrap(e);
            }
        } catch (TimeoutException e) {
            log.error("Locking error: action did not finish within {}", timeout);
            throw new IllegalStateException("Query read timeout", e);
        } catch (Exception e) {
            log.error("Locking error: {}", e.getMessage());
            throw e;
        } finally {
            if (lockAcquired) {
                try (Statement st = conn.createStatement()) {
                    st.execute("SELECT pg_advisory_unlock(" + lockKey + ")"); // want: none // may: session-unlock-before-commit
                }
            }
            conn.close();
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
