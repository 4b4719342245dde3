package com.example.daemon;

import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Only one API server runs the managed-jobs controller loop; it leads until the process stops. */
@Component
public class ManagedJobsController {

    static final long CONTROLLER_LEADER_LOCK = 5_100_251L;

    private final DataSource dataSource;
    private final JobLoop loop;

    public ManagedJobsController(DataSource dataSource, JobLoop loop) {
        this.dataSource = dataSource;
        this.loop = loop;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void lead() throws SQLException, InterruptedException {
        try (PostgresLock leader = new PostgresLock(dataSource, CONTROLLER_LEADER_LOCK)) {
            while (!leader.acquire(Duration.ofSeconds(30))) {
                // another server leads; keep campaigning
            }
            loop.runUntilShutdown();
        }
    }

    public interface JobLoop {
        void runUntilShutdown() throws InterruptedException;
    }
}
