// Case: clutch's audit service forwards unsent audit events to its sinks from every replica on a jittered ticker, guarded by a session-level pg_try_advisory_lock that it took and released through the pooled data source (each call on whatever connection the pool lends), and it released the lock before forwarding instead of after.
// Source: https://github.com/lyft/clutch/pull/2441
// Kind: bug
// Expected: SqlAuditStorage.attemptLock runs pg_try_advisory_lock through JdbcTemplate outside any transaction, so the call borrows a pooled connection, takes a session-level lock on it (F1) and hands the connection back to Hikari still holding the lock (F13); releaseLock runs pg_advisory_unlock through JdbcTemplate again, on whichever pooled connection it is lent, where it returns false with a WARNING when that is another session (F7). The lock then stays on an idle pooled connection: the replica that owns it re-takes it whenever the pool lends it that connection (stacking, F4) and every other replica reports lock_not_acquired until the connection is retired. Second defect of the same thread, fixed in the same PR: tick() releases the lock before readAndFanout(), so the fan-out it is meant to serialise runs unlocked on every replica that won the try-lock in turn (no rule describes work placed after the unlock).
package com.example.audit;

import io.micrometer.core.instrument.MeterRegistry;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

public class AuditSinkPoller implements AutoCloseable {

    /** A destination for audit events (Slack, a log index, ...). */
    public interface AuditSink {
        String name();

        void write(SqlAuditStorage.AuditEvent event) throws Exception;
    }

    private static final Logger log = LoggerFactory.getLogger(AuditSinkPoller.class);

    private final SqlAuditStorage storage;
    private final List<AuditSink> sinks;
    private final MeterRegistry metrics;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(
            r -> new Thread(r, "audit-sink-poller"));

    public AuditSinkPoller(SqlAuditStorage storage, List<AuditSink> sinks, MeterRegistry metrics) {
        this.storage = storage;
        this.sinks = List.copyOf(sinks);
        this.metrics = metrics;
    }

    /** Starts polling every 10 to 14 seconds; the jitter spreads the replicas' ticks apart. */
    public void start() {
        long periodSeconds = 10 + new SecureRandom().nextInt(5);
        ticker.scheduleWithFixedDelay(this::tick, periodSeconds, periodSeconds, TimeUnit.SECONDS);
    }

    void tick() {
        metrics.counter("audit.tick").increment();
        long lockId = SqlAuditStorage.SINK_LOCK_ID;

        boolean locked = false;
        try {
            locked = storage.attemptLock(lockId);
        } catch (DataAccessException e) {
            log.error("Error while attempting to get lock", e);
        }

        if (locked) {
            metrics.counter("audit.lock_acquired").increment();
            try {
                storage.releaseLock(lockId); // may: unlock-mismatch|unpinned-session-lock
            } catch (DataAccessException e) {
                log.error("Error trying to release lock", e);
            }

            readAndFanout(); // want: none
        } else {
            metrics.counter("audit.lock_not_acquired").increment();
        }
    }

    void readAndFanout() {
        List<SqlAuditStorage.AuditEvent> events;
        try {
            events = storage.claimUnsentEvents();
        } catch (DataAccessException e) {
            metrics.counter("audit.events_fetch_error").increment();
            return;
        }
        metrics.counter("audit.events_total").increment(events.size());

        for (SqlAuditStorage.AuditEvent event : events) {
            metrics.timer("audit.event_lag").record(Duration.between(event.occurredAt(), Instant.now()));
            for (AuditSink sink : sinks) {
                try {
                    sink.write(event);
                    metrics.counter("audit.event_write.success", "sink", sink.name()).increment();
                } catch (Exception e) {
                    metrics.counter("audit.event_write.fail", "sink", sink.name()).increment();
                    log.error("error writing audit event {} to sink {}", event.id(), sink.name(), e);
                }
            }
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
