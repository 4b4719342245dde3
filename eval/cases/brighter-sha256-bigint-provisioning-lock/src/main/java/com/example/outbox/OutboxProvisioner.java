package com.example.outbox;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;

public class OutboxProvisioner {

    private final String jdbcUrl;

    public OutboxProvisioner(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl;
    }

    /** Runs at start-up on every instance. */
    public void ensureOutbox(String table) throws SQLException, InterruptedException {
        Optional<BoxProvisioningLock> held =
                BoxProvisioningLock.acquire(jdbcUrl, "outbox:" + table, Duration.ofSeconds(30));
        if (held.isEmpty()) {
            throw new IllegalStateException("timed out waiting to provision outbox " + table);
        }
        try (BoxProvisioningLock lock = held.get();
             Connection conn = DriverManager.getConnection(jdbcUrl);
             Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + table
                    + " (message_id uuid PRIMARY KEY, topic text NOT NULL, body bytea, dispatched_at timestamptz)");
        }
    }
}
