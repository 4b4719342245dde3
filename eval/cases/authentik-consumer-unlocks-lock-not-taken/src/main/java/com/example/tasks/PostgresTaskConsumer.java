// Case: authentik's Postgres task broker claims a notified task with one UPDATE whose WHERE clause also calls pg_try_advisory_lock, and whenever that UPDATE claims no row it calls pg_advisory_unlock, so every worker that loses the race for a task unlocks a lock it never took and PostgreSQL logs "you don't own a lock of type ExclusiveLock" each time.
// Source: https://github.com/goauthentik/authentik/pull/26252
// Kind: bug
// Expected: every worker of a queue gets the NOTIFY of every new task and runs claim(); the winner's UPDATE takes the task's session-level lock, and for each loser the UPDATE returns no row, either because pg_try_advisory_lock returned false (the winner's session holds the key) or because the state/eta filter rejected the row before the lock function ran. A missing row does not say whether the lock was taken, yet locks.unlock(key) runs on every miss: pg_advisory_unlock of a key this session does not hold returns false and writes 'WARNING: you don't own a lock of type ExclusiveLock' to the server log, once per losing worker per task, which filled the database's log volume in the reports. The lock call sits in the predicate of a primary-key UPDATE, hence only a may marker there. Take the try-lock in its own statement, return without unlocking when it fails, and unlock only a lock actually held.
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
        try (PreparedStatement ps = locks.connection().prepareStatement(
                "UPDATE tasks_task SET state = 'consumed', mtime = now() "
                        + "WHERE message_id = ? AND queue_name = ? AND state NOT IN ('done', 'rejected') "
                        + "AND (eta < ? OR eta IS NULL) AND pg_try_advisory_lock(?) " // may: lock-in-row-filter
                        + "RETURNING actor_name, message")) {
            ps.setObject(1, messageId);
            ps.setString(2, queueName);
            ps.setTimestamp(3, Timestamp.from(Instant.now().plus(lookahead)));
            ps.setLong(4, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    locks.unlock(key); // want: unlock-mismatch
                    return null;
                }
                inProcessing.add(messageId);
                return new TaskMessage(messageId, rs.getString("actor_name"), rs.getBytes("message"));
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
