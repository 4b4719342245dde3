package com.example.manager;

import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Produces an event once per interval, on one manager instance only among all those running: each instance's timer
 * thread takes the timer's distributed lock, produces the event, sleeps out the interval and releases the lock, so
 * the instances take turns.
 */
public class GlobalTimer implements Runnable {

    /** A lock shared by all manager instances. */
    public interface DistributedLock {
        void acquire() throws SQLException;

        void release() throws SQLException;
    }

    /** Publishes to the manager event bus (the scheduler listens for the tick events). */
    public interface EventProducer {
        void produce(Object event);
    }

    /** Asks the scheduler to schedule pending sessions. */
    public record DoScheduleEvent() {
    }

    private static final Logger log = LoggerFactory.getLogger(GlobalTimer.class);

    private final DistributedLock lock;
    private final EventProducer producer;
    private final Supplier<?> eventFactory;
    private final Duration interval;
    private volatile boolean stopped;

    public GlobalTimer(DistributedLock lock, EventProducer producer, Supplier<?> eventFactory, Duration interval) {
        this.lock = lock;
        this.producer = producer;
        this.eventFactory = eventFactory;
        this.interval = interval;
    }

    /** The scheduler's tick: one DoScheduleEvent every 10 s across the cluster. */
    public static GlobalTimer scheduleTimer(Database db, EventProducer producer) {
        return new GlobalTimer(new PgAdvisoryLock(db, Database.LOCKID_SCHEDULE_TIMER), producer, DoScheduleEvent::new,
                Duration.ofSeconds(10));
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                lock.acquire();
                try {
                    if (stopped) {
                        return;
                    }
                    producer.produce(eventFactory.get());
                    Thread.sleep(interval.toMillis());
                } finally {
                    lock.release();
                }
            } catch (SQLException e) {
                if ("55P03".equals(e.getSQLState())) {
                    log.debug("timer lock held by another manager instance; retrying");
                } else {
                    log.warn("global timer tick on {} failed", lock, e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public void stop() {
        stopped = true;
    }
}
