package com.acme.invoice.locking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A held session-level advisory lock on a two-part key, released by {@link #close()}. Meant for
 * try-with-resources on a connection the caller keeps for the whole critical section:
 *
 * <pre>{@code
 * try (Connection c = dataSource.getConnection();
 *      AdvisoryLock lock = AdvisoryLock.acquire(c, LockKeys.PDF_ARCHIVE_NAMESPACE, customerId)) {
 *     ... // only one instance works on this customer
 * }
 * }</pre>
 *
 * Resources close in reverse order, so the lock is released before the connection goes back to the
 * pool, even when the block throws.
 */
public final class AdvisoryLock implements AutoCloseable {

    private final Connection connection;
    private final int namespace;
    private final int id;

    private AdvisoryLock(Connection connection, int namespace, int id) throws SQLException {
        this.connection = connection;
        this.namespace = namespace;
        this.id = id;
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_lock(?, ?)")) {
            ps.setInt(1, namespace);
            ps.setInt(2, id);
            ps.execute();
        }
    }

    /**
     * Waits until the lock is free and takes it.
     *
     * @param connection the connection that will hold the lock; keep it until {@link #close()}
     * @param namespace  a namespace from {@link LockKeys}
     * @param id         the entity id
     * @return the held lock
     * @throws SQLException when the lock call fails (for example on {@code lock_timeout})
     */
    public static AdvisoryLock acquire(Connection connection, int namespace, int id) throws SQLException {
        return new AdvisoryLock(connection, namespace, id);
    }

    /** Releases the lock on the connection that took it. */
    @Override
    public void close() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
            ps.setInt(1, namespace);
            ps.setInt(2, id);
            ps.execute();
        }
    }

    @Override
    public String toString() {
        return "AdvisoryLock(" + namespace + ", " + id + ")";
    }
}
