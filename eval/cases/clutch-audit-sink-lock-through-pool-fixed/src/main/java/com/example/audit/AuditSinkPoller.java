// Case: clutch's fix for its audit sink poller: the session-level try-lock and its unlock run on one dedicated connection taken from the pool for the lock's lifetime, and the events are forwarded to the sinks while the lock is held, the unlock coming last.
// Source: https://github.com/lyft/clutch/pull/2441
// Kind: correct
// Expected: nothing to report. SqlAuditStorage.attemptLock borrows one connection and keeps it in a field only when pg_try_advisory_lock returned true; a false result gives the connection back unlocked and tick() skips the work. releaseLock unlocks on that same connection (F1) and returns it to the pool only when pg_advisory_unlock returned true; when the unlock fails or returns false, and when the lock query itself fails, the connection is evicted, which closes the physical connection and ends the session, releasing any session lock it held (F1), so no locked connection goes back to the pool (F13). The poller runs readAndFanout inside try and the release in finally, on the single poller thread that owns the lease, so the fan-out runs only under the lock and the lock is released on every path.
package com.example.audit;

import io.micrometer.core.instrument.MeterRegistry;
import java.security.SecureRandom;
import java.sql.SQLException;
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

        boolean locked;
        try {
            locked = storage.attemptLock(lockId);
        } catch (SQLException | RuntimeException e) {
            log.error("Error while attempting to get lock", e);
            return;
        }
        if (!locked) {
            metrics.counter("audit.lock_not_acquired").increment();
            return;
        }

        metrics.counter("audit.lock_acquired").increment();
        try {
            readAndFanout();
        } finally {
            if (!storage.releaseLock(lockId)) {
                log.warn("Audit sink lock {} was not held at release; its session was discarded", lockId);
            }
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
