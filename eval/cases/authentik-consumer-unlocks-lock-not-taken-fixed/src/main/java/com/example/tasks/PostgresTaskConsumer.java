// Case: authentik's proposed fix for its Postgres task broker: a worker first takes the task's advisory lock with its own pg_try_advisory_lock, returns at once when another worker holds it, and only then claims the row with an UPDATE that no longer calls a lock function, unlocking only when it holds the lock but the claim matched nothing.
// Source: https://github.com/goauthentik/authentik/pull/26252
// Kind: correct
// Expected: nothing to report: the try-lock runs alone in autocommit on the consumer's dedicated session (TaskLocks opens it with DriverManager) and its boolean decides the rest; a worker that lost the race returns without any unlock, so no 'you don't own a lock' warning is written; a worker that holds the key but finds the task done, rejected or not yet due (or whose claim fails) releases it once, in a finally, on the same session; a claimed task keeps its lock until finish() queues it and the next poll unlocks it there, and close() ends the session. Locks are never stacked: held keys belong to tasks in processing, which claim() skips, and queued unlocks are purged before any new claim.
package com.example.tasks;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One consumer per worker process and queue; every worker of the queue is woken by the NOTIFY of each new task. */
public class PostgresTaskConsumer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PostgresTaskConsumer.class);

    private final TaskLocks locks;
    private final String queueName;
    private final Duration lookahead;
    private final Set<UUID> inProcessing = new HashSet<>();
    private final Set<UUID> toUnlock = new HashSet<>();

    public PostgresTaskConsumer(TaskLocks locks, String queueName, Duration lookahead) {
        this.locks = locks;
        this.queueName = queueName;
        this.lookahead = lookahead;
    }

    /** Called with the message ids of the latest NOTIFY batch; returns the first task this worker claims. */
    public Optional<TaskMessage> next(Collection<UUID> notified) throws SQLException {
        purgeLocks();
        for (UUID messageId : notified) {
            TaskMessage message = claim(messageId);
            if (message != null) {
                return Optional.of(message);
            }
            log.debug("Task {} already consumed, skipping", messageId);
        }
        return Optional.empty();
    }

    private TaskMessage claim(UUID messageId) throws SQLException {
        if (inProcessing.contains(messageId)) {
            return null;
        }
        long key = TaskLocks.keyFor(queueName, messageId);
        try (PreparedStatement lock = locks.connection().prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            lock.setLong(1, key);
            try (ResultSet rs = lock.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    return null; // another worker claimed it: nothing of ours to release
                }
            }
        }
        boolean claimed = false;
        try (PreparedStatement ps = locks.connection().prepareStatement(
                "UPDATE tasks_task SET state = 'consumed', mtime = now() "
                        + "WHERE message_id = ? AND queue_name = ? AND state NOT IN ('done', 'rejected') "
                        + "AND (eta < ? OR eta IS NULL) RETURNING actor_name, message")) {
            ps.setObject(1, messageId);
            ps.setString(2, queueName);
            ps.setTimestamp(3, Timestamp.from(Instant.now().plus(lookahead)));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null; // finished, rejected or not due yet
                }
                TaskMessage message = new TaskMessage(messageId, rs.getString("actor_name"), rs.getBytes("message"));
                inProcessing.add(messageId);
                claimed = true;
                return message;
            }
        } finally {
            if (!claimed) {
                locks.unlock(key); // this session holds it: the try-lock above returned true
            }
        }
    }

    /** Records the outcome; the task's lock is released at the start of the next poll. */
    public void finish(UUID messageId, boolean succeeded) throws SQLException {
        inProcessing.remove(messageId);
        toUnlock.add(messageId);
        try (PreparedStatement ps = locks.connection().prepareStatement(
                "UPDATE tasks_task SET state = ?, mtime = now(), eta = NULL WHERE message_id = ? AND state <> 'queued'")) {
            ps.setString(1, succeeded ? "done" : "rejected");
            ps.setObject(2, messageId);
            ps.executeUpdate();
        }
    }

    private void purgeLocks() throws SQLException {
        for (UUID messageId : Set.copyOf(toUnlock)) {
            locks.unlock(TaskLocks.keyFor(queueName, messageId));
            toUnlock.remove(messageId);
        }
    }

    @Override
    public void close() throws SQLException {
        locks.close();
    }

    public record TaskMessage(UUID messageId, String actorName, byte[] payload) {
    }
}
