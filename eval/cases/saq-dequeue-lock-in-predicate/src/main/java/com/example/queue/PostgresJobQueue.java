// Case: SAQ's Postgres queue took pg_try_advisory_lock(keyspace, lock_key) in the WHERE of the dequeue subquery that also has ORDER BY ... LIMIT; on a sequential scan the lock ran for every row scanned, so workers held locks on jobs of other queues and those jobs were skipped or corrupted
// Source: https://github.com/tobymao/saq/pull/240
// Kind: bug
// Expected: the try-lock sits in the WHERE of a query block with ORDER BY/LIMIT: PostgreSQL may evaluate it for every row it scans, before the queue/status filters and the LIMIT (F8), leaving session locks on jobs this worker never returns or unlocks; select and limit the rows first (or FOR UPDATE SKIP LOCKED) and lock only the returned rows.
package com.example.queue;

import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

public class PostgresJobQueue implements AutoCloseable {

    private static final int JOB_LOCK_KEYSPACE = 4_711;

    private static final String DEQUEUE_SQL =
            "UPDATE saq_jobs SET status = 'active', started = now() "
            + "WHERE key IN ("
            + "  SELECT key FROM saq_jobs "
            + "  WHERE status = 'queued' AND queue = :queue AND scheduled <= now() "
            + "    AND pg_try_advisory_lock(:keyspace, lock_key) "   // want: lock-in-limit-query
            + "  ORDER BY scheduled "
            + "  LIMIT :limit "
            + "  FOR UPDATE SKIP LOCKED) "
            + "RETURNING key, lock_key, function, kwargs";

    private final Handle handle;      // one handle (one session) per worker: the session locks live on it
    private final String queue;

    public PostgresJobQueue(Jdbi jdbi, String queue) {
        this.handle = jdbi.open();
        this.queue = queue;
    }

    public List<Map<String, Object>> dequeue(int limit) {
        return handle.createQuery(DEQUEUE_SQL)
                .bind("queue", queue)
                .bind("keyspace", JOB_LOCK_KEYSPACE)
                .bind("limit", limit)
                .mapToMap()
                .list();
    }

    public void finish(String key, int lockKey, String status) {
        handle.useTransaction(h -> h.createUpdate("UPDATE saq_jobs SET status = :status, completed = now() WHERE key = :key")
                .bind("status", status)
                .bind("key", key)
                .execute());
        Boolean released = handle.createQuery("SELECT pg_advisory_unlock(:keyspace, :lockKey)")
                .bind("keyspace", JOB_LOCK_KEYSPACE)
                .bind("lockKey", lockKey)
                .mapTo(Boolean.class)
                .one();
        if (!Boolean.TRUE.equals(released)) {
            throw new IllegalStateException("job " + key + " was not locked by this worker");
        }
    }

    @Override
    public void close() {
        handle.close();
    }
}
