// Case: Brighter's PostgreSQL box-provisioning lock moved from pg_try_advisory_lock(namespace, hashtext(key)) (a 32-bit hash) to a signed 64-bit key from the first 8 bytes of SHA-256("74726:" + key), used by one key-derivation method for both acquire and release with the one-bigint overloads.
// Source: https://github.com/BrighterCommand/Brighter/pull/4176
// Kind: correct
// Expected: correct: the key is 64 bits of SHA-256 read as a signed long (always in bigint range, collisions ~2^-64), computed by one method for lock and unlock; the try-lock is polled with backoff until a deadline and stops at the first success; the lock lives on the handle's own unpooled connection and close() unlocks then closes it, so it ends on every path.
package com.example.outbox;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/** Serializes creation of outbox/inbox tables across service instances that start together. */
public final class BoxProvisioningLock implements AutoCloseable {

    private static final String NAMESPACE = "74726";

    private final Connection conn;
    private final long key;

    private BoxProvisioningLock(Connection conn, long key) {
        this.conn = conn;
        this.key = key;
    }

    static long deriveLockKey(String lockKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((NAMESPACE + ":" + lockKey).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, 8).getLong();     // big-endian, signed: any value is a valid bigint
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The held lock, or empty when another instance kept it past the timeout. */
    public static Optional<BoxProvisioningLock> acquire(String jdbcUrl, String lockKey, Duration timeout)
            throws SQLException, InterruptedException {
        long key = deriveLockKey(lockKey);
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoffMillis = 50;
        Connection conn = DriverManager.getConnection(jdbcUrl);    // own session, not from the pool
        boolean handedOver = false;
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            while (true) {
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        handedOver = true;
                        return Optional.of(new BoxProvisioningLock(conn, key));
                    }
                }
                if (System.nanoTime() >= deadline) {
                    return Optional.empty();
                }
                Thread.sleep(backoffMillis);
                backoffMillis = Math.min(backoffMillis * 2, 1_000);
            }
        } finally {
            if (!handedOver) {
                conn.close();
            }
        }
    }

    @Override
    public void close() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    System.err.println("box provisioning lock " + key + " was not held at release");
                }
            }
        } finally {
            conn.close();                                    // ends the session: the lock cannot outlive it
        }
    }
}
