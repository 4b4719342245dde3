// Case: statgpt-backend took a session-level pg_try_advisory_lock per (channel, dataset) and committed its index writes while "holding" it; each commit gave the connection back to the pool, so the matching pg_advisory_unlock ran on another connection, returned false unnoticed, and the lock stayed on an idle pooled connection: every later reindex of that dataset waited out its 600 s timeout.
// Source: https://github.com/epam/statgpt-backend/issues/583
// Kind: bug
// Expected: the session-level try-lock runs in a transaction of its own (TransactionTemplate) whose end returns the connection to the pool with the lock still on its session (F1, F13); the writes and the unlock each run in further transactions on whatever connection the pool lends, so the unlock usually answers false and the key leaks, which a successful run alone is enough to cause. Take a transaction-level lock in the transaction that does the writes, or pin one connection for lock, writes and unlock.
package com.example.indexing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

@Service
public class DatasetIndexService {

    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(600);
    private static final long POLL_MILLIS = 500L;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public DatasetIndexService(JdbcTemplate jdbc, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.tx = tx;
    }

    public void reindex(int channelId, int datasetId, List<IndexedDocument> documents) throws TimeoutException, InterruptedException {
        acquire(channelId, datasetId);
        try {
            tx.executeWithoutResult(status -> {
                jdbc.update("DELETE FROM available_dimensions WHERE channel_id = ? AND dataset_id = ?", channelId, datasetId);
                for (IndexedDocument d : documents) {
                    jdbc.update("INSERT INTO available_dimensions(channel_id, dataset_id, code, embedding) VALUES (?, ?, ?, ?)",
                            channelId, datasetId, d.code(), d.embedding());
                }
            });
            tx.executeWithoutResult(status ->
                    jdbc.update("UPDATE dataset_index_state SET indexed_at = now() WHERE channel_id = ? AND dataset_id = ?",
                            channelId, datasetId));
        } finally {
            tx.executeWithoutResult(status ->
                    jdbc.queryForObject("SELECT pg_advisory_unlock(?, ?)", Boolean.class, channelId, datasetId)); // may: unlock-mismatch
        }
    }

    private void acquire(int channelId, int datasetId) throws TimeoutException, InterruptedException {
        Instant deadline = Instant.now().plus(LOCK_TIMEOUT);
        while (true) {
            Boolean got = tx.execute(status ->
                    jdbc.queryForObject("SELECT pg_try_advisory_lock(?, ?)", Boolean.class, channelId, datasetId)); // want: unpinned-session-lock|unlock-mismatch
            if (Boolean.TRUE.equals(got)) {
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException("Could not acquire advisory lock for channel " + channelId + ", dataset " + datasetId);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    public record IndexedDocument(String code, float[] embedding) {
    }
}
