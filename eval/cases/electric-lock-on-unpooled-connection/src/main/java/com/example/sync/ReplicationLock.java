// Case: Electric saw its advisory lock still held after the process that owned it had terminated, and traced it to pooling: the lock was taken on a pooled connection (PgBouncer does not support session locks in transaction mode). The fix takes the lock on a regular, unpooled connection and relies on session end, not an explicit unlock, to release it.
// Source: https://github.com/electric-sql/electric/pull/2682
// Kind: correct
// Expected: nothing to report. The blocking pg_advisory_lock runs on a connection opened with DriverManager against the direct URL (port 5432), kept in a field for the life of the instance and never handed to a pool; the key is released when that session ends, by close() at shutdown or by the server when the process dies (F1), so no pg_advisory_unlock is needed. The PgBouncer URL on port 6432 in application.properties belongs to the other, pooled DataSource (StorageConfig), which takes no advisory lock. The key is hashtext of a configured slot name: a handful of values.
package com.example.sync;

import jakarta.annotation.PreDestroy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/** Only one instance may stream from a replication slot: the others wait here until it goes away. */
@Component
public class ReplicationLock implements AutoCloseable {

    private final String directUrl;
    private final String user;
    private final String slotName;
    private volatile Connection lockConnection;

    public ReplicationLock(@Value("${electric.database-url}") String directUrl,
                           @Value("${electric.db-user}") String user,
                           @Value("${electric.replication-slot}") String slotName) {
        this.directUrl = directUrl;
        this.user = user;
        this.slotName = slotName;
    }

    /** Blocks until this instance holds the slot's lock; it lasts as long as the dedicated session. */
    public void acquire() throws SQLException {
        Connection conn = DriverManager.getConnection(directUrl, user, null);   // not pooled: the session is ours
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_lock(hashtext(?))")) {
            ps.setString(1, "electric_slot_" + slotName);
            ps.executeQuery().close();
        } catch (SQLException e) {
            conn.close();
            throw e;
        }
        lockConnection = conn;
    }

    /** Ending the session releases its session-level advisory locks; PostgreSQL does so even on a crash. */
    @PreDestroy
    @Override
    public void close() throws SQLException {
        if (lockConnection != null) {
            lockConnection.close();
            lockConnection = null;
        }
    }
}
