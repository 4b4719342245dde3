package com.example.sync;

import java.sql.SQLException;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

@Component
public class ReplicationStarter {

    private final ReplicationLock lock;

    public ReplicationStarter(ReplicationLock lock) {
        this.lock = lock;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void start() throws SQLException {
        lock.acquire();      // a standby instance waits here until the active one stops
        // open the logical replication stream and serve shapes
    }
}
